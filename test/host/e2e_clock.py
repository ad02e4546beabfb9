#!/usr/bin/env python3
"""test/host/e2e_clock.py: the capture's note of the clock (docs/wire.md
2.13) and what stats and stats --diff make of it, end to end (TAP).

A stand-in QEMU (sh, printing a synthetic serial log: e2e_stats_trace.py's
graph records at 62.5 MHz) is captured with the QEMU options a run would
have; the capture reads -icount from that command line:

  exact       -icount shift=4,sleep=off: 'exact: instructions'; stats and
              stats --diff print instructions (ns / 16, computed here);
              two captures are byte-identical; --fail-above 0 passes
  host        no -icount: 'host time', the note naming make ci, and the
              floor of 100 ms per CPU (the metadata's 2 CPUs: 200 ms)
  auto        -icount shift=auto: 'not exact', times in microseconds
  file        capture --file (no QEMU): no note, 'clock not recorded'
  empty       a run that sends no frame: the file is the bare 8-byte magic

Usage: e2e_clock.py path/to/baretrace [--keep DIR]
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_baretrace as eb  # noqa: E402
from e2e_stats_trace import raw_trace  # noqa: E402

FREQ = 62500000     # 16 ns a tick: one tick, one instruction under shift=4
# name: calls (cpu, duration ns, [(child, ns)]); durations are whole ticks.
SPEC = {
    "outer": [(0, 16000, [("inner", 4800)])] * 2,
    "inner": [],
    "other": [(1, 3200, [])] * 3,
}


def capture(tool, tmp, name, raw, icount):
    """Captures raw through a stand-in QEMU run with 'icount' options."""
    bt = os.path.join(tmp, name + ".bt")
    qemu = ["sh", "-c", 'cat "$0"; printf "\\nbaretrace: exit status 0\\n"', raw] + icount
    rc, out, err = eb.run([tool, "capture", "-o", bt, "--qemu", "--"] + qemu, timeout=60)
    return bt, rc, err


def checks(tap, tool, tmp):
    raw = os.path.join(tmp, "log.raw")
    with open(raw, "wb") as f:
        f.write(raw_trace(SPEC, FREQ, ["outer", "inner", "other"]))

    exact = ["-icount", "shift=4,sleep=off"]
    a, rc, err = capture(tool, tmp, "exact1", raw, exact)
    b, rc2, err2 = capture(tool, tmp, "exact2", raw, exact)
    same = open(a, "rb").read() == open(b, "rb").read() if rc == 0 and rc2 == 0 else False
    tap.ok(same, "two captures of one exact run are byte-identical", err + err2)
    rc, out, err = eb.run([tool, "stats", a])
    row = re.search(r"^\s*2\s+(\d+)\s+(\d+)\s+\d+\s+\d+\s+outer$", out, re.M)
    tap.ok(rc == 0 and "times in instructions" in out and row is not None and
           int(row[1]) == 2 * 16000 // 16 and int(row[2]) == 2 * (16000 - 4800) // 16,
           "stats of an exact capture: outer's total and self in instructions (ns / 16)",
           out + err)
    rc, out, err = eb.run([tool, "stats", "--diff", a, b, "--fail-above", "0"])
    tap.ok(rc == 0 and "exact: instructions, QEMU -icount shift=4,sleep=off" in out and
           "times in instructions" in out and "no floor" in out and "host time" not in out,
           "stats --diff of two exact captures: instructions, no floor, --fail-above 0 passes",
           out + err)

    h, rc, err = capture(tool, tmp, "host", raw, [])
    rc, out, err = eb.run([tool, "stats", "--diff", h, h, "--fail-above", "25"])
    tap.ok(rc == 0 and "host time: QEMU without -icount" in out and "make ci" in out and
           "200000.000 us" in out and "times in microseconds" in out,
           "host time: said, make ci named, the floor 100 ms per CPU (2 CPUs: 200 ms)",
           out + err)

    au, rc, err = capture(tool, tmp, "auto", raw, ["-icount", "shift=auto"])
    rc, out, err = eb.run([tool, "stats", "--diff", au, au])
    tap.ok(rc == 0 and "not exact" in out and "times in microseconds" in out,
           "-icount shift=auto: not exact, times in microseconds", out + err)

    fl = os.path.join(tmp, "file.bt")
    rc, out, err = eb.run([tool, "capture", "-o", fl, "--file", raw], timeout=60)
    rc2, out2, err2 = eb.run([tool, "stats", "--diff", fl, fl])
    tap.ok(rc == 0 and rc2 == 0 and "clock not recorded" in out2 and
           "times in microseconds" in out2,
           "capture --file: no note, 'clock not recorded'", err + out2 + err2)

    empty = os.path.join(tmp, "empty.raw")
    with open(empty, "w") as f:
        f.write("hello\n")
    e, rc, err = capture(tool, tmp, "empty", empty, exact)
    tap.ok(os.path.getsize(e) == 8, "a run that sends no frame leaves the bare 8-byte magic",
           f"{os.path.getsize(e)} bytes; {err}")


if __name__ == "__main__":
    sys.exit(eb.tap_main(checks, __doc__, "bt-clock-"))
