#!/usr/bin/env python3
"""test/host/e2e_graphrec.py: the one-byte graph return of wire version 5
(docs/wire.md 2.1, issue 43) against the records of version 4.

One call tree on one CPU, written twice with e2e_wire.py's encoder (not
wire/wire.c): as version 4 writes it (every exit a kind 2 with its site
and duration) and as version 5 does (an exit whose entry is the block's
innermost open one a return, kind 6, the header alone; the others kind
2). The version-5 stream holds each case where a return cannot be
written: an exit whose entry is in the block before, an exit with a
return value, and exits below an entry that never got its exit (a call
a longjmp abandoned), after which the block's stack keeps that entry and
the exits are kind 2 until the block ends. Lost events are kind 7
subtype 7 in version 5, kind 6 in version 4.

Checks: report, stats and the folded export say the same of both files
(the durations of returns come from their entries' times, where version
4 carried them), a return's duration as the ticks between entry and
exit, the version-5 data frames smaller, a return with no open entry is
a malformed block that the books count (not a crash, not another call's
exit), and a version-4 kind 6 is still lost events.

Usage: test/host/e2e_graphrec.py BARETRACE [--keep DIR]
Prints TAP; exit status 0 when every check passed.
"""
import os
import sys

import e2e_wire as wire
from e2e_baretrace import run, tap_main
from e2e_outcome import capture
from e2e_wire import FREQ, varint, rec, payload, escape, site16

OUTER, LEAF, MID = wire.S_OUTER, wire.S_LEAF, wire.S_MID
T0 = 3 * FREQ


def exit2(delta, site, dur, retval=None):
    flags = bytes([1]) + varint(wire.zigzag(retval)) if retval is not None else bytes([0])
    return rec(2, delta, site16(site), varint(dur), flags)


def entry(delta, site, depth):
    return rec(3, delta, site16(site), varint(depth))


def blocks(version):
    """Two blocks of CPU 0 as the given version writes them; the exits
    are (delta, site, duration[, retval]) and 'ret' says which of them
    version 5 writes as a return."""
    v5 = version >= 5

    def ex(delta, site, dur, ret, retval=None):
        return rec(6, delta) if v5 and ret else exit2(delta, site, dur, retval)

    lost = wire.ext(0, 7, varint(4)) if v5 else rec(6, 0, varint(4))
    b0 = [entry(0, OUTER, 0),               # outer() {        t=0
          entry(5, LEAF, 1),                #   leaf();        t=5
          ex(30, LEAF, 30, True),           #   30 ticks       t=35
          entry(2, MID, 1),                 #   mid() {        t=37
          entry(1, LEAF, 2),                #     leaf();      t=38
          ex(700, LEAF, 700, True),         #     700          t=738
          ex(25, MID, 726, False, -5),      #   } a return value: kind 2, mid stays open
          ex(40, OUTER, 801, False),        # } mid above it is still open: kind 2
          entry(9, MID, 0),                 # mid() {          t=812
          entry(3, LEAF, 1),                #   leaf() {       t=815 (abandoned: no exit)
          ex(50, MID, 53, False)]           # } leaf above it: kind 2
    b1 = [lost,                             # the ring lost 4 before this block
          ex(20, OUTER, 1500, False),       # outer(), entered in block 0: kind 2
          entry(3, LEAF, 0),                # leaf();
          ex(16, LEAF, 16, True)]           #   16 ticks: a return
    first1 = len(b0) + 4
    return ([varint(T0) + varint(0) + b"".join(b0),
             varint(T0 + 2000) + varint(first1) + b"".join(b1)],
            [(0, first1 + len(b1) - 1, 0, 4, 0, 2)])


def trace(tap, tool, tmp, version, name):
    (body0, body1), totals = blocks(version)
    h = wire.elf(os.path.join(tmp, name + ".elf"))
    f = lambda *a: escape(payload(*a))
    raw = (f(2, 0, 0, wire.metadata(h, version, ncpus=1)) +
           f(3, 0, 0, wire.symdump(0, [0, 1, 2, 3], version)) +
           f(1, 0, 0, body0) + f(1, 0, 1, body1) +
           f(4, 0, 0, wire.end_totals(totals)))
    return capture(tap, tool, tmp, name, raw), len(body0) + len(body1)


