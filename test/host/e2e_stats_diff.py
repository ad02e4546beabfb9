#!/usr/bin/env python3
"""test/host/e2e_stats_diff.py: baretrace stats --sort, stats --diff and the
command line's --help and --version, end to end.

Builds two synthetic traces (e2e_stats_trace.py, with e2e_wire.py's encoder):
OLD at a 1 GHz counter, NEW at 500 MHz, with functions on two CPUs whose
calls and durations (in ns) are given below, numbered by different sites
in the two (names match, sites do not). Every figure the checks expect
is computed here from those tables, never read back from the tool:
per-function calls, total, self, avg and max, the change in % of OLD,
the order of the rows, which functions cross a --fail-above threshold
and the floor, and each --sort key's order.

Usage: test/host/e2e_stats_diff.py BARETRACE [--keep DIR]
Prints TAP; exit status 0 when every check passed.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_baretrace as eb  # noqa: E402
import e2e_wire as wire  # noqa: E402
from e2e_stats_trace import raw_trace, image  # noqa: E402

# name: list of calls, each (cpu, duration ns, [(child name, child ns)]).
# Durations are even, so NEW's 2 ns ticks hold them exactly.
OLD = {
    "sensor_read": [(0, 900, []), (0, 1100, [])] * 5,
    "filter_step": [(0, 500, [])] * 4,
    "uart_send": [(0, 2000, [])] * 3 + [(1, 2000, [])] * 2,
    "tiny_fn": [(0, 1, [])] * 2,           # 1 ns -> 2 ns: under any sane floor
    "process": [(0, 5000, [("helper_a", 1000)])] * 2,
    "crc_calc": [(1, 750, [])] * 4,
}
NEW = {
    "sensor_read": [(0, 1200, []), (1, 1400, [])] * 5,    # 30 % slower
    "filter_step": [(0, 500, [])] * 6,                     # 50 % more calls
    "uart_send": [(0, 1600, [])] * 5,                      # 20 % faster
    "tiny_fn": [(1, 2, [])] * 2,
    "process": [(0, 5000, [("helper_b", 2000)])] * 2,     # self -25 %
    "crc_calc": [(0, 750, [])] * 4,                        # the same; ties filter_step's total
}
OLD_FREQ, NEW_FREQ = 1000000000, 500000000
KEYS = ["calls", "total", "self", "avg", "max"]


def figures(spec):
    """Per name: calls, total, self, max in ns (children count as calls too)."""
    f = {}

    def add(name, dur, child_ns):
        r = f.setdefault(name, {"calls": 0, "total": 0, "self": 0, "max": 0})
        r["calls"] += 1
        r["total"] += dur
        r["self"] += dur - child_ns
        r["max"] = max(r["max"], dur)

    for name, calls in spec.items():
        for cpu, dur, children in calls:
            add(name, dur, sum(c[1] for c in children))
            for cname, cdur in children:
                add(cname, cdur, 0)
    return f


def value(r, key):
    return r["total"] / r["calls"] if key == "avg" else r[key]


def pct(old, new):
    return (new - old) * 100.0 / old if old else (float("inf") if new else 0.0)


def names_of(spec):
    out = []
    for name, calls in spec.items():
        out.append(name)
        for c in calls[0][2]:
            out.append(c[0])
    return sorted(set(out))


def capture(tap, tool, tmp, name, raw):
    rawp, bt = os.path.join(tmp, name + ".log"), os.path.join(tmp, name + ".bt")
    with open(rawp, "wb") as f:
        f.write(raw)
    rc, out, err = eb.run([tool, "capture", "--file", rawp, "-o", bt])
    tap.ok(rc == 0, f"capture of {name}", err)
    return bt


def parse_diff(out):
    """Rows of a --diff table: name -> (cells, tags)."""
    rows = {}
    order = []
    for line in out.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        parts = line.split()
        if len(parts) < 16:
            continue
        cells, rest = parts[:15], parts[15:]
        name, tags = rest[0], " ".join(rest[1:])
        rows[name] = (cells, tags)
        order.append(name)
    return rows, order


def us(ns):
    return f"{ns // 1000}.{ns % 1000:03d}"


def cell_pct(s):
    """A change cell as a float; anything else (-, +inf%, junk) as it is."""
    try:
        return float(s.rstrip("%"))
    except ValueError:
        return s


def diff_checks(tap, tool, old, new, fo, fn):
    rc, out, err = eb.run([tool, "stats", "--diff", old, new])
    tap.ok(rc == 0 and err == "", "stats --diff exits 0 quietly", f"{rc} {err}")
    rows, order = parse_diff(out)
    both = sorted(set(fo) & set(fn))
    added, removed = sorted(set(fn) - set(fo)), sorted(set(fo) - set(fn))
    tap.ok(f"# {len(both) + len(added) + len(removed)} functions: {len(both)} in both, "
           f"{len(added)} added, {len(removed)} removed;" in out,
           "the summary line counts functions in both, added and removed", out)

    # Every value and change, computed from the tables above.
    bad = []
    for name in both:
        cells = rows.get(name, (["?"] * 15, ""))[0]
        for i, key in enumerate(KEYS):
            o, n = value(fo[name], key), value(fn[name], key)
            shown = (str(o), str(n)) if key == "calls" else (us(int(o)), us(int(n)))
            got = cell_pct(cells[3 * i + 2])
            want = pct(o, n)
            if tuple(cells[3 * i:3 * i + 2]) != shown or not isinstance(got, float) \
                    or abs(got - want) > 0.051:
                bad.append(f"{name} {key}: got {cells[3 * i:3 * i + 3]}, want {shown} {want:+.2f}%")
    tap.ok(not bad and set(rows) == set(both) | set(added) | set(removed),
           "every function's old and new calls, total, self, avg and max and its change in % "
           "match the known inputs (OLD at 1 GHz, NEW at 500 MHz, matched by name)",
           "\n".join(bad) + "\n" + out)
    sensor = rows.get("sensor_read", (["?"] * 15, ""))[0]
    tap.ok(cell_pct(sensor[5]) == 30.0 and cell_pct(sensor[11]) == 30.0,
           "sensor_read is 30 % slower in total and avg", rows.get("sensor_read"))
    none = (["?"] * 15, "")
    tap.ok(all(rows.get(n, none)[1] == "[added]" and rows.get(n, none)[0][:2] ==
               ["-", str(fn[n]["calls"])] for n in added) and
           all(rows.get(n, none)[1] == "[removed]" and rows.get(n, none)[0][:2] ==
               [str(fo[n]["calls"]), "-"] for n in removed) and
           added == ["helper_b"] and removed == ["helper_a"],
           "helper_b is [added] with NEW's figures, helper_a [removed] with OLD's", out)

    def largest(n, keys):
        return max(abs(pct(value(fo[n], k), value(fn[n], k))) for k in keys)

    def group_order(key):
        g = sorted(both, key=lambda n: (-largest(n, [key] if key else KEYS), n))
        k = key or "total"
        g += sorted(added, key=lambda n: (-value(fn[n], k), n))
        return g + sorted(removed, key=lambda n: (-value(fo[n], k), n))

    tap.ok(order == group_order(None),
           "rows: functions in both by their largest change, then added, then removed",
           f"got {order}\nwant {group_order(None)}")
    for key in KEYS:
        rc, out, err = eb.run([tool, "stats", "--diff", old, new, f"--sort={key}"])
        got = parse_diff(out)[1]
        tap.ok(rc == 0 and got == group_order(key), f"stats --diff --sort={key}: by the change "
               "in that column", f"got {got}\nwant {group_order(key)}\n{err}")
    return rows


def over_set(fo, fn, limit, floor_ns):
    """Functions in both whose calls, total or avg grew by more than limit
    %, a time also by floor_ns or more."""
    out = {}
    for n in sorted(set(fo) & set(fn)):
        keys = []
        for k in ("calls", "total", "avg"):
            o, v = value(fo[n], k), value(fn[n], k)
            if pct(o, v) > limit and (k == "calls" or v - o >= floor_ns):
                keys.append(k)
        if keys:
            out[n] = keys
    return out


def fail_checks(tap, tool, old, new, fo, fn):
    cases = [(60, None), (60, 0), (50, None), (49.9, None), (29, None), (25, 0.5),
             (25, 5), (101, 0)]
    for limit, floor in cases:
        args = [tool, "stats", "--diff", old, new, "--fail-above", str(limit)]
        if floor is not None:
            args += ["--floor", str(floor)]
        rc, out, err = eb.run(args)
        floor_ns = 1000 if floor is None else int(floor * 1000)
        want = over_set(fo, fn, limit, floor_ns)
        rows = parse_diff(out)[0]
        got = {n: r[1][len("[over: "):-1].split() for n, r in rows.items() if r[1].startswith("[over:")}
        named = sorted(n for n in want if f"stats --diff: {n} grew more than" in err)
        tap.ok(rc == (3 if want else 0) and got == want and named == sorted(want),
               f"--fail-above {limit}" + (f" --floor {floor}" if floor is not None else "") +
               f": exit {3 if want else 0}, over: {want or 'none'}",
               f"exit {rc}\ngot {got}\nwant {want}\n{err}")
    # The floor is what keeps tiny_fn (1 ns -> 2 ns, +100 %) from failing a run.
    tap.ok("tiny_fn" not in over_set(fo, fn, 60, 1000) and "tiny_fn" in over_set(fo, fn, 60, 0),
           "the cases cover tiny_fn under and over the floor")


def sort_checks(tap, tool, new, fn):
    """Each key: descending, equal values by more calls, then by name."""
    for key in [None] + KEYS:
        args = [tool, "stats", new] + ([f"--sort={key}"] if key else [])
        rc, out, err = eb.run(args)
        got = [l.split()[-1] for l in out.splitlines() if not l.startswith("#")]
        k = key or "total"
        want = sorted(fn, key=lambda n: (-value(fn[n], k), -fn[n]["calls"], n))
        tap.ok(rc == 0 and got == want, f"stats --sort={key or '(default: total)'}: "
               f"{', '.join(want)}", f"got {got}\n{err}")


def elf_checks(tap, tool, tmp, old_order, new_order, with_names):
    """Traces with no symbol dump take their names from each one's ELF."""
    oh = image(os.path.join(tmp, "old.elf"), old_order)
    nh = image(os.path.join(tmp, "new.elf"), new_order)
    old = capture(tap, tool, tmp, "old-bare", raw_trace(OLD, OLD_FREQ, old_order, False, oh))
    new = capture(tap, tool, tmp, "new-bare", raw_trace(NEW, NEW_FREQ, new_order, False, nh))
    rc, out, err = eb.run([tool, "stats", "--diff", old, new, "--old-elf", tmp + "/old.elf",
                           "--new-elf", tmp + "/new.elf"])
    body = [l for l in out.splitlines() if not l.startswith("# stats --diff:")]
    tap.ok(rc == 0 and body == with_names,
           "--old-elf/--new-elf: the same table as from the traces' symbol dumps", out + err)
    rc, out, err = eb.run([tool, "stats", "--diff", old, new])
    tap.ok(rc == 0 and "site#" in out and "sensor_read" not in out,
           "without ELFs they are site numbers", out)
    rc, out, err = eb.run([tool, "stats", "--diff", old, new, "--elf", tmp + "/old.elf"])
    tap.ok(rc == 1 and "does not match" in err and out == "",
           "--elf of OLD's build for both: NEW refused (exit 1), nothing on stdout", err)


