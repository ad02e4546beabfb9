#!/usr/bin/env python3
"""test/host/e2e_filters.py: the host-side filters and `baretrace graph`.

Builds a synthetic trace with test/host/e2e_baretrace.py's encoder from a
call tree written below (CPU 0 and CPU 1, graph entries and exits with
known times, one tracepoint), and a function-tracer trace (entries with
callers, no exits). Every expectation is worked out here from that tree
by the rule the flag documents, not copied from the tool's output:

  --cpu, -F, -N, --depth, --time-range, --min-duration, one combination:
    report (function names of the entry lines, the tracepoint), stats
    (calls and total per function), export chrome-json (the slices), and
    the summary's "N events left out by the filter";
  bad values: status 2, nothing on stdout, no file written;
  graph [FUNC]: calls and total time per call path.

Usage: test/host/e2e_filters.py BARETRACE     Prints TAP.
"""
import json
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_baretrace as bt  # noqa: E402
import e2e_wire as wire
from e2e_baretrace import run  # noqa: E402
from e2e_wire import FREQ, varint, zigzag, rec, payload, escape  # noqa: E402

NS = 16                                  # ns per tick at FREQ (62.5 MHz)
FUNCS = [("_start", 0x0, 0x40), ("main", 0x40, 0x100), ("sensor_read", 0x140, 0x80),
         ("sensor_poll", 0x1C0, 0x40), ("filter_apply", 0x200, 0x80),
         ("filter_step", 0x280, 0x40), ("uart_send", 0x2C0, 0x40)]
SITE = {name: i for i, (name, _, _) in enumerate(FUNCS)}

# The calls: (name, start, end) in ticks after the CPU's base, children
# inside. sensor_poll's second call lasts 625 ticks: exactly 10.000 us.
T0 = 2 * FREQ                            # CPU 0 starts at 2.000000 s
T1 = 2 * FREQ + 10000                    # CPU 1 at 2.000160 s
TREE = {
    0: (T0, [("main", 0, 5000, [
        ("sensor_read", 100, 1100, [("sensor_poll", 200, 300, []),
                                    ("sensor_poll", 400, 1025, [])]),
        ("filter_apply", 1200, 4200, [("filter_step", 1300, 1400, [("uart_send", 1320, 1380, [])]),
                                      ("filter_step", 2000, 4000, [])])])]),
    1: (T1, [("sensor_read", 50, 2550, [("sensor_poll", 100, 2500, [])]),
             ("uart_send", 3000, 3010, [])]),
}
TRACEPOINT = (0, 1500)                   # CPU 0, inside filter_apply


def calls():
    """Every call: dict(cpu, name, start, end (absolute ticks), depth, path)."""
    out = []

    def walk(cpu, base, nodes, depth, path):
        for name, s, e, kids in nodes:
            out.append(dict(cpu=cpu, name=name, start=base + s, end=base + e, depth=depth,
                            path=path + [name]))
            walk(cpu, base, kids, depth + 1, path + [name])
    for cpu, (base, nodes) in TREE.items():
        walk(cpu, base, nodes, 0, [])
    return out


CALLS = calls()
EVENTS = 2 * len(CALLS) + 1


def block(cpu):
    """The CPU's records in time order: entries, exits, the tracepoint."""
    base = TREE[cpu][0]
    evs = []
    for c in (c for c in CALLS if c["cpu"] == cpu):
        evs.append((c["start"], 1, (SITE[c["name"]], c["depth"])))
        evs.append((c["end"], 0, (SITE[c["name"]], c["end"] - c["start"])))
    if TRACEPOINT[0] == cpu:
        evs.append((base + TRACEPOINT[1], 2, None))
    evs.sort(key=lambda e: (e[0], e[1]))  # at one time: the inner exit first
    body, now = varint(base) + varint(0), base
    for ts, kind, data in evs:
        d, now = ts - now, ts
        if kind == 1:
            body += rec(3, d, varint(data[0]), varint(data[1]))
        elif kind == 0:
            body += rec(2, d, varint(data[0]), varint(data[1]), bytes([0]))
        else:
            body += rec(4, d, varint(1), varint(zigzag(27)), wire.string("uart"), varint(zigzag(-3)))
    return body, len(evs)


def symdump():
    b = varint(0) + varint(len(FUNCS))
    for name, start, size in FUNCS:
        b += varint(start) + varint(size) + wire.string(name)
    return b


