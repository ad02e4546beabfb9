#!/usr/bin/env python3
"""test/host/e2e_probe_names.py: a probe's fields by distinct names in
the report and every export (issue 39 item 4), and its unreadable
fetches shown as such (item 2).

probes.log, two probes on one CPU, their schemas (docs/wire.md 2.2 key
10) as an older target sent them, an unnamed fetch named by its text:

  old  +8(x0):u32 -8(x0):u32 x0:u8 x0:x64 faulted:u64    hit: 30 10 7 0x1234 99
  rd   p:x32 q:u64    hits: p unreadable (reason 1, not RAM), q 5;
                            p 3, q unreadable (reason 0, a fault)

Each output must show every value under its own name: x0_p8 x0_m8 x0
x0_2 faulted_2 (faulted is CTF's mask), the same in the report, in
chrome-json (read by a JSON parser that refuses a key twice), in CTF
(babeltrace2) and in trace-cmd's .dat (trace-cmd report); an unreadable
fetch is "(unreadable)" or "(fault)" in the report and JSON, 0 with its
bit in CTF's mask, "0 (unreadable)" in trace-cmd report.

Usage: test/host/e2e_probe_names.py BARETRACE [--keep DIR]
Prints TAP; exit status 0 when every check passed.
"""
import json
import os
import re
import shutil
import sys

import e2e_wire as wire
from e2e_baretrace import run, tap_main
from e2e_outcome import capture
from e2e_wire import FREQ, varint, zigzag, string, ext, payload, escape

T0 = 3 * FREQ
U8, U32, U64, X32, X64 = 1, 3, 4, 11, 12
PROBES = [(1, "old", 0x40, [("+8(x0)", U32), ("-8(x0)", U32), ("x0", U8), ("x0", X64),
                            ("faulted", U64)]),
          (2, "rd", 0x80, [("p", X32), ("q", U64)])]


def schemas():
    b = b""
    for num, name, off, fetches in PROBES:
        b += varint(10) + varint(num) + string(name) + varint(off) + bytes([len(fetches)])
        b += b"".join(string(f) + bytes([t]) for f, t in fetches)
    return b


def hit(delta, num, mask, values):
    return ext(delta, 5, varint(num) + bytes([len(values), mask]) +
               b"".join(varint(zigzag(v)) for v in values))


def log(h):
    block = (varint(T0) + varint(0) + hit(0, 1, 0, [30, 10, 7, 0x1234, 99]) +
             hit(5, 2, 1, [1, 5]) + hit(5, 2, 2, [3, 0]))
    f = lambda *a: escape(payload(*a))
    return b"".join([b"boot\n", f(2, 0, 0, wire.metadata(h, ncpus=1) + schemas()),
                     f(3, 0, 0, wire.symdump(0, [0, 1, 2, 3])), f(1, 0, 0, block),
                     f(4, 0, 0, wire.end_totals([(0, 3, 0, 0, 0, 1)])),
                     b"baretrace: exit status 0\n"])


def no_dup_keys(pairs):
    keys = [k for k, _ in pairs]
    if len(keys) != len(set(keys)):
        raise ValueError(f"a key twice: {keys}")
    return dict(pairs)


WANT = [("old", [("x0_p8", "30"), ("x0_m8", "10"), ("x0", "7"), ("x0_2", "0x1234"),
                 ("faulted_2", "99")]),
        ("rd", [("p", "(unreadable)"), ("q", "5")]),
        ("rd", [("p", "0x3"), ("q", "(fault)")])]


def checks(tap, tool, tmp):
    elf = os.path.join(tmp, "probes.elf")
    h = wire.elf(elf)
    bt = capture(tap, tool, tmp, "probes", log(h))
    rc, rep, err = run([tool, "report", bt, "--elf", elf])
    got = [l.split(": ", 1)[1] for l in rep.splitlines() if ": probe " in l]
    want = ["probe " + n + ":" + "".join(f" {k}={v}" for k, v in fs) for n, fs in WANT]
    tap.ok(rc == 0 and got == want, "report: each field by its own name, unreadable ones said",
           f"{got}\n{rep}{err}")
    js = os.path.join(tmp, "probes.json")
    rc, _, err = run([tool, "export", "--format=chrome-json", "-o", js, bt, "--elf", elf])
    try:
        with open(js) as f:
            evs = json.load(f, object_pairs_hook=no_dup_keys)
        evs = evs.get("traceEvents", evs) if isinstance(evs, dict) else evs
        got = [(e["name"], e.get("args")) for e in evs if e.get("cat") == "probe"]
    except (OSError, ValueError, KeyError) as e:
        got = [repr(e)]
    tap.ok(got == [("probe " + n, dict(fs)) for n, fs in WANT],
           "chrome-json: each field a key of its own, every value there", f"{got}\n{err}")
    if not shutil.which("babeltrace2"):
        tap.ok(True, "# SKIP babeltrace2 not installed")
    else:
        ctf = os.path.join(tmp, "probes.ctf")
        run([tool, "export", "--format=ctf", "-o", ctf, bt, "--elf", elf])
        rc, out, err = run(["babeltrace2", ctf])
        got = [re.sub(r".*\{ (faulted = .*) \}$", r"\1", l) for l in out.splitlines()
               if " probe:" in l]
        tap.ok(rc == 0 and got == [
            "faulted = 0, x0_p8 = 30, x0_m8 = 10, x0 = 7, x0_2 = 0x1234, faulted_2 = 99",
            "faulted = 1, p = 0x0, q = 5", "faulted = 2, p = 0x3, q = 0"],
            "CTF (babeltrace2): fields by distinct names, unreadable ones 0 in the mask",
            f"{got}\n{out[-2000:]}{err}")
    if not shutil.which("trace-cmd"):
        tap.ok(True, "# SKIP trace-cmd not installed")
    else:
        dat = os.path.join(tmp, "probes.dat")
        run([tool, "export", "--format=trace-cmd", "-o", dat, bt, "--elf", elf])
        rc, out, err = run(["trace-cmd", "report", dat])
        got = [re.sub(r".*\s(old|rd):\s+\([0-9a-f]+\) ", r"\1: ", l) for l in out.splitlines()
               if re.search(r"\s(old|rd):\s+\(", l)]
        tap.ok(rc == 0 and got == ["old: x0_p8=30 x0_m8=10 x0=7 x0_2=0x1234 faulted_2=99",
                                   "rd: p=0x0 (unreadable) q=5", "rd: p=0x3 q=0 (unreadable)"],
               "trace-cmd report: each field by its own name and value, unreadable ones said", f"{got}\n{out[-2000:]}{err}")


if __name__ == "__main__":
    sys.exit(tap_main(checks, __doc__, "bt-probe-names-"))