def same_outputs(tap, tool, tmp, v4, v5):
    for args, what in ((["report"], "report"), (["stats"], "stats"),
                       (["report", "--abstime"], "report --abstime")):
        rc4, out4, err4 = run([tool] + args + [v4])
        rc5, out5, err5 = run([tool] + args + [v5])
        tap.ok(rc4 == 0 and rc5 == 0 and out4 == out5 and "leaf" in out5,
               f"{what}: version 5 (returns) says what version 4 says", out4 + err4 + out5 + err5)
    for v, path in ((4, v4), (5, v5)):
        run([tool, "export", "--format=folded", "-o", os.path.join(tmp, f"v{v}.folded"), path])
    a, b = (open(os.path.join(tmp, f"v{v}.folded")).read() for v in (4, 5))
    tap.ok(a == b and "outer" in a, "folded export: the same stacks and times", a + "\n--\n" + b)


def durations(tap, tool, v5):
    rc, out, err = run([tool, "report", v5])
    # The leaf returns: 30 and 700 ticks in block 0, 16 in block 1; at
    # 62.5 MHz a tick is 16 ns.
    want = [f"{n * 16 / 1000:.3f} us" for n in (30, 700, 16)]
    missing = [w for w in want if w not in out]
    tap.ok(rc == 0 and not missing, "returns' durations: exit time - entry time",
           f"missing {missing}\n{out}{err}")
    rc, st, err = run([tool, "stats", v5])
    tap.ok(rc == 0 and "lost" in st.lower() and " 4 " in f" {st} ",
           "version 5's lost-events record (kind 7 subtype 7) is counted as 4 lost", st + err)


def unpaired(tap, tool, tmp):
    """A return that names no open entry: the block is malformed."""
    h = wire.elf(os.path.join(tmp, "bad.elf"))
    f = lambda *a: escape(payload(*a))
    body = varint(T0) + varint(0) + entry(0, OUTER, 0) + rec(6, 10) + rec(6, 10)
    raw = (f(2, 0, 0, wire.metadata(h, 5, ncpus=1)) +
           f(3, 0, 0, wire.symdump(0, [0, 1, 2, 3], 5)) + f(1, 0, 0, body) +
           f(4, 0, 0, wire.end_totals([(0, 3, 0, 0, 0, 1)])))
    bt = capture(tap, tool, tmp, "unpaired", raw)
    rc, out, err = run([tool, "report", bt])
    tap.ok(rc in (0, 1) and "outer" in out and "malformed" in (out + err).lower() and
           "Sanitizer" not in err,
           "a return with no open entry: the one it closed is shown, the block malformed",
           out + err)


def old_kind6(tap, tool, tmp):
    """Version 4's kind 6 is lost events, as it always was."""
    h = wire.elf(os.path.join(tmp, "old.elf"))
    f = lambda *a: escape(payload(*a))
    body = varint(T0) + varint(5) + rec(6, 0, varint(5)) + entry(1, OUTER, 0)
    raw = (f(2, 0, 0, wire.metadata(h, 4, ncpus=1)) +
           f(3, 0, 0, wire.symdump(0, [0, 1, 2, 3], 4)) + f(1, 0, 0, body) +
           f(4, 0, 0, wire.end_totals([(0, 6, 0, 5, 0, 1)])))
    bt = capture(tap, tool, tmp, "old", raw)
    rc, out, err = run([tool, "report", bt])
    tap.ok(rc == 0 and "LOST 5 EVENTS" in out.upper() and "malformed" not in (out + err).lower(),
           "version 4: kind 6 is still lost events", out + err)


def checks(tap, tool, tmp):
    v4, n4 = trace(tap, tool, tmp, 4, "v4")
    v5, n5 = trace(tap, tool, tmp, 5, "v5")
    tap.ok(n5 < n4, f"version 5's blocks are smaller ({n5} bytes against {n4})")
    same_outputs(tap, tool, tmp, v4, v5)
    durations(tap, tool, v5)
    unpaired(tap, tool, tmp)
    old_kind6(tap, tool, tmp)


if __name__ == "__main__":
    sys.exit(tap_main(checks, __doc__, "bt-graphrec-"))