def capture(blocks):
    head = [(2, 0, 0, wire.metadata(0x1234)), (3, 0, 0, symdump())]
    totals = [(cpu, n, 0, 0, 0, 1) for cpu, (_, n) in blocks]
    frames = head + [(1, cpu, 0, body) for cpu, (body, _) in blocks]
    return (b"".join(escape(payload(*f)) for f in frames) +
            escape(payload(4, 0, 0, wire.end_totals(totals))))


def function_log():
    """Function entries only: (name, caller) at 10-tick steps on CPU 0."""
    body, entries = varint(3 * FREQ) + varint(0), [
        ("main", "_start"), ("sensor_read", "main"), ("sensor_poll", "sensor_read"),
        ("uart_send", "main"), ("sensor_poll", "sensor_read")]
    for name, caller in entries:
        ret = dict((n, s) for n, s, _ in FUNCS)[caller] + 0x10
        body += rec(1, 10, varint(SITE[name]), wire.caller_of(ret))
    return (b"".join(escape(payload(*f)) for f in [(2, 0, 0, wire.metadata(0x1234)),
                                                   (3, 0, 0, symdump()), (1, 0, 0, body)]) +
            escape(payload(4, 0, 0, wire.end_totals([(0, len(entries), 0, 0, 0, 1)])))), entries


# ---- what each flag keeps, from the tree -------------------------------------

def printed_ns(ticks):
    """A time as report prints it (to the microsecond), in ns."""
    ns = ticks * NS
    return ns - ns % 1000


def keep(flag, val):
    """(kept calls as (call, entry kept, exit kept), tracepoint kept)."""
    tp_cpu, tp_t = TRACEPOINT
    tp_ts = TREE[tp_cpu][0] + tp_t
    inside = [c for c in CALLS if c["cpu"] == tp_cpu and c["start"] < tp_ts < c["end"]]
    if flag == "--cpu":
        cpus = {int(x) for x in val.split(",")}
        return [(c, True, True) for c in CALLS if c["cpu"] in cpus], tp_cpu in cpus
    if flag == "-F":
        return ([(c, True, True) for c in CALLS if val in c["path"]],
                any(c["name"] == val for c in inside))
    if flag == "-N":
        def out(c):
            return any(p.startswith(val.rstrip("*")) for p in c["path"])
        return [(c, True, True) for c in CALLS if not out(c)], not any(out(c) for c in inside)
    if flag == "--depth":
        return [(c, True, True) for c in CALLS if c["depth"] < int(val)], True
    if flag == "--time-range":
        a, b = (float(x) * 1e9 if x else None for x in val.split("-"))

        def ok(t):
            return (a is None or a <= printed_ns(t)) and (b is None or printed_ns(t) <= b)
        return ([(c, ok(c["start"]), ok(c["end"])) for c in CALLS
                 if ok(c["start"]) or ok(c["end"])], ok(tp_ts))
    if flag == "--min-duration":
        ns = int(val.rstrip("us")) * 1000
        return [(c, True, True) for c in CALLS if (c["end"] - c["start"]) * NS >= ns], True
    raise ValueError(flag)


def usecs(ticks):
    ns = ticks * NS
    return f"{ns // 1000}.{ns % 1000:03d}"


def entry_names(report):
    """Names of the graph entry lines: 'name() {' or 'name();'."""
    return sorted(m.group(1) for m in re.finditer(r"\|\s+(\w+)\(\)(?: \{|;)", report))


def stats_rows(out):
    rows = {}
    for line in out.splitlines():
        f = line.split()
        if line.startswith("#") or len(f) < 3 or not f[0].isdigit():
            continue
        rows[f[-1]] = (int(f[0]), f[1])
    return rows


