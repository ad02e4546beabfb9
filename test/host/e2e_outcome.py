#!/usr/bin/env python3
"""test/host/e2e_outcome.py: how a run ended, and the trace's app, in every
output of the host tool (issue 25).

outcome.log, an app "sensor" on a 4-CPU target:

  CPU 1  main() { mid() { leaf(); then an outcome record (docs/wire.md 2.6,
         kind 7 subtype 4): a crash, with main and mid still open
  CPU 0  outer() { ... } returning after the crash (another CPU goes on)
  CPU 3  one function entry; CPU 2 sends nothing
  END    totals, then the outcome: crash (2.4)

Checks: report's line at the crash's time on its CPU, the open calls
closed as cut by it, the footer naming the app and how the run ended
(also under host-side filters, and in stats); graph's "open at the
crash"; a global instant in chrome-json; a run_outcome event in CTF
(read back by babeltrace2) and a print event in trace-cmd (by trace-cmd
report); a main() that returned 3 (exit); an END frame without the
outcome (older targets: no line). Then the words around it: a trace cut
short (before its END frame) says so and counts what it decodes, and its
trace-cmd file has the metadata's 4 CPUs; an ELF of another app is named
as such; the capture counts frames and wire bytes as the target does.

Usage: test/host/e2e_outcome.py BARETRACE [--keep DIR]
Prints TAP; exit status 0 when every check passed.
"""
import json
import os
import shutil
import sys

import e2e_wire as wire
from e2e_baretrace import run, tap_main
from e2e_wire import FREQ, varint, zigzag, rec, ext, payload, escape

MAIN, OUTER, LEAF, MID = wire.S_MAIN, wire.S_OUTER, wire.S_LEAF, wire.S_MID
T0 = 7 * FREQ
CRASH, EXIT = 1, 0                       # enum run_outcome (kernel/report/outcome.h)
CRASH_AT = T0 + 20                       # the outcome record's time, on CPU 1


def outcome_bytes(outcome, status):
    return bytes([outcome]) + varint(zigzag(status))


def cpu1(outcome, status, mark=True):
    return (varint(T0) + varint(0) + rec(3, 0, varint(MAIN), varint(0)) +
            rec(3, 5, varint(MID), varint(1)) + rec(3, 2, varint(LEAF), varint(2)) +
            rec(2, 10, varint(LEAF), varint(10), bytes([0])) +
            (ext(3, 4, outcome_bytes(outcome, status)) if mark else b""))


def cpu0():
    return varint(T0 + 5) + varint(0) + rec(3, 0, varint(OUTER), varint(0)) + \
        rec(2, 30, varint(OUTER), varint(30), bytes([0]))


def cpu3():
    return varint(T0 + 1) + varint(0) + rec(1, 0, varint(LEAF), wire.caller_of(0x150))


TOTALS = [(0, 2, 0, 0, 0, 1), (1, 5, 0, 0, 0, 1), (3, 1, 0, 0, 0, 1)]


def log(h, outcome=CRASH, status=0, with_outcome=True, app="sensor"):
    """The raw log; with_outcome=False: as an older target wrote it."""
    f = lambda *a: escape(payload(*a))
    out = [b"boot\n", f(2, 0, 0, wire.metadata(h, ncpus=4, app=app)),
           f(3, 0, 0, wire.symdump(0, [0, 1, 2, 3])),
           f(1, 1, 0, cpu1(outcome, status, with_outcome)), f(1, 0, 0, cpu0()),
           f(1, 3, 0, cpu3())]
    body = wire.end_totals(TOTALS) + (outcome_bytes(outcome, status) if with_outcome else b"")
    out += [f(4, 0, 0, body), b"baretrace: exit status 139 (crash)\n"]
    return b"".join(out)


def capture(tap, tool, tmp, name, raw):
    rawp, bt = os.path.join(tmp, name + ".log"), os.path.join(tmp, name + ".bt")
    with open(rawp, "wb") as f:
        f.write(raw)
    rc, out, err = run([tool, "capture", "--file", rawp, "-o", bt])
    tap.ok(rc == 0, f"{name}: capture exits 0", err)
    return bt


