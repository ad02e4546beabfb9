#!/usr/bin/env python3
"""test/host/e2e_hist.py: `baretrace hist` and `stats --diff --hist` end to end.

Writes .bt files by hand (e2e_wire.py's encoder, apart from wire/wire.c):
metadata, a symbol dump, and duration-histogram frames (type 10,
docs/wire.md 2.12) of two CPUs, one CPU's dump replaced by a later one
and another's continued over two frames. The expected numbers are the
ones written here: the text's counts, bars and percentile bounds, the
JSON's per-CPU buckets, a diff of two traces (a function one bucket
slower: +100 %), --fail-above's exit status 3, and the errors: a trace
without histograms (status 1), bad command lines (status 2).

Usage: test/host/e2e_hist.py BARETRACE [--keep DIR]   (TAP on stdout)
"""
import json
import os
import re
import struct
import sys

import e2e_wire as wire
from e2e_baretrace import run, tap_main


def hist_body(part, entries):
    """entries: [(site, sum, {bucket: calls})]."""
    b = bytes([0]) + wire.varint(part) + bytes([len(entries)])
    for site, total, bk in entries:
        b += wire.varint(site) + wire.varint(total) + wire.varint(len(bk))
        for k in sorted(bk):
            b += bytes([k]) + wire.varint(bk[k])
    return b


def ev_body(part, spec, event, field, keyf, other, entries):
    """A kind-1 body (a tracepoint field per key); entries: [(key, sum, {bucket: hits})]."""
    b = bytes([1]) + b"".join(wire.varint(v) for v in (part, spec, event, field, keyf, other))
    b += bytes([len(entries)])
    for key, total, bk in entries:
        b += wire.varint(key) + wire.varint(total) + wire.varint(len(bk))
        for k in sorted(bk):
            b += bytes([k]) + wire.varint(bk[k])
    return b


def write_bt(path, frames):
    """frames: [(type, cpu, seq, body)] after the metadata and symbols."""
    head = [(2, 0, 0, wire.metadata(0x12345678, version=3)),
            (3, 0, 0, wire.symdump(0, range(len(wire.SITES))))]
    tail = [(4, 0, 0, b"")]   # end of stream: the trace is whole
    with open(path, "wb") as f:
        f.write(b"BTRACE\0\1")
        for t, c, s, b in head + frames + tail:
            p = wire.payload(t, c, s, b)
            f.write(struct.pack("<I", len(p)) + p)


# Site 2 is "leaf", site 3 "mid" (e2e_wire.SITES into FUNCS).
OLD = [
    (10, 0, 0, hist_body(0, [(2, 999, {11: 5})])),                 # replaced below
    (10, 1, 1, hist_body(0, [(2, 3 * 1536, {11: 3})])),
    (10, 1, 2, hist_body(1, [(3, 200, {7: 1, 8: 1})])),            # CPU 1 goes on
    (10, 0, 3, hist_body(0, [(2, 1536 + 6000, {11: 1, 13: 1}), (3, 100, {7: 1})])),
]
NEW = [
    (10, 0, 0, hist_body(0, [(2, 4 * 3072, {12: 4}), (3, 100, {7: 1})])),
]

# Field histograms: spec 0 is irq_entry's irq per irq (event 1, field 0,
# key field 0), spec 1 sched_tick's ptr (event 2, field 0, no key).
OLD_EV = [
    (10, 0, 0, ev_body(0, 0, 1, 0, 1, 2, [(5, 20, {3: 4}), (9, 18, {4: 2})])),
    (10, 1, 1, ev_body(0, 0, 1, 0, 1, 0, [(5, 5, {3: 1})])),
    (10, 1, 2, ev_body(1, 0, 1, 0, 1, 0, [(9, 20, {5: 1})])),     # CPU 1 goes on
    (10, 0, 3, ev_body(0, 1, 2, 0, 0, 0, [(0, 3, {1: 1, 2: 1})])),
]
NEW_EV = [
    (10, 0, 0, ev_body(0, 0, 1, 0, 1, 0, [(5, 50, {4: 5}), (9, 18, {4: 2})])),
    (10, 1, 1, ev_body(0, 0, 1, 0, 1, 0, [(9, 20, {5: 1})])),
]


