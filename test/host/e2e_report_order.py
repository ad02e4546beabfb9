#!/usr/bin/env python3
"""test/host/e2e_report_order.py: `baretrace report` as a time-ordered
ftrace function_graph timeline (issue 14). Usage: e2e_report_order.py
PATH/TO/baretrace; prints TAP.

One synthetic capture on three CPUs, built with e2e_wire.py's
encoder (docs/wire.md) and sent in an order that is not time order:
CPU 2's blocks first, then CPU 1's, then CPU 0's, each CPU's calls
spread over the same 3.4 s so their times interleave.

  CPU 0  leaf calls lasting just below, at and just above each of
         ftrace's duration thresholds (10 us, 100 us, 1 ms, 10 ms,
         100 ms, 1 s), counter ticks of 16 ns
  CPU 1  outer() { an interrupt: irq:entry, mid() { leaf(); }, irq:exit }
         again and again
  CPU 2  mid() { leaf(); } again and again

The checks model what each record prints, independently of the tool:
one line per leaf (at its entry's time), per open entry, per exit, per
tracepoint (a comment) and an interrupt marker around each irq pair.
"""
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import e2e_wire as wire
from e2e_wire import FREQ, varint, zigzag, rec, payload, escape, string  # noqa: E402

NS_PER_TICK = 1000000000 // FREQ          # 16
MAIN, OUTER, LEAF, MID = 0, 1, 2, 3      # sites of e2e_baretrace's image
IRQ_ENTRY, IRQ_EXIT = 0, 1               # tracepoint ids
T0 = 2 * FREQ                            # 2.000000 s
MARKS = [(1000000000, "$"), (100000000, "@"), (10000000, "*"), (1000000, "#"),
         (100000, "!"), (10000, "+")]
DASH = " ------------------------------------------"


def metadata():
    b = varint(1) + varint(2) + varint(2) + varint(FREQ) + varint(3) + varint(3)
    b += varint(4) + bytes(4) + varint(5) + varint(len(wire.SITES)) + varint(6) + varint(0x40080000)
    b += varint(7) + varint(IRQ_ENTRY) + string("irq:entry") + bytes([1])
    b += string("irq") + bytes([3]) + string("%u")
    b += varint(7) + varint(IRQ_EXIT) + string("irq:exit") + bytes([2])
    b += string("irq") + bytes([3]) + string("%u") + string("handled") + bytes([1]) + string("%u")
    return b


def threshold_durations():
    """Ticks just below, at and just above each threshold."""
    out = []
    for ns, _ in reversed(MARKS):
        t = ns // NS_PER_TICK
        out += [t - 1, t, t + 1]
    return out


def cpu_events():
    """Per CPU, the records in time order: (tick, kind, fields) where kind is
    'enter' (site, depth), 'exit' (site, duration) or 'event' (id, values)."""
    ev = {0: [], 1: [], 2: []}
    t = T0
    for d in threshold_durations():
        ev[0] += [(t, "enter", (LEAF, 0)), (t + d, "exit", (LEAF, d))]
        t += d + 10
    end = t
    t = T0 + 7
    while t < end:                                   # CPU 1: an interrupt inside outer()
        ev[1] += [(t, "enter", (OUTER, 0)), (t + 3, "event", (IRQ_ENTRY, [27])),
                  (t + 5, "enter", (MID, 1)), (t + 6, "enter", (LEAF, 2)),
                  (t + 40, "exit", (LEAF, 34)), (t + 50, "exit", (MID, 45)),
                  (t + 52, "event", (IRQ_EXIT, [27, 1])), (t + 60, "exit", (OUTER, 60))]
        t += 37000000                                # 0.592 s
    t = T0 + 11
    while t < end:                                   # CPU 2
        ev[2] += [(t, "enter", (MID, 0)), (t + 2, "enter", (LEAF, 1)),
                  (t + 900, "exit", (LEAF, 898)), (t + 905, "exit", (MID, 903))]
        t += 23000000                                # 0.368 s
    return ev


def encode(events, first):
    base = events[0][0]
    b, now = varint(base) + varint(first), base
    for tick, kind, f in events:
        if kind == "enter":
            b += rec(3, tick - now, varint(f[0]), varint(f[1]))
        elif kind == "exit":
            b += rec(2, tick - now, varint(f[0]), varint(f[1]), bytes([0]))
        else:
            b += rec(4, tick - now, varint(f[0]), *[varint(zigzag(v)) for v in f[1]])
        now = tick
    return b