def entries_checks(tap, tool, tmp, new):
    """Traces of function entries only: calls compare, times are '-'."""
    ent = capture(tap, tool, tmp, "entries", wire.raw_log_entries(0))
    # raw_log_entries: outer entered once with its caller, then twice
    # more; leaf once after outer, twice more, once from mid, once more.
    want = {"outer": 3, "leaf": 5}
    rc, out, err = eb.run([tool, "stats", "--diff", ent, ent])
    rows = parse_diff(out)[0]
    tap.ok(rc == 0 and "(function entries)" in out and
           {n: r[0][:3] for n, r in rows.items()} ==
           {n: [str(c), str(c), "0.0%"] for n, c in want.items()} and
           all(set(r[0][3:]) == {"-"} for r in rows.values()),
           "a trace of function entries against itself: calls 0.0 %, no times", out + err)
    # No name in common (issue 25): nothing to compare is an error, not a
    # pass, with --fail-above too.
    for extra in ([], ["--fail-above", "10"]):
        rc, out, err = eb.run([tool, "stats", "--diff", ent, new] + extra)
        tap.ok(rc == 1 and out == "" and "share no function: nothing to compare" in err
               and f"{ent} (2 functions)" in err,
               f"entries against graph records {' '.join(extra)}: no name in common is an "
               "error (exit 1), not an empty pass", out + err)