def ev_checks(tap, tool, tmp):
    old, new = os.path.join(tmp, "old_ev.bt"), os.path.join(tmp, "new_ev.bt")
    write_bt(old, OLD_EV)
    write_bt(new, NEW_EV)
    st, out, err = run([tool, "hist", old])
    tap.ok(st == 0 and re.search(r"^irq_entry: irq per irq$", out, re.M) and
           re.search(r"^irq = 5: 5 hits on 2 CPUs, average 5, p50 <= 7, p99 <= 7$", out, re.M) and
           re.search(r"^irq = 9: 3 hits on 2 CPUs, average 12, p50 <= 15, p99 <= 31$", out, re.M) and
           re.search(r"^ +4 -> 7 : 5 +\|\*{40}\|$", out, re.M) and
           re.search(r"^2 hits of keys the target had no room for", out, re.M) and
           re.search(r"^sched_tick: ptr$", out, re.M) and
           re.search(r"^all hits: 2 hits on 1 CPU, average 1, p50 <= 1, p99 <= 3$", out, re.M),
           "hist: field histograms per key, CPUs summed (a continued part included), the "
           "other count, an unkeyed spec", out + err)
    st, out, err = run([tool, "hist", old, "--json"])
    try:
        ev = json.loads(out)["events"]
        keys = {k["key"]: (k["hits"], k["sum"], k["p50"]) for k in ev[0]["keys"]}
        per = {(p["cpu"], k["key"]): {b["bucket"]: b["count"] for b in p["buckets"]}
               for k in ev[0]["keys"] for p in k["per_cpu"]}
        ok = (ev[0]["event"] == "irq_entry" and ev[0]["field"] == "irq" and
              ev[0]["key"] == "irq" and ev[0]["other"] == 2 and
              keys == {5: (5, 25, 7), 9: (3, 38, 15)} and
              per == {(0, 5): {3: 4}, (1, 5): {3: 1}, (0, 9): {4: 2}, (1, 9): {5: 1}} and
              ev[1]["key"] is None and ev[1]["keys"][0]["hits"] == 2)
    except (ValueError, KeyError, IndexError) as e:
        ok, err = False, f"{err}\n{e}"
    tap.ok(ok, "hist --json: \"events\" with each key's hits, sums, bounds and CPUs", out + err)
    st, out, err = run([tool, "stats", "--diff", old, new, "--hist", "--fail-above", "50"])
    tap.ok(st == 3 and re.search(r"^ +5 +5 +7 +15 +\+114% .* irq_entry irq per irq = 5$", out, re.M)
           and re.search(r"^ +3 +3 +15 +15 +\+0% .* irq_entry irq per irq = 9$", out, re.M)
           and "key 5 grew past 50%" in err and "key 9 grew" not in err,
           "stats --diff --hist: a key's p50 one bucket up (+114 %) fails --fail-above 50, "
           "the unchanged key does not", out + err)


def checks(tap, tool, tmp):
    ev_checks(tap, tool, tmp)
    old, new, empty = (os.path.join(tmp, n) for n in ("old.bt", "new.bt", "empty.bt"))
    write_bt(old, OLD)
    write_bt(new, NEW)
    write_bt(empty, [])

    st, out, err = run([tool, "hist", old])
    tap.ok(st == 0 and re.search(r"^leaf: 5 calls on 2 CPUs, average 2428 ticks \(38848 ns\), "
                                 r"p50 <= 2047, p99 <= 8191 ticks$", out, re.M),
           "hist: leaf summed over CPU 0's latest dump and CPU 1's: 5 calls, the average "
           "of the sums, p50 and p99 bounds", out + err)
    tap.ok(re.search(r"^ +1024 -> 2047 +16384 -> 32767 : 4 +\|\*{40}\|$", out, re.M) and
           re.search(r"^ +2048 -> 4095 +32768 -> 65535 : 0 +\| {40}\|$", out, re.M) and
           re.search(r"^ +4096 -> 8191 +65536 -> 131071 : 1 +\|\*{10} {30}\|$", out, re.M),
           "hist: bars in ticks and ns (16 ns a tick), empty buckets between shown, "
           "lengths in proportion", out)
    tap.ok(re.search(r"^mid: 3 calls on 2 CPUs", out, re.M) is not None,
           "hist: mid from CPU 0 and from CPU 1's second frame", out)
    st, out, err = run([tool, "hist", old, "--per-cpu"])
    tap.ok(st == 0 and re.search(r"^leaf on CPU 0: 2 calls", out, re.M) and
           re.search(r"^leaf on CPU 1: 3 calls", out, re.M),
           "hist --per-cpu: each CPU's own", out + err)
    st, out, err = run([tool, "hist", old, "--json"])
    try:
        doc = json.loads(out)
        leaf = [f for f in doc["functions"] if f["function"] == "leaf"][0]
        per = {p["cpu"]: {b["bucket"]: b["count"] for b in p["buckets"]} for p in leaf["per_cpu"]}
        ok = (doc["freq_hz"] == wire.FREQ and leaf["calls"] == 5 and leaf["p50_ticks"] == 2047
              and per == {0: {11: 1, 13: 1}, 1: {11: 3}} and leaf["sum_ticks"] == 7536 + 4608)
    except (ValueError, KeyError, IndexError) as e:
        ok, err = False, f"{err}\n{e}"
    tap.ok(ok, "hist --json: calls, bounds, sums and each CPU's buckets", out + err)

    st, out, err = run([tool, "stats", "--diff", old, new, "--hist"])
    row = re.search(r"^ +5 +4 +32767 +65535 +\+100% .* leaf$", out, re.M)
    tap.ok(st == 0 and row is not None,
           "stats --diff --hist: leaf's p50 one bucket up (32767 to 65535 ns: +100 %)", out + err)
    st, out, err = run([tool, "stats", "--diff", old, new, "--hist", "--fail-above", "50"])
    tap.ok(st == 3 and "leaf grew past 50%" in err and "mid grew" not in err,
           "stats --diff --hist --fail-above 50: status 3, leaf named, mid not", out + err)
    st, out, err = run([tool, "stats", "--diff", old, old, "--hist", "--fail-above", "0"])
    tap.ok(st == 0, "a trace against itself: nothing grew, status 0", out + err)

    st, out, err = run([tool, "hist", empty])
    tap.ok(st == 1 and "no histogram frames" in err, "a trace without histograms: status 1",
           err)
    bad = [([tool, "hist"], "needs a trace file"),
           ([tool, "hist", old, "--jsn"], "did you mean '--json'"),
           ([tool, "hist", old, old], "unexpected"),
           ([tool, "hist", old, "--json", "--per-cpu"], "--json carries every CPU")]
    for cmd, what in bad:
        st, out, err = run(cmd)
        tap.ok(st == 2 and what in err, f"{' '.join(cmd[1:])}: status 2, '{what}'", err)


if __name__ == "__main__":
    sys.exit(tap_main(checks, __doc__, "e2e-hist-"))