def capture(ev):
    """The raw log, and each record's arrival number (for ties)."""
    frames = [escape(payload(2, 0, 0, metadata())),
              escape(payload(3, 0, 0, wire.symdump(0, [0, 1, 2, 3])))]
    arrival, n, totals = {}, 0, []
    for cpu in (2, 1, 0):
        recs = ev[cpu]
        half = len(recs) // 2
        for seq, (lo, hi) in enumerate([(0, half), (half, len(recs))]):
            frames.append(escape(payload(1, cpu, seq, encode(recs[lo:hi], lo))))
            for i in range(lo, hi):
                arrival[(cpu, i)] = n
                n += 1
        totals.append((cpu, len(recs), 0, 0, 0, 2))
    frames.append(escape(payload(4, 0, 0, wire.end_totals(totals))))
    return b"".join(frames), arrival


def model(ev, arrival):
    """The graph lines report must print, as (tick, arrival, cpu, what),
    in the order a stable merge on time gives."""
    lines = []
    for cpu, recs in ev.items():
        i = 0
        while i < len(recs):
            tick, kind, f = recs[i]
            key = (tick, arrival[(cpu, i)], cpu)
            nxt = recs[i + 1] if i + 1 < len(recs) else None
            if kind == "enter" and nxt and nxt[1] == "exit" and nxt[2][0] == f[0]:
                lines.append(key + (("leaf", f[0], nxt[2][1]),))
                i += 2
                continue
            if kind == "event" and f[0] == IRQ_ENTRY:
                lines += [key + (("irq>",),), key + (("comment",),)]
            elif kind == "event":
                lines += [key + (("comment",),), key + (("irq<",),)]
            else:
                lines.append(key + ((kind,),))
            i += 1
    return sorted(lines, key=lambda l: (l[0], l[1]))


def cell(ns):
    """ftrace's duration cell, as its documentation and output show it."""
    mark = next((m for lim, m in MARKS if ns > lim), " ")
    us, rem = divmod(ns, 1000)
    num = str(us)
    if len(num) < 7:
        num += "." + f"{rem:03d}"[:min(3, 7 - len(num))]
    return f"{mark} {num} us " + " " * max(0, 8 - len(num)) + "|  "


def seconds(tick):
    us = tick * NS_PER_TICK // 1000
    return f"{us // 1000000}.{us % 1000000:06d}"


class Tap:
    def __init__(self):
        self.n = self.failed = 0

    def ok(self, cond, name, detail=""):
        self.n += 1
        print(f"{'ok' if cond else 'not ok'} {self.n} - {name}")
        if not cond:
            self.failed += 1
            for line in str(detail).splitlines()[-25:]:
                print(f"# {line}")
        return cond


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


GRAPH = re.compile(r"^ (\d)\) (.{14})\|(?:  (.*))?$")
ABS = re.compile(r"^ +(\d+\.\d{6}) \|  (.*)$")