def report_checks(tap, tool, bt, elf):
    rc, rep, err = run([tool, "report", bt, "--elf", elf])
    lines = rep.splitlines()
    at = f"{CRASH_AT / FREQ:.6f}"
    mark = f"[001] {at}: ==== run ended: crash ===="
    tap.ok(rc == 0 and mark in lines, "report: a line at the crash's time on its CPU", rep + err)
    after = [l for l in lines[lines.index(mark) + 1:] if l.startswith(" 1) ")] if mark in lines else []
    tap.ok(after[:2] == [" 1)               |    } /* mid: cut by the crash */",
                         " 1)               |  } /* main: cut by the crash */"],
           "report: calls open on that CPU are closed as cut by the crash, innermost first", rep)
    tap.ok(" 0)   0.480 us    |  } /* outer */" in lines or
           any(l.startswith(" 0)") and "outer();" in l for l in lines),
           "report: another CPU's call after the crash still prints", rep)
    tap.ok(lines[-1] == f"# the run of app sensor ended: crash (exit status 139), on CPU 1 at {at}",
           "report: the footer names the app and how the run ended, where", rep)
    # Host-side filters: a function filter keeps the mark (it is in no
    # call), a time range that ends before it leaves it out.
    rc, rep, err = run([tool, "report", bt, "--elf", elf, "-N", "main"])
    tap.ok(rc == 0 and mark in rep.splitlines(), "report -N main: the mark stays", rep + err)
    rc, rep, err = run([tool, "report", bt, "--elf", elf, "--time-range", "-6.5"])
    tap.ok(rc == 0 and "run ended: crash ====" not in rep and
           rep.splitlines()[-1].startswith("# the run of app sensor ended: crash"),
           "report --time-range before the crash: no mark, the footer still says it", rep + err)
    return rep


def other_outputs(tap, tool, tmp, bt, elf):
    rc, out, err = run([tool, "stats", bt, "--elf", elf])
    tap.ok(rc == 0 and out.splitlines()[-1].startswith("# the run of app sensor ended: crash"),
           "stats: the footer says how the run ended", out + err)
    rc, out, err = run([tool, "graph", bt, "--elf", elf])
    tap.ok(rc == 0 and "main (open at the crash)" in out and "+-mid (open at the crash)" in out,
           "graph: calls open when the run crashed say so, not just '(open)'", out + err)
    js = os.path.join(tmp, "outcome.json")
    rc, out, err = run([tool, "export", "--format=chrome-json", "-o", js, bt])
    ev = json.load(open(js))["traceEvents"] if rc == 0 else []
    marks = [e for e in ev if e.get("cat") == "outcome"]
    tap.ok(len(marks) == 1 and marks[0]["ph"] == "i" and marks[0]["s"] == "g" and
           marks[0]["name"] == "run ended: crash" and marks[0]["tid"] == 2 and
           abs(marks[0]["ts"] - CRASH_AT / FREQ * 1e6) < 1e-3 and
           marks[0]["args"] == {"outcome": "crash", "status": 0},
           "chrome-json: one global instant where the run crashed, on CPU 1's track", marks or err)
    ctf = os.path.join(tmp, "outcome.ctf")
    rc, out, err = run([tool, "export", "--format=ctf", "-o", ctf, bt])
    if shutil.which("babeltrace2"):
        rc2, out, err2 = run(["babeltrace2", ctf])
        hit = [l for l in out.splitlines() if "run_outcome" in l]
        tap.ok(rc == 0 and rc2 == 0 and len(hit) == 1 and 'outcome = "crash"' in hit[0] and
               "status = 0" in hit[0], "ctf: one run_outcome event, read by babeltrace2",
               out + err + err2)
    dat = os.path.join(tmp, "outcome.dat")
    rc, out, err = run([tool, "export", "--format=trace-cmd", "-o", dat, bt])
    if not shutil.which("trace-cmd"):
        tap.ok(True, "trace-cmd: skipped, trace-cmd not installed")
        return
    rc2, out, err2 = run(["trace-cmd", "report", dat])
    hit = [l for l in out.splitlines() if "==== run ended: crash ====" in l]
    tap.ok(rc == 0 and rc2 == 0 and len(hit) == 1 and "[001]" in hit[0] and
           f"{CRASH_AT / FREQ:.6f}" in hit[0],
           "trace-cmd: a print event at the crash's time on CPU 1", out + err + err2)
    tap.ok(out.startswith("cpus=4"), "trace-cmd: cpus=4 from the metadata", out[:200])


def exit_checks(tap, tool, tmp, h, elf):
    raw = log(h, outcome=EXIT, status=3)
    bt = capture(tap, tool, tmp, "exit3", raw)
    rc, rep, err = run([tool, "report", bt, "--elf", elf])
    lines = rep.splitlines()
    tap.ok(f"[001] {CRASH_AT / FREQ:.6f}: ==== run ended: exit, status 3 ====" in lines and
           lines[-1].startswith("# the run of app sensor ended: exit status 3 (main() returned 3)"),
           "an exit: main()'s status in the line and the footer", rep)
    raw = log(h, with_outcome=False)
    bt = capture(tap, tool, tmp, "old", raw)
    rc, rep, err = run([tool, "report", bt, "--elf", elf])
    tap.ok(rc == 0 and "run ended" not in rep and "the run" not in rep and err == "",
           "an older target's trace (no outcome): no line, no warning", rep + err)
    rc, out, err = run([tool, "graph", bt, "--elf", elf])
    tap.ok(rc == 0 and "main (open)" in out, "graph without an outcome: '(open)'", out + err)