def check_flag(tap, tool, tmp, trace, flag, val):
    kept, tp = keep(flag, val)
    label = f"{flag} {val}"
    left = EVENTS - sum(e + x for _, e, x in kept) - tp
    rc, out, err = run([tool, "report", trace, flag, val])
    tap.ok(rc == 0, f"{label}: report exits 0", err)
    want = sorted(c["name"] for c, e, _ in kept if e)
    tap.ok(entry_names(out) == want, f"{label}: report shows the entries of the calls kept",
           f"want {want}\ngot  {entry_names(out)}\n{out}")
    tap.ok(("irq_entry" in out) == tp, f"{label}: report {'keeps' if tp else 'leaves out'} "
           "the tracepoint", out)
    tap.ok(f"# {left} events left out by the filter ({label})" in out,
           f"{label}: report's summary counts {left} events left out", out)
    tap.ok(f"# {EVENTS} events" in out and "lost" not in out,
           f"{label}: the trace's events are all counted, none lost", out)
    rc, out, err = run([tool, "stats", trace, flag, val])
    want = {}
    for c, _, x in kept:
        if x:
            n, t = want.get(c["name"], (0, 0))
            want[c["name"]] = (n + 1, t + c["end"] - c["start"])
    want = {k: (n, usecs(t)) for k, (n, t) in want.items()}
    tap.ok(rc == 0 and stats_rows(out) == want,
           f"{label}: stats has the calls and totals of the calls kept",
           f"want {want}\ngot  {stats_rows(out)}\n{out}{err}")
    tap.ok(f"# {left} events left out by the filter ({label})" in out,
           f"{label}: stats' summary counts {left} events left out", out)
    js = os.path.join(tmp, "f.json")
    rc, _, err = run([tool, "export", "--format=chrome-json", "-o", js, trace, flag, val])
    got = []
    if rc == 0:
        got = sorted((e["name"], round(e["dur"], 3)) for e in json.load(open(js))["traceEvents"]
                     if e.get("ph") == "X")
    want = sorted((c["name"], round((c["end"] - c["start"]) * NS / 1000, 3))
                  for c, _, x in kept if x)
    tap.ok(got == want, f"{label}: chrome-json has the slices of the exits kept",
           f"want {want}\ngot  {got}\n{err}")


