#!/usr/bin/env python3
"""test/host/e2e_messages.py: the host tool's messages name the real
problem (issue 42, items 1-7 and 9), one check (or a few) per item:

  1 graph FUNC of a name the trace has not: says the name is unknown and
    the nearest one, not "turn on function_graph";
  2 a filter that matches nothing says which part (-F, --cpu) and fails
    (status 1, no report), on report, stats and export;
  3 '-' is standard input and output, and a pipe reads as a file;
  4 an ELF of another board is named as another board's;
  5 a file with no whole frame is an error, not a warning;
  6 'report --sort' is not answered "did you mean '--sort'?";
  7 coverage and hist on a trace without their data: both an error
    (status 1), nothing written;
  9 the capture summary names the boot's ETX instead of "1 stray byte";
    counts of one are singular; the dump's '}' lines (as gdb's
    baretrace-last words them, tools/gdb/bt_text.py) are indented as
    their entries (the target's own dump: test/target/dump_kinds_write.c).

The traces are e2e_filters.py's (a function_graph trace on 2 CPUs) and
e2e_outcome.py's (4 CPUs, an app name), built here from their call
trees; expectations come from those trees, not from the tool's output.

Usage: test/host/e2e_messages.py BARETRACE [ELF] [--keep DIR]
ELF: a built image (coverage reads its DWARF); build/qemu-virt's if not given.
Prints TAP; exit status 0 when every check passed.
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_filters as filt  # noqa: E402
import e2e_wire as wire  # noqa: E402
from e2e_baretrace import run, tap_main  # noqa: E402
from e2e_outcome import log as outcome_log  # noqa: E402
from e2e_wire import FREQ, varint, rec, payload, escape, string  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def capture(tap, tool, tmp, name, raw):
    rawp, bt = os.path.join(tmp, name + ".log"), os.path.join(tmp, name + ".bt")
    with open(rawp, "wb") as f:
        f.write(raw)
    rc, _, err = run([tool, "capture", "--file", rawp, "-o", bt])
    tap.ok(rc == 0, f"{name}: capture exits 0", err)
    return bt, err


def piped(cmd, data, cwd=None):
    p = subprocess.run(cmd, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def item1_graph(tap, tool, graph_bt):
    rc, out, err = run([tool, "graph", "nosuchfunc", graph_bt])
    tap.ok(rc == 1 and "nosuchfunc" in err and "no function" in err and
           "function_graph" not in err and "# call graph" not in out,
           "1: graph of an unknown name says the name is unknown, not 'turn on function_graph'",
           f"exit {rc}\n{err}")
    near = [n for n, _, _ in filt.FUNCS if n.startswith("sensor_pol")]
    rc, _, err = run([tool, "graph", "sensor_pol", graph_bt])
    tap.ok(rc == 1 and f"did you mean '{near[0]}'?" in err,
           f"1: graph sensor_pol: did you mean '{near[0]}'?", f"exit {rc}\n{err}")


def item2_filters(tap, tool, tmp, graph_bt, out_bt):
    for cmd in (["report"], ["stats"], ["export", "--format=folded", "-o",
                                        os.path.join(tmp, "f.folded")]):
        rc, out, err = run([tool] + cmd + ["-F", "nosuchfunc", graph_bt])
        tap.ok(rc == 1 and "-F nosuchfunc" in err and "no function of the trace" in err and
               "# no function records" not in out and
               not os.path.exists(os.path.join(tmp, "f.folded")),
               f"2: {cmd[0]} -F nosuchfunc: names the pattern, status 1", f"exit {rc}\n{out}{err}")
    # Only one part matches nothing: said, and the rest is reported.
    rc, out, err = run([tool, "report", "-F", "main", "-F", "nosuch*", graph_bt])
    tap.ok(rc == 0 and "-F nosuch*" in err and "main() {" in out and "-F main:" not in err,
           "2: -F main -F 'nosuch*': the part that matched nothing is named, the rest kept",
           f"exit {rc}\n{err}")
    # e2e_outcome's trace has 4 CPUs (its metadata).
    rc, out, err = run([tool, "report", "--cpu", "7", out_bt])
    tap.ok(rc == 1 and "--cpu" in err and "it has 4" in err,
           "2: --cpu 7 on a 4-CPU trace: says the trace has CPUs 0-3, status 1",
           f"exit {rc}\n{out}{err}")


def item3_stdio(tap, tool, tmp, graph_bt, graph_log):
    data = open(graph_bt, "rb").read()
    _, want, _ = piped([tool, "report", graph_bt], b"")
    for arg in ("-", "/dev/stdin"):
        rc, out, err = piped([tool, "report", arg], data)
        tap.ok(rc == 0 and out == want and want, f"3: cat t.bt | report {arg}: as the file",
               f"exit {rc}\n{err}")
    for cmd in (["stats"], ["graph"]):
        _, w, _ = piped([tool] + cmd + [graph_bt], b"")
        rc, out, err = piped([tool] + cmd + ["-"], data)
        tap.ok(rc == 0 and out == w and w, f"3: {cmd[0]} -: as the file", f"exit {rc}\n{err}")
    for fmt in ("chrome-json", "folded", "trace-cmd"):
        path = os.path.join(tmp, "x." + fmt)
        rc0, _, _ = run([tool, "export", "--format=" + fmt, "-o", path, graph_bt])
        # In tmp: a tool that takes '-' for a name leaves a file there.
        rc, out, err = piped([tool, "export", "--format=" + fmt, "-o", "-", "-"], data, tmp)
        tap.ok(rc0 == 0 and rc == 0 and out == open(path, "rb").read() and
               not os.path.exists(os.path.join(tmp, "-")),
               f"3: export --format={fmt} -o - -: the file's bytes on stdout", f"exit {rc}\n{err}")
    raw = open(graph_log, "rb").read()
    rc, out, err = piped([tool, "capture", "--file", "-", "-o", "-"], raw, tmp)
    tap.ok(rc == 0 and out == data, "3: capture --file - -o -: the trace on stdout",
           f"exit {rc}\n{err}")


def item4_board(tap, tool, tmp):
    elf = os.path.join(tmp, "virt.elf")
    h = wire.elf(elf, app="sensor", board="qemu-virt")
    hr = wire.elf(os.path.join(tmp, "rpi4.elf"), app="sensor", board="rpi4")
    meta = wire.metadata(hr, ncpus=4, app="sensor")
    raw = outcome_log(hr).replace(escape(payload(2, 0, 0, meta)),
                                  escape(payload(2, 0, 0, meta + varint(11) + string("rpi4"))))
    bt, _ = capture(tap, tool, tmp, "rpi4", raw)
    rc, _, err = run([tool, "report", bt, "--elf", elf])
    tap.ok(rc == 1 and h != hr and "board qemu-virt" in err and "board rpi4" in err and
           "rebuilt" not in err,
           "4: an ELF of another board: both boards named, not 'was the image rebuilt'",
           f"exit {rc}\n{err}")
    rc, _, err = run([tool, "report", bt, "--elf", os.path.join(tmp, "rpi4.elf")])
    tap.ok(rc == 0, "4: the same board's ELF reads", err)


def item5_damaged(tap, tool, tmp):
    path = os.path.join(tmp, "junk.bt")
    with open(path, "wb") as f:
        f.write(b"BTRACE\x00\x01" + bytes(range(7, 200)))
    rc, _, err = run([tool, "report", path])
    tap.ok(rc == 1 and "error:" in err and "warning" not in err and "no whole frame" in err,
           "5: a file with no whole frame: an error, not a warning, status 1", f"exit {rc}\n{err}")


def item6_sort(tap, tool, graph_bt):
    rc, _, err = run([tool, "report", "--sort", graph_bt])
    tap.ok(rc == 2 and "did you mean '--sort'" not in err and "not one of report" in err,
           "6: report --sort: not an option of report, no did-you-mean itself", f"exit {rc}\n{err}")


def item7_no_data(tap, tool, tmp, out_bt):
    # coverage needs a real image (its DWARF): the one host_stage.py builds.
    args = sys.argv[2:]
    if "--keep" in args:
        del args[args.index("--keep"):args.index("--keep") + 2]
    elf = args[0] if args else os.path.join(ROOT, "build", "qemu-virt", "baretrace.elf")
    info = os.path.join(tmp, "c.info")
    rc, _, err = run([tool, "coverage", out_bt, "--elf", elf, "-o", info])
    tap.ok(rc == 1 and "no coverage frames" in err and not os.path.exists(info),
           "7: coverage on a trace without coverage: an error, status 1, nothing written",
           f"exit {rc}\n{err}")
    rc2, out, err2 = run([tool, "hist", out_bt])
    tap.ok(rc2 == rc == 1 and "no histogram frames" in err2,
           "7: hist on a trace without histograms: the same rule (status 1)", f"exit {rc2}\n{err2}")


def item9_summary(tap, tool, tmp):
    h = wire.elf(os.path.join(tmp, "s.elf"), app="sensor")
    _, err = capture(tap, tool, tmp, "etx", b"\x03" + outcome_log(h))
    tap.ok("stray byte" not in err and "1 boot marker" in err,
           "9: the console's boot ETX is a boot marker, not '1 stray byte'", err)
    f = lambda *a: escape(payload(*a))
    raw = (f(2, 0, 0, wire.metadata(h)) + f(3, 0, 0, wire.symdump(0, [0, 1, 2, 3])) +
           f(1, 0, 0, varint(FREQ) + varint(0) + rec(1, 0, varint(wire.S_LEAF),
                                                       wire.caller_of(0x150))) +
           f(4, 0, 0, wire.end_totals([(0, 1, 0, 0, 0, 1)])))
    bt, err = capture(tap, tool, tmp, "one", raw)
    tap.ok(" 1 event," in err and "1 events" not in err and " 1 event:" in err,
           "9: capture summary: '1 event', not '1 events'", err)
    rc, out, err = run([tool, "stats", bt])
    tap.ok(rc == 0 and "# 1 function," in out and "1 functions" not in out,
           "9: stats: '# 1 function', not '1 functions'", out + err)


def item9_dump_indent(tap):
    sys.path.insert(0, os.path.join(ROOT, "tools", "gdb"))
    try:
        import bt_text
        import bt_wire

        class Img:
            hz = 1000000

            def site_name(self, s):
                return ["outer", "inner"][s]

        recs = [dict(kind=bt_wire.REC_GRAPH_ENTRY, site=0, depth=1, ts=0),
                dict(kind=bt_wire.REC_GRAPH_ENTRY, site=1, depth=2, ts=1),
                dict(kind=bt_wire.REC_EXIT, site=1, duration=1, ts=2),
                dict(kind=bt_wire.REC_EXIT, site=0, duration=2, ts=3)]
        depths = bt_text.open_calls(recs)
        lines = [bt_text.record_text(Img(), 0, r, d) for r, d in zip(recs, depths)]
        # An exit's '}' where its entry's name went.
        ok = all(lines[e].index("}") == lines[n].index(name)
                 for e, n, name in ((2, 1, "inner"), (3, 0, "outer")))
    except Exception as e:   # main's bt_text has no open_calls
        lines, ok = [repr(e)], False
    tap.ok(ok, "9: the dump's '}' lines are indented as their entries (baretrace-last)",
           "\n".join(lines))


def checks(tap, tool, tmp):
    graph_log = os.path.join(tmp, "graph.log")
    with open(graph_log, "wb") as f:
        f.write(filt.capture([(0, filt.block(0)), (1, filt.block(1))]))
    graph_bt = os.path.join(tmp, "graph.bt")
    rc, _, err = run([tool, "capture", "--file", graph_log, "-o", graph_bt])
    tap.ok(rc == 0, "the function_graph trace: capture", err)
    out_bt, _ = capture(tap, tool, tmp, "outcome",
                        outcome_log(wire.elf(os.path.join(tmp, "o.elf"), app="sensor")))
    item1_graph(tap, tool, graph_bt)
    item2_filters(tap, tool, tmp, graph_bt, out_bt)
    item3_stdio(tap, tool, tmp, graph_bt, graph_log)
    item4_board(tap, tool, tmp)
    item5_damaged(tap, tool, tmp)
    item6_sort(tap, tool, graph_bt)
    item7_no_data(tap, tool, tmp, out_bt)
    item9_summary(tap, tool, tmp)
    item9_dump_indent(tap)


if __name__ == "__main__":
    sys.exit(tap_main(checks, __doc__, "bt-messages-"))