def usage_checks(tap, tool, tmp, old, new):
    """Bad command lines: status 2, a message, nothing on stdout."""
    missing = os.path.join(tmp, "missing.bt")
    cases = [
        (["stats", new, "--sort=speed"], "unknown sort key 'speed'"),
        (["stats", "--diff", old, new, "--sort", "name"], "unknown sort key 'name'"),
        (["stats", "--diff", old], "needs two trace files"),
        (["stats", "--diff", old, new, new], "unexpected argument"),
        (["stats", "--diff", old, new, "--fail-above", "lots"], "bad --fail-above 'lots'"),
        (["stats", "--diff", old, new, "--fail-above", "-5"], "bad --fail-above '-5'"),
        (["stats", "--diff", old, new, "--floor", "1"], "--floor 1 goes with --fail-above"),
        (["stats", "--diff", old, new, "--elf", "a.elf", "--old-elf", "b.elf"],
         "not with --old-elf"),
        (["stats", "--diff", old, new, "--per-cpu"], "unknown option '--per-cpu'"),
    ]
    for args, words in cases:
        rc, out, err = eb.run([tool] + args)
        shown = " ".join(os.path.basename(a) for a in args)
        tap.ok(rc == 2 and words in err and out == "", f"{shown}: "
               f"exit 2, '{words}', nothing written", f"exit {rc}\nstdout: {out}\nstderr: {err}")
    for args in (["stats", "--diff", missing, new], ["stats", "--diff", old, missing]):
        rc, out, err = eb.run([tool] + args)
        tap.ok(rc == 1 and "cannot open" in err and out == "",
               f"stats --diff with a {'OLD' if args[2] == missing else 'NEW'} that does not exist: "
               "exit 1 (bad input), nothing written", f"exit {rc}\n{out}\n{err}")