def checks(tap, tool, tmp):
    ev = cpu_events()
    raw, arrival = capture(ev)
    log, trace = os.path.join(tmp, "order.log"), os.path.join(tmp, "order.bt")
    with open(log, "wb") as f:
        f.write(raw)
    rc, _, err = run([tool, "capture", "--file", log, "-o", trace])
    tap.ok(rc == 0, "capture of the three-CPU log", err)
    rc, rep, err = run([tool, "report", trace])
    rca, rep_abs, erra = run([tool, "report", "--abstime", trace])
    tap.ok(rc == 0 and rca == 0 and err == erra == "", "report and report --abstime exit 0",
           err + erra)
    lines, alines = rep.splitlines(), rep_abs.splitlines()
    want = model(ev, arrival)

    # Time order: every line with a time is no earlier than the one before.
    times = [(ABS.match(l).group(1), l) for l in alines if ABS.match(l)]
    back = [(a, b) for a, b in zip(times, times[1:])
            if tuple(map(int, b[0].split("."))) < tuple(map(int, a[0].split(".")))]
    tap.ok(len(times) == len(want) and not back, f"report --abstime: {len(times)} timed lines, none earlier than the "
           "line before it", f"{len(times)} timed lines, model {len(want)}; backwards: {back[:3]}")
    # The abstime column is the line's own time (an entry's for a leaf).
    got = [t for t, _ in times]
    tap.ok(got == [seconds(w[0]) for w in want] and got[0] == "2.000000",
           "--abstime: each line's time is its record's (a leaf's its entry's), "
           "right-aligned as funcgraph-abstime prints it",
           "\n".join(f"{a} {b}" for a, b in zip(got, [seconds(w[0]) for w in want])
                     if a != b)[:2000])
    tap.ok(alines[2:4] == ["#     TIME        CPU  DURATION                  FUNCTION CALLS",
                           "#      |          |     |   |                     |   |   |   |"]
           and all(re.match(r"^ {4}\d\.\d{6} \|   \d\) ", x) for x in alines if ABS.match(x)),
           "--abstime: the TIME column in the header and '%5u.%06u |  ' before the CPU",
           "\n".join(alines[:12]))
    # Without the column the text is the same, line for line.
    tap.ok([ABS.sub(r"\2", l) for l in alines[4:]] == lines[4:],
           "report without --abstime prints the same lines, in the same order")

    # The graph lines come in the model's CPU order, and a switch block
    # stands exactly where consecutive graph lines change CPU.
    graph = [(i, GRAPH.match(l)) for i, l in enumerate(lines) if GRAPH.match(l)]
    cpus = [int(m.group(1)) for _, m in graph]
    tap.ok(cpus == [w[2] for w in want], f"{len(graph)} graph lines in time order across CPUs "
           "(the model's stable merge)", f"got  {cpus[:40]}\nwant {[w[2] for w in want][:40]}")
    bad, blocks = [], 0
    for (i, a), (j, b) in zip(graph, graph[1:]):
        between = lines[i + 1:j]
        if a.group(1) == b.group(1):
            if between:
                bad.append((i, between))
            continue
        blocks += 1
        if between != [DASH, f" {a.group(1)}) => {b.group(1)})", DASH, ""]:
            bad.append((i, between))
    tap.ok(not bad and blocks == sum(1 for x, y in zip(cpus, cpus[1:]) if x != y) and blocks > 10,
           f"{blocks} CPU switch blocks, each '{DASH.strip()[:6]}...' / ' a) => b)' / dashes / "
           "empty line, between the lines of two CPUs and nowhere else", bad[:3])

    # Duration markers and the fixed column, just below, at and above each threshold.
    leaves = [m for _, m in graph if m.group(1) == "0"]
    durs = threshold_durations()
    cells = [m.group(2) + "|  " for m in leaves]
    exp = [cell(d * NS_PER_TICK) for d in durs]
    tap.ok(cells == exp, "CPU 0's leaves: marker and duration cell at each threshold",
           "\n".join(f"got {a!r} want {b!r}" for a, b in zip(cells, exp) if a != b))
    literal = {624: "  9.984 us    |  ", 625: "  10.000 us   |  ",
               626: "+ 10.016 us   |  ", 6251: "! 100.016 us  |  ", 62501: "# 1000.016 us |  ",
               625001: "* 10000.01 us |  ", 6250001: "@ 100000.0 us |  ",
               62500001: "$ 1000000 us  |  "}
    for d, text in literal.items():
        at = durs.index(d)
        got = cells[at] if at < len(cells) else None
        tap.ok(got == text, f"{d} ticks ({d * NS_PER_TICK} ns) print as {text.strip()!r}",
               f"got {got!r}")
    off = [l for l in lines if GRAPH.match(l) and not (l[18] == "|" and l[17] == " ")]
    tap.ok(not off and len(cells) == 18,
           "every graph line has '|' in column 18 after a space (the cell is 14 wide)", off[:5])

    # An interrupt on CPU 1: markers around the irq tracepoints, comments indented.
    one = [lines[i] for i, m in graph if m.group(1) == "1"]
    tap.ok(one[:9] == [
        " 1)               |  outer() {",
        " 1)   ==========> |",
        " 1)               |    /* irq:entry irq=27 */",
        " 1)               |    mid() {",
        " 1)   0.544 us    |      leaf();",
        " 1)   0.720 us    |    }",
        " 1)               |    /* irq:exit irq=27 handled=1 */",
        " 1)   <========== |",
        " 1)   0.960 us    |  }"], "irq:entry/irq:exit print ftrace's ==========> and "
           "<========== lines and /* name fields */ comments at the CPU's depth", "\n".join(one[:9]))


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    tool = os.path.abspath(sys.argv[1])
    tap = Tap()
    with tempfile.TemporaryDirectory(prefix="bt-order-") as tmp:
        checks(tap, tool, tmp)
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