def check_graph(tap, tool, trace):
    def tree(func):
        """path (from the root) -> [calls, ticks], roots at FUNC's calls."""
        nodes = {}
        for c in CALLS:
            p = c["path"]
            if func:
                if func not in p:
                    continue
                p = p[p.index(func):]
            n = nodes.setdefault(tuple(p), [0, 0])
            n[0] += 1
            n[1] += c["end"] - c["start"]
        return nodes

    for func in (None, "sensor_read", "filter_apply"):
        rc, out, err = run([tool, "graph"] + ([func] if func else []) + [trace])
        got, stack = {}, []
        for line in out.splitlines():
            m = re.match(r"\s+(\d+\.\d{3}) us\s+(\d+)  ([| ]*)(\+-)?(\w+)$", line)
            if not m:
                continue
            level = (len(m.group(3)) // 2 + 1) if m.group(4) else 0
            stack[level:] = [m.group(5)]
            got[tuple(stack)] = [int(m.group(2)), m.group(1)]
        want = {p: [n, usecs(t)] for p, (n, t) in tree(func).items()}
        tap.ok(rc == 0 and got == want, f"graph {func or ''}: calls and total per call path",
               f"want {want}\ngot  {got}\n{out}{err}")


def check_function_trace(tap, tool, tmp):
    log, trace = os.path.join(tmp, "func.log"), os.path.join(tmp, "func.bt")
    raw, entries = function_log()
    with open(log, "wb") as f:
        f.write(raw)
    rc, _, err = run([tool, "capture", "--file", log, "-o", trace])
    tap.ok(rc == 0, "function trace: capture", err)
    for flag, val, rule in (("-F", "sensor_read", lambda n, c: "sensor_read" in (n, c)),
                            ("-N", "sensor_read", lambda n, c: "sensor_read" not in (n, c))):
        rc, out, err = run([tool, "report", trace, flag, val])
        got = re.findall(r"^\[000\] \S+: (\w+) <-(\w+)$", out, re.M)
        want = [(n, c) for n, c in entries if rule(n, c)]
        tap.ok(rc == 0 and got == want,
               f"function trace {flag} {val}: entries by their name and their caller's",
               f"want {want}\ngot  {got}\n{out}{err}")


def check_prev_boot(tap, tool, tmp):
    """CPU 0's calls as the previous boot's block (2.10), CPU 1's as this
    boot's: --min-duration applies to both, each under its own heading,
    and the summary counts this boot's events left out."""
    b0, n0 = block(0)
    b1, n1 = block(1)
    summary = varint(1) + varint(1) + b"".join(varint(v) for v in (0, n0, 0, 0, 0, 0, 1, 0))
    frames = [(2, 0, 0, wire.metadata(0x1234)), (3, 0, 0, symdump()), (7, 0, 0, summary),
              (6, 0, 0, b0), (1, 1, 0, b1)]
    log, trace = os.path.join(tmp, "prev.log"), os.path.join(tmp, "prev.bt")
    with open(log, "wb") as f:
        f.write(b"".join(escape(payload(*x)) for x in frames) +
                escape(payload(4, 0, 0, wire.end_totals([(1, n1, 0, 0, 0, 1)]))))
    run([tool, "capture", "--file", log, "-o", trace])
    rc, out, err = run([tool, "report", trace, "--min-duration", "10us"])
    prev, _, this = out.partition("# ==== this boot ====")
    want = [sorted(c["name"] for c in CALLS if c["cpu"] == cpu and
                   (c["end"] - c["start"]) * NS >= 10000) for cpu in (0, 1)]
    short = sum(2 for c in CALLS if c["cpu"] == 1 and (c["end"] - c["start"]) * NS < 10000)
    tap.ok(rc == 0 and [entry_names(prev), entry_names(this)] == want and
           "previous boot 1" in prev and f"# {short} events left out by the filter" in this,
           "previous boot: --min-duration applies to its calls too, under its heading",
           f"want {want} and {short} left out\n{out}{err}")


def check_bad(tap, tool, tmp, trace):
    for args in (["-F", ""], ["--notrace="], ["--depth", "-1"], ["--depth", "0"],
                 ["--time-range", "5-2"], ["--time-range", "1.5parsecs-3ms"],
                 ["--time-range", "2"], ["--cpu", "999"], ["--cpu", "1,,2"],
                 ["--min-duration", "10xs"], ["--min-duration", "10"]):
        for cmd in (["report", trace], ["stats", trace], ["graph", trace],
                    ["export", "--format=folded", "-o", os.path.join(tmp, "bad.out"), trace]):
            rc, out, err = run([tool] + cmd + args)
            tap.ok(rc == 2 and out == "" and err.startswith("baretrace: bad ") and
                   not os.path.exists(os.path.join(tmp, "bad.out")),
                   f"{cmd[0]} {' '.join(args)!r}: refused, status 2, nothing written",
                   f"status {rc}\nstdout {out!r}\nstderr {err!r}")


def main():
    tool = os.path.abspath(sys.argv[1])
    tap = bt.Tap()
    tmp = tempfile.mkdtemp(prefix="bt-filters-")
    try:
        log, trace = os.path.join(tmp, "t.log"), os.path.join(tmp, "t.bt")
        with open(log, "wb") as f:
            f.write(capture([(0, block(0)), (1, block(1))]))
        rc, _, err = run([tool, "capture", "--file", log, "-o", trace])
        tap.ok(rc == 0, "capture the synthetic trace", err)
        # 2.000019 s .. 2.000065 s: inside filter_apply, CPU 1 starts later.
        for flag, val in (("--cpu", "1"), ("--cpu", "0,1"), ("-F", "filter_apply"),
                          ("-F", "sensor_read"), ("-N", "sensor_*"), ("--depth", "2"),
                          ("--depth", "1"), ("--time-range", "2.000019-2.000065"),
                          ("--time-range", "2.000168-"), ("--time-range", "-2.000019"),
                          ("--min-duration", "10us")):
            check_flag(tap, tool, tmp, trace, flag, val)
        # The same range with units and an open end keeps the same calls.
        r1 = run([tool, "stats", trace, "--time-range", "2.000019-2.000065"])[1]
        r2 = run([tool, "stats", trace, "--time-range", "2000019us-2000.065ms"])[1]
        tap.ok(stats_rows(r1) == stats_rows(r2) and stats_rows(r1),
               "--time-range: units give the same calls as seconds", r1 + r2)
        # Together: CPU 0, beneath filter_apply, 10 us or more: itself and
        # the second filter_step; depth counted from filter_apply.
        rc, out, _ = run([tool, "report", trace, "--cpu", "0", "-F", "filter_apply",
                          "--min-duration", "10us"])
        tap.ok(entry_names(out) == ["filter_apply", "filter_step"] and
               re.search(r"\|  filter_apply\(\) \{\n(.*\n)*?.*\|    filter_step\(\);", out),
               "--cpu 0 -F filter_apply --min-duration 10us: two calls, depth from F", out)
        check_graph(tap, tool, trace)
        check_function_trace(tap, tool, tmp)
        check_prev_boot(tap, tool, tmp)
        check_bad(tap, tool, tmp, trace)
    finally:
        shutil.rmtree(tmp)
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