def cut_checks(tap, tool, tmp, raw, h):
    """A trace cut before its END frame (issue 25: '# 0 events', no word)."""
    bt = capture(tap, tool, tmp, "whole", raw)
    data = open(bt, "rb").read()
    cut = os.path.join(tmp, "cut.bt")
    # The END frame is the file's last frame: cut it and 3 bytes before it.
    with open(os.path.join(tmp, "nocut.bt"), "wb") as f:
        f.write(data)
    end_len = 4 + len(payload(4, 0, 0, wire.end_totals(TOTALS) + outcome_bytes(CRASH, 0)))
    with open(cut, "wb") as f:
        f.write(data[:len(data) - end_len - 3])
    rc, rep, err = run([tool, "report", cut])
    # CPU 3's block (1 event) is the one cut; CPU 1's 5 and CPU 0's 2 read.
    tap.ok(rc == 0 and rep.splitlines()[-2:] == [
        "# 7 events",
        "# the trace is cut short: no end-of-stream frame (the capture stopped early or the "
        "file was truncated): events after the last frame are not accounted for"],
        "cut trace: report counts what it decodes and says it is cut short", rep)
    tap.ok(err.count("warning") == 1 and "is cut short: it has no end-of-stream frame" in err
           and "7 events decoded" in err, "cut trace: one warning on stderr says so", err)
    dat = os.path.join(tmp, "cut.dat")
    rc, out, err = run([tool, "export", "--format=trace-cmd", "-o", dat, cut])
    if shutil.which("trace-cmd"):
        rc2, out, _ = run(["trace-cmd", "report", dat])
        tap.ok(rc == 0 and out.startswith("cpus=4"),
               "cut trace: trace-cmd export has the metadata's 4 CPUs, not 1", out[:200])
    # Cut inside the first data frame: metadata and symbols, no events.
    head = 8 + 4 + len(payload(2, 0, 0, wire.metadata(h, ncpus=4, app="sensor"))) + \
        4 + len(payload(3, 0, 0, wire.symdump(0, [0, 1, 2, 3])))
    with open(cut, "wb") as f:
        f.write(data[:head + 10])
    rc, rep, err = run([tool, "report", cut])
    tap.ok(rc == 0 and rep.splitlines()[-2:-1] == ["# 0 events"] and "the trace is cut short" in rep
           and "0 events decoded" in err,
           "a trace cut before any data frame still says it is cut short", rep + err)


def app_checks(tap, tool, tmp, bt, h):
    other = os.path.join(tmp, "blinky.elf")
    wire.elf(other, funcs=wire.FUNCS[:5] + [("helper2", 0x240, 0x40)], app="blinky")
    rc, out, err = run([tool, "report", bt, "--elf", other])
    tap.ok(rc == 1 and f"the trace is from app sensor; {other} is app blinky" in err
           and "rebuilt" not in err, "--elf of another app names both apps", err)
    rebuilt = os.path.join(tmp, "sensor2.elf")
    wire.elf(rebuilt, funcs=wire.FUNCS[:5] + [("helper3", 0x240, 0x40)], app="sensor")
    rc, out, err = run([tool, "report", bt, "--elf", rebuilt])
    tap.ok(rc == 1 and "(both are app sensor)" in err and "rebuilt" in err,
           "--elf of the same app, rebuilt: says so", err)


def summary_checks(tap, tool, tmp, h):
    """The capture counts frames and wire bytes as the target does (the
    frames before its END frame) and names the rest: the END frame, the
    console text, a stray ETX such as U-Boot sends before the kernel."""
    raw = b"\x03" + log(h)
    rawp = os.path.join(tmp, "stray.log")
    with open(rawp, "wb") as f:
        f.write(raw)
    rc, out, err = run([tool, "capture", "--file", rawp, "-o", os.path.join(tmp, "stray.bt")])
    end = len(escape(payload(4, 0, 0, wire.end_totals(TOTALS) + outcome_bytes(CRASH, 0))))
    text = len(b"boot\n" + b"baretrace: exit status 139 (crash)\n")
    tap.ok(rc == 0 and err.startswith("baretrace capture: 5 frames, 0 damaged, 0 sequence gaps, "
                                      f"8 events, 0 lost, {len(raw) - 1 - end - text} wire bytes")
           and f"; besides: the end-of-stream frame ({end} bytes), {text} bytes of console "
           "text, 1 boot marker (the ETX the console sends as it starts)\n" in err,
           "capture: frames and wire bytes as the target counts them; the rest named", err)


def checks(tap, tool, tmp):
    elf = os.path.join(tmp, "sensor.elf")
    h = wire.elf(elf, app="sensor")
    raw = log(h)
    bt = capture(tap, tool, tmp, "outcome", raw)
    report_checks(tap, tool, bt, elf)
    other_outputs(tap, tool, tmp, bt, elf)
    exit_checks(tap, tool, tmp, h, elf)
    cut_checks(tap, tool, tmp, raw, h)
    app_checks(tap, tool, tmp, bt, h)
    summary_checks(tap, tool, tmp, h)


if __name__ == "__main__":
    sys.exit(tap_main(checks, __doc__, "bt-outcome-"))
