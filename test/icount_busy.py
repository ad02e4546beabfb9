"""test/icount_busy.py: a CPU-bound application under ICOUNT=1 takes
every CPU's tick (issue 39 item 6), part of the 'outcome' stage.

'busy MS' (test/target/scenario_busy.c) keeps CPU 0 computing for MS ms
of counter time while the other CPUs idle, then prints how many ticks
each CPU took. It boots as `make ICOUNT=1 run` does (-icount
shift=4,sleep=off, one host thread for the CPUs), with the default
lockup detector (2000 ms), untraced and with each tracer.

QEMU 7.2's round-robin gave the CPU after a busy one no instructions to
run until the busy one left its slice (kernel/smp/time.c, tick_irq): CPU
1 took a tick or two a second, and the detector ended the run as
'hang 124' ("CPU 1 took no timer tick for 2000 ms") once 2 s had passed.
2200 ms is past that. Under -icount the counter counts instructions, so
every figure here is the same on any host. The tracer rows send little
down the line (64 KiB rings, paced at 115200 baud): a busy exporter
gave the starved CPU slices of its own, by the host's clock.
"""
import re

MS = 2200
BUSY = "busy_*"
ROWS = [
    ("untraced", ""),
    ("function", f"trace=function trace_filter={BUSY} trace_buf=64K trace_pace=115200"),
    ("function_graph", f"trace=function_graph trace_filter={BUSY} trace_buf=64K "
     "trace_pace=115200"),
    ("profile", f"trace=profile trace_filter={BUSY}"),
    ("coverage", f"trace=coverage trace_filter={BUSY}"),
]
ICOUNT = "-icount shift=4,sleep=off"


def check(h, res, tgt):
    hz = 100	# the default tick (kernel/smp/time.c)
    want = MS * hz // 1000
    for name, args in ROWS:
        st, out = h.qemu_boot(tgt, f"panic=poweroff {args} -- busy {MS}".replace("  ", " "),
                              flags=ICOUNT)
        m = re.search(rf"^busy: ticks per CPU in {MS} ms: ([\d ]+)$", out, re.M)
        ticks = [int(t) for t in m.group(1).split()] if m else []
        why = []
        if st != 0:
            why.append(f"status {st}")
        if "baretrace lockup" in out:
            why.append("a lockup report")
        if len(ticks) != 4:
            why.append(f"tick counts {ticks}, wanted 4")
        # Three quarters at least: a CPU served only when another one
        # happens to leave its slice takes a few percent.
        low = [c for c, t in enumerate(ticks) if t * 4 < want * 3]
        if low:
            why.append(f"CPU(s) {low} took {[ticks[c] for c in low]} ticks of {want}")
        res.record(f"outcome: ICOUNT=1, CPU 0 busy {MS} ms ({name}): every CPU takes its "
                   f"tick ({want} each), no lockup report, exit 0",
                   not why, f"{why}\n{out[-2500:]}")