# Each command and options its usage must name.
COMMANDS = {
    "capture": ["--serial", "--file", "--qemu", "--exec", "--exec-timeout", "--baud"],
    "report": ["--elf", "--ns"],
    "stats": ["--elf", "--per-cpu", "--sort", "--diff", "--old-elf", "--new-elf",
              "--fail-above", "--floor"],
    "export": ["--format", "--elf", "--per-cpu", "-o"],
}


def help_checks(tap, tool, new):
    rc, overview, err = eb.run([tool, "--help"])
    tap.ok(rc == 0 and err == "" and overview.startswith("usage: baretrace COMMAND") and
           all(f"\n  {c} " in overview for c in COMMANDS) and "--version" in overview,
           "baretrace --help: the overview on stdout, naming every command, status 0",
           overview + err)
    for cmd, opts in COMMANDS.items():
        for how in ([cmd, "--help"], [cmd, "-h"], ["help", cmd]):
            rc, out, err = eb.run([tool] + how)
            others = [c for c in COMMANDS if c != cmd and f"usage: baretrace {c}" in out]
            tap.ok(rc == 0 and err == "" and out.startswith(f"usage: baretrace {cmd} ") and
                   all(o in out for o in opts) and not others,
                   f"baretrace {' '.join(how)}: {cmd}'s own usage on stdout, naming "
                   f"{' '.join(opts)}", f"exit {rc}\n{out}\n{err}")
    rc, out, err = eb.run([tool, "stats", new, "--help"])
    tap.ok(rc == 0 and out.startswith("usage: baretrace stats "),
           "--help after other arguments still shows the usage", out + err)
    rc, out, err = eb.run([tool, "help", "frobnicate"])
    tap.ok(rc == 2 and out == "" and "unknown command 'frobnicate'" in err,
           "help of an unknown command: exit 2", err)
    rc, out, err = eb.run([tool, "--version"])
    lines = out.splitlines()
    src = open(os.path.join(eb.HERE, "../../tools/baretrace/help.c")).read()
    version = src.split('#define BT_VERSION\t"')[1].split('"')[0]
    wire_h = open(os.path.join(eb.HERE, "../../wire/wire.h")).read()
    wire_version = wire_h.split("#define WIRE_VERSION")[1].split()[0]
    tap.ok(rc == 0 and err == "" and len(lines) == 2 and
           lines[0].startswith(f"baretrace {version}") and
           lines[1] == f"reads trace files version 1, wire format version {wire_version}",
           f"baretrace --version: {version}, trace file version 1, wire format version "
           f"{wire_version}", out + err)


def checks(tap, tool, tmp):
    old_order = names_of(OLD)                # alphabetical
    new_order = names_of(NEW)[::-1]          # the other way round: sites differ
    old = capture(tap, tool, tmp, "old", raw_trace(OLD, OLD_FREQ, old_order))
    new = capture(tap, tool, tmp, "new", raw_trace(NEW, NEW_FREQ, new_order))
    fo, fn = figures(OLD), figures(NEW)
    diff_checks(tap, tool, old, new, fo, fn)
    rc, out, _ = eb.run([tool, "stats", "--diff", old, new])
    elf_checks(tap, tool, tmp, old_order, new_order,
               [l for l in out.splitlines() if not l.startswith("# stats --diff:")])
    fail_checks(tap, tool, old, new, fo, fn)
    sort_checks(tap, tool, new, fn)
    entries_checks(tap, tool, tmp, new)
    usage_checks(tap, tool, tmp, old, new)
    help_checks(tap, tool, new)


def main():
    return eb.tap_main(checks, __doc__, "bt-diff-")


if __name__ == "__main__":
    sys.exit(main())
