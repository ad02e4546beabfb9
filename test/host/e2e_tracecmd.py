#!/usr/bin/env python3
"""test/host/e2e_tracecmd.py: `baretrace export --format=trace-cmd` read
by Debian's trace-cmd.

  e2e_tracecmd.py BARETRACE
      Builds a synthetic capture with e2e_baretrace.py's encoder of
      docs/wire.md: two CPUs; function entries with callers, graph entries
      and exits, tracepoints of two subsystems and one without a
      subsystem, one with a 200-byte string (an event too long for a
      small ring-buffer header), a 3 s gap (a time extend), enough events
      for several ring-buffer pages and a hole of 5 events. It exports the
      capture and checks `trace-cmd report -R -t` against the events this
      script encoded: the same events, each on its CPU with its time in
      ns, its name and its fields; then the default view (function names,
      the function_graph layout, the drop line, tracepoint text), function
      names from kallsyms with --elf, and the errors (missing trace, not a
      trace, unwritable output) that leave no file behind. Then KernelShark
      (under Xvfb, test/xshot.py) opens the export of a 3-CPU trace from
      tools/gentrace (beside BARETRACE): its screenshot must show three CPU
      plots, each its own colour (typed_viewers.py checks a real trace's
      marks and list view).

  e2e_tracecmd.py BARETRACE --real TRACE.bt ELF
      A real capture from the trace stage (the demo under function_graph
      with tracepoints on 4 CPUs; the overflow run, function tracer with
      holes): trace-cmd report must show as many events as `baretrace
      report` counts, the same number per CPU, the same kinds of events,
      the same function and tracepoint names, a "DROPPED" mark for each
      hole that an event of its CPU follows, and times that never go back.

Prints TAP; skips with "trace-cmd not installed" only when it is missing.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import e2e_baretrace as enc  # noqa: E402
import e2e_wire as wire
import xshot  # noqa: E402

NS = 16                       # ticks of wire.FREQ (62.5 MHz) in ns
BASE = 0x40080000             # _text in the metadata
SITES = {"main": 0, "outer": 1, "leaf": 2, "mid": 3}
START = {name: start for name, start, _ in wire.FUNCS}
LINE = re.compile(r"^\s*(\S+)-(\d+)\s+\[(\d+)\]\s+(\d+)\.(\d{9}):\s+(\w+):\s+(.*?)\s*$")


class Tap(enc.Tap):
    pass


def metadata(image_hash):
    v, s = wire.varint, wire.string
    b = v(1) + v(2) + v(2) + v(wire.FREQ) + v(3) + v(2)
    b += v(4) + image_hash.to_bytes(4, "little") + v(5) + v(len(SITES)) + v(6) + v(BASE)
    b += v(7) + v(1) + s("irq:entry") + bytes([2]) + s("irq") + bytes([3]) + s("%u")
    b += s("name") + bytes([10]) + s("")
    b += v(7) + v(2) + s("timer:tick") + bytes([1]) + s("count") + bytes([4]) + s("%lu")
    b += v(7) + v(3) + s("plain") + bytes([1]) + s("v") + bytes([8]) + s("%ld")
    return b


class Cpu:
    """One CPU's records: the wire bytes and what trace-cmd must show."""

    def __init__(self, cpu, base):
        self.cpu, self.now, self.body, self.want = cpu, base, b"", []
        self.base, self.first, self.count = base, 0, 0
        self.callers = {}             # the last caller recorded per function (kind 0)

    def add(self, delta, kind, fields, event, text):
        self.now += delta
        self.body += wire.rec(kind, delta, *fields)
        self.want.append((self.cpu, self.now * NS, event, text))
        self.count += 1

    def func(self, d, name, caller=None):
        f = [wire.varint(SITES[name])] + ([wire.varint(caller // 4)] if caller is not None else [])
        parent = self.callers[name] if caller is None else caller
        self.callers[name] = parent
        self.add(d, 0 if caller is None else 1, f, "function",
                 f"ip={name} parent_ip={self.pname(parent)}")

    def pname(self, off):
        inside = [n for n, s, z in wire.FUNCS if s <= off - 4 < s + z and n in SITES]
        return inside[0] if inside else hex(BASE + off)

    def entry(self, d, name, depth):
        self.add(d, 3, [wire.varint(SITES[name]), wire.varint(depth)], "funcgraph_entry",
                 f"func={name} depth={depth}")

    def exit(self, d, name, depth, dur):
        end = self.now + d
        self.add(d, 2, [wire.varint(SITES[name]), wire.varint(dur), bytes([0])], "funcgraph_exit",
                 f"func={name} depth={depth} overrun=0 calltime={(end - dur) * NS:x} "
                 f"rettime={end * NS:x}")

    def tp(self, d, tid, event, pairs):
        f = [wire.varint(tid)]
        for _, val in pairs:
            f.append(wire.string(val) if isinstance(val, str) else wire.varint(wire.zigzag(val)))
        self.add(d, 4, f, event, " ".join(f"{k}={v}" for k, v in pairs))

    def block(self, seq):
        body = wire.varint(self.base) + wire.varint(self.first) + self.body
        frame = wire.escape(wire.payload(1, self.cpu, seq, body))
        self.first += self.count
        self.count, self.body, self.base = 0, b"", self.now
        return frame


def synthetic(image_hash):
    """Returns (raw capture bytes, wanted events in stream order, holes)."""
    c0, c1 = Cpu(0, wire.FREQ), Cpu(1, wire.FREQ + 200)  # CPU 1 amid the leaf run
    c0.func(0, "main", 0x10)                       # main <- _start
    c0.entry(10, "outer", 0)
    c0.entry(5, "leaf", 1)
    c0.exit(30, "leaf", 1, 30)
    c0.tp(3, 1, "irq_entry", [("irq", 27), ("name", "uart")])
    c0.exit(40, "outer", 0, 88)
    for i in range(300):                           # several pages
        c0.func(2 + i % 3, "leaf", 0x150 if i == 0 else None)
    c0.tp(3 * wire.FREQ, 2, "timer_tick", [("count", 5)])  # 3 s: a time extend
    c1.entry(0, "mid", 0)
    c1.func(4, "leaf", 0x1F0)                      # leaf <- mid
    c1.exit(9, "mid", 0, 13)
    c1.tp(1, 1, "irq_entry", [("irq", 33), ("name", "n" * 200)])
    frames = [wire.escape(wire.payload(2, 0, 0, metadata(image_hash))),
              wire.escape(wire.payload(3, 0, 0, wire.symdump(0, [0, 1, 2, 3]))),
              c0.block(0), c1.block(0)]
    c0.first += 5                                  # 5 events of CPU 0 never arrive
    c0.func(100, "mid", 0x50)                      # mid <- main
    c0.tp(1, 3, "plain", [("v", -7)])
    frames.append(c0.block(1))
    return b"".join(frames), c0.want + c1.want


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def events(text):
    """(cpu, ns, event, fields) of each event line; 'drops': CPU -> count."""
    out, drops = [], {}
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            out.append((int(m[3]), int(m[4]) * 10**9 + int(m[5]), m[6], m[7]))
        m = re.match(r"^CPU:(\d+) \[(\d+) EVENTS DROPPED\]", line)
        if m:
            drops[int(m[1])] = drops.get(int(m[1]), 0) + int(m[2])
    return out, drops


def kernelshark_cpus(tap, tool, tmp):
    """KernelShark opens the export of a 3-CPU trace: a plot per CPU."""
    missing = [t for t in ("kernelshark", "Xvfb", "xdotool", "xwd") if not shutil.which(t)]
    if not tap.ok(not missing, "KernelShark and Xvfb are installed (tools/setup installs them)",
                  " ".join(missing)):
        return
    bt, dat = os.path.join(tmp, "g.bt"), os.path.join(tmp, "g.dat")
    rc, _, err = run([os.path.join(os.path.dirname(tool), "gentrace"), bt, "3000", "3", "graph"])
    rc2, _, err2 = run([tool, "export", "--format=trace-cmd", "-o", dat, bt])
    img, log = xshot.kernelshark(dat, lambda i: len(xshot.bands(i)) == 3) \
        if rc == 0 and rc2 == 0 else (None, err + err2)
    bands = xshot.bands(img) if img else []
    tap.ok(len(bands) == 3 and len({tuple(b[4]) for b in bands}) == 3,
           "KernelShark opens the export of a 3-CPU trace: three CPU plots, each its own colour",
           f"bands {[b[:4] for b in bands]}\n{log[-1500:]}")


def synthetic_checks(tap, tool, tmp):
    elf = os.path.join(tmp, "good.elf")
    raw, want = synthetic(wire.elf(elf))
    rawp, bt, dat = (os.path.join(tmp, n) for n in ("raw.log", "t.bt", "t.dat"))
    with open(rawp, "wb") as f:
        f.write(raw)
    rc, _, err = run([tool, "capture", "--file", rawp, "-o", bt])
    tap.ok(rc == 0, "capture of the synthetic trace", err)
    rc, out, err = run([tool, "export", "--format=trace-cmd", "-o", dat, bt])
    tap.ok(rc == 0 and out == "" and os.path.getsize(dat) % 4096 == 0,
           "export --format=trace-cmd exits 0 and writes whole pages", err)
    rc, out, err = run(["trace-cmd", "report", "-R", "-t", dat])
    got, drops = events(out)
    tap.ok(rc == 0 and out.startswith("cpus=2\n"), "trace-cmd report reads it: cpus=2",
           err + out[:300])
    tap.ok(len(got) == len(want), f"trace-cmd shows {len(want)} events", f"{len(got)}")
    tap.ok(sorted(got) == sorted(want), "each event with its CPU, ns time, name and fields",
           "\n".join(f"want {w}\n got {g}" for w, g in zip(sorted(want), sorted(got)) if w != g)[:2000])
    for cpu in (0, 1):
        tap.ok([g for g in got if g[0] == cpu] == [w for w in want if w[0] == cpu],
               f"CPU {cpu}'s events in its order")
    tap.ok(all(a[1] <= b[1] for a, b in zip(got, got[1:])), "merged by time, never going back")
    tap.ok(drops == {0: 5}, "the 5 lost events of CPU 0 show as 'CPU:0 [5 EVENTS DROPPED]'",
           str(drops))
    rc, out, err = run(["trace-cmd", "report", dat])
    for pat, name in [(r"\[000\] +1\.000000: funcgraph_entry: +\| +outer\(\) \{$", "outer() {"),
                      (r"\[000\] +1\.000000: funcgraph_entry: +0\.480 us +\| +leaf\(\);$",
                       "leaf(); with its duration"),
                      (r"\[000\] +1\.000001: funcgraph_exit: +1\.408 us +\| +\}$", "outer's }"),
                      (r"\[000\] +1\.000001: irq_entry: +irq=27 name=uart$", "irq:entry's print fmt"),
                      (r"\[001\] .*: irq_entry: +irq=33 name=n{200}$", "a 200-byte string field"),
                      (r"\[000\] +4\.\d{6}: timer_tick: +count=5$", "timer:tick after 3 s"),
                      (r"\[000\] .*: plain: +v=-7$", "a tracepoint without a subsystem"),
                      (r"^CPU:0 \[5 EVENTS DROPPED\]\n.*function: +mid$", "the drop line")]:
        tap.ok(rc == 0 and re.search(pat, out, re.M), f"trace-cmd report: {name}", out[-1500:])
    rc, out, err = run(["trace-cmd", "report", "--events", dat])
    tap.ok(re.search(r"^system: irq\nname: irq_entry$", out, re.M) and
           re.search(r"^system: timer\nname: timer_tick$", out, re.M) and
           re.search(r"^system: baretrace\nname: plain$", out, re.M),
           "tracepoints listed by system: irq, timer, baretrace", out[-1500:])
    rc, _, err = run([tool, "export", "--format=trace-cmd", "-o", dat, bt, "--elf", elf])
    rc2, out, _ = run(["trace-cmd", "report", "-O", "parent=1", dat])
    rc3, syms, _ = run(["trace-cmd", "report", "-f", dat])
    tap.ok(rc == 0 and rc2 == 0 and re.search(r"function: +main <-- _start$", out, re.M) and
           re.search(r"function: +mid <-- main$", out, re.M),
           "with --elf, callers that are no site (_start) have names too", err + out[:800])
    tap.ok(rc3 == 0 and all(f"{BASE + s:016x} {n}" in syms for n, s, _ in wire.FUNCS),
           "kallsyms: every ELF function at _text (0x40080000) + its offset", syms)
    error_checks(tap, tool, tmp, bt)


def error_checks(tap, tool, tmp, bt):
    def expect(args, out, words, name):
        rc, so, se = run([tool, "export", "--format=trace-cmd", "-o", out] + args)
        tap.ok(rc != 0 and all(w in se for w in words) and not os.path.exists(out),
               f"error: {name}: a clear message, no file written", f"rc={rc} {se!r}")
    expect([os.path.join(tmp, "missing.bt")], os.path.join(tmp, "e1.dat"), ["missing.bt"],
           "missing trace file")
    junk = os.path.join(tmp, "junk.bt")
    with open(junk, "w") as f:
        f.write("not a trace\n")
    expect([junk], os.path.join(tmp, "e2.dat"), ["junk.bt"], "not a trace")
    expect([bt], os.path.join(tmp, "no", "such", "dir.dat"), ["cannot create", "dir.dat"],
           "unwritable output")


def report_counts(text):
    """What `baretrace report` shows: events per CPU, names, event kinds,
    the events lost before a later event of the same CPU (trace-cmd marks
    those), and the total. A graph line "name();" is an entry and its
    exit, "name() {" an entry, "}" an exit ("} /* name */" names a
    function whose entry was not recorded), "/* sys:ev ... */" a tracepoint
    and another "/* ... */" a printf in the graph layout; "==== run ended:
    ... ====" the outcome record, which trace-cmd reads as a print event
    (ip 0: no function); interrupt markers and CPU switch blocks are no
    events."""
    per_cpu, names, kinds, pending, drops = {}, set(), set(), {}, {}
    for line in text.splitlines():
        lost = re.match(r"^CPU:(\d+) \[LOST (\d+) EVENTS\]", line)
        ended = re.match(r"^\[(\d+)\] [\d.]+: ==== run ended: .* ====$", line)
        m = re.match(r"^\[(\d+)\] [\d.]+: (\S+?)( <-.*|: .*)?$", line)
        g = re.match(r"^ (\d+)\) [^|]*\|\s+(.*?)\s*$", line)
        if lost:
            pending[int(lost[1])] = pending.get(int(lost[1]), 0) + int(lost[2])
            continue
        if ended:
            cpu, n, name = int(ended[1]), 1, None
            kinds.add("print")
        elif m:
            cpu, n, name = int(m[1]), 1, m[2]
            kinds.add("function" if (m[3] or "").startswith(" <-") else
                      name.replace(":", "_") if ":" in name else "print")
        elif g and re.match(r"^/\*.*\*/$", g[2]):   # a tracepoint or printf comment
            tpc = re.match(r"^/\* (\w+:\w+)\b.*\*/$", g[2])
            cpu, n, name = int(g[1]), 1, tpc[1] if tpc else None
            kinds.add(name.replace(":", "_") if tpc else "print")
        elif g and not re.search(r"==========>|<==========", line):
            cpu, body = int(g[1]), g[2]
            c = re.match(r"^\} /\* ([^=\s]\S*) \*/$", body)
            n = 1 if body.startswith("}") or body.endswith("{") else 2
            name = c[1] if c else None if body.startswith("}") else body.split("(")[0]
            kinds |= {"funcgraph_exit"} if body.startswith("}") else \
                {"funcgraph_entry"} if n == 1 else {"funcgraph_entry", "funcgraph_exit"}
        else:
            continue
        per_cpu[cpu] = per_cpu.get(cpu, 0) + n
        if pending.get(cpu):
            drops[cpu] = drops.get(cpu, 0) + pending.pop(cpu)
        if name:
            names.add(name)
    total = re.search(r"^# (\d+) events$", text, re.M)
    return per_cpu, names, kinds, drops, int(total[1]) if total else -1


def real_checks(tap, tool, tmp, bt, elf):
    dat = os.path.join(tmp, "real.dat")
    rc, report, err = run([tool, "report", bt, "--elf", elf])
    tap.ok(rc == 0, "baretrace report of the real trace", err)
    rc, _, err = run([tool, "export", "--format=trace-cmd", "-o", dat, bt, "--elf", elf])
    tap.ok(rc == 0, "export --format=trace-cmd of the real trace", err)
    rc, out, err = run(["trace-cmd", "report", "-R", "-t", dat])
    got, drops = events(out)
    per_cpu, names, kinds, lost, total = report_counts(report)
    tap.ok(rc == 0 and len(got) == total > 0, f"real trace: {total} events in both", f"{len(got)}")
    mine = {}
    for g in got:
        mine[g[0]] = mine.get(g[0], 0) + 1
    tap.ok(mine == per_cpu and len(mine) > 1, "real trace: events per CPU agree",
           f"trace-cmd {mine} report {per_cpu}")
    tap.ok({g[2] for g in got} == kinds, f"real trace: the same kinds of events {sorted(kinds)}",
           str({g[2] for g in got}))
    tc_names = set()
    for g in got:
        if g[2] == "print" and "==== run ended: " in g[3]:
            continue
        m = re.match(r"(?:ip|func)=(\S+)", g[3])
        tc_names.add(m[1] if m else g[2])
    want = {n.replace(":", "_") for n in names}
    tap.ok(tc_names == want, "real trace: the same function and tracepoint names",
           f"only trace-cmd: {sorted(tc_names - want)} only report: {sorted(want - tc_names)}")
    tap.ok(drops == lost, f"real trace: events dropped per CPU as report's holes: {lost}",
           f"trace-cmd {drops}")
    tap.ok(all(a[1] <= b[1] for a, b in zip(got, got[1:])), "real trace: times never go back")


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    tool, tap = os.path.abspath(sys.argv[1]), Tap()
    if not shutil.which("trace-cmd"):
        # One passing line that says so: run.py counts a run without TAP as failed.
        print("ok 1 - trace-cmd report reads the export # SKIP trace-cmd not installed "
              "(tools/setup installs it)\n1..1")
        return 0
    tmp = tempfile.mkdtemp(prefix="bt-tracecmd-")
    try:
        if "--real" in sys.argv:
            i = sys.argv.index("--real")
            real_checks(tap, tool, tmp, sys.argv[i + 1], sys.argv[i + 2])
        else:
            synthetic_checks(tap, tool, tmp)
            kernelshark_cpus(tap, tool, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
