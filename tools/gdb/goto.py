"""tools/gdb/goto.py: the gdb half of 'baretrace goto' (docs/replay.md).

baretrace goto writes a gdb script that starts the recorded QEMU line
with its gdb stub (-gdb stdio -S), loads this file and calls

    baretrace-goto THREAD ADDR NTH TS CHECK EXACT NARGS [X0 .. X7]

THREAD is gdb's thread for the event's CPU (QEMU shows CPU n as thread
n + 1), ADDR the run-time address of the function's patch site (its BL,
the symbol + 4: where the traced event is taken), NTH the entry of the
function on that CPU, TS the counter value the trace recorded, NARGS and
X0.. the arguments it recorded (trace_args=). A breakpoint on ADDR for
THREAD only, taken only while the site holds a BL and the tracer runs
(a call with tracing off records nothing, so it is not counted), ignored NTH - 1 times, stops
the run at the event. Then it checks that the stop is the event: the
CPU, the address, x0-x(NARGS-1) against the recorded arguments; with
CHECK 1 it also steps that CPU (alone) on to the recorder's read of
CNTVCT and compares what it read with TS, then quits gdb with status 0
(all equal) or 1. The counter must be TS with EXACT 1 (one CPU); with
more CPUs the difference is only reported (see the message below). With CHECK 0 the user gets the prompt at the event.
"""
import gdb

BL_MASK, BL_BITS = 0xFC000000, 0x94000000
TRACER_RUNNING = "'control.c'::running"     # trace_active() (trace/control/control.c)
U64 = (1 << 64) - 1
# mrs Xt, cntvct_el0 (op0 3, op1 3, CRn 14, CRm 0, op2 2): Xt in bits 0-4.
MRS_CNTVCT, MRS_MASK = 0xD53BE040, 0xFFFFFFE0


def _reg(name):
    return int(gdb.parse_and_eval(f"(unsigned long)${name}")) & U64


def _counter_reads():
    """Every 'mrs Xn, cntvct_el0' of the image's text: {address: n}."""
    lo = int(gdb.parse_and_eval("(unsigned long)&_text"))
    hi = int(gdb.parse_and_eval("(unsigned long)&_etext"))
    text = bytes(gdb.selected_inferior().read_memory(lo, hi - lo))
    found = {}
    for off in range(0, len(text) - 3, 4):
        word = int.from_bytes(text[off:off + 4], "little")
        if word & MRS_MASK == MRS_CNTVCT:
            found[lo + off] = word & 0x1F
    return found


def _counter_reads_until(thread, body, most=64):
    """Runs on (every CPU, as the run did) until CPU 'thread' reaches
    'body' (the function's first instruction after its patch site): the
    CNTVCT values it read on the way (the trace core's, each recorder's),
    in order. Breakpoints after each read of the counter in the image
    and on 'body', for that CPU only."""
    reads = _counter_reads()
    bps = []
    for addr in list(reads) + [body - 4]:
        b = gdb.Breakpoint(f"*{addr + 4:#x}", internal=True)
        b.thread = thread
        bps.append(b)
    got = []
    for _ in range(most):
        gdb.execute("continue", to_string=True)
        pc = _reg("pc")
        th = gdb.selected_thread()
        if not th or th.num != thread or pc == body:
            break
        if pc - 4 in reads:
            got.append(_reg(f"x{reads[pc - 4]}"))
    for b in bps:
        b.delete()
    return got


def _end(status):
    """Ends QEMU (it may have gone already: the pipe closed) and gdb."""
    try:
        gdb.execute("kill", to_string=True)
    except gdb.error:
        pass
    gdb.execute(f"quit {status}")


class Goto(gdb.Command):
    """baretrace-goto THREAD ADDR NTH TS CHECK EXACT NARGS [X..]: see the file."""

    def __init__(self):
        super().__init__("baretrace-goto", gdb.COMMAND_USER)

    def invoke(self, arg, from_tty):
        a = arg.split()
        thread, addr, nth, ts, check, exact, nargs = (int(a[0]), int(a[1], 0), int(a[2]),
                                                      int(a[3]), int(a[4]), int(a[5]),
                                                      int(a[6]))
        want = [int(x) & U64 for x in a[7:7 + nargs]]
        bp = gdb.Breakpoint(f"*{addr:#x}", internal=True)
        bp.thread = thread
        # A hit counts while the site holds a BL and the tracer runs: a
        # BL put there by another ops (argument recording, 'args') while
        # the tracer is stopped records no entry.
        bp.condition = (f"((*(unsigned int *)$pc) & {BL_MASK:#x}) == {BL_BITS:#x} && "
                        f"{TRACER_RUNNING}")
        bp.ignore_count = nth - 1
        gdb.execute("continue", to_string=True)
        bad = []
        th = gdb.selected_thread()
        pc = _reg("pc") if th else None
        if not th or th.num != thread or pc != addr:
            bad.append(f"stopped at {pc if pc is None else hex(pc)} on thread "
                       f"{th.num if th else None}, not {addr:#x} on thread {thread}")
        elif bp.hit_count != nth:
            bad.append(f"entry {bp.hit_count} of the function on this CPU, not {nth}")
        regs = [_reg(f"x{i}") for i in range(8)] if not bad else []
        for i, w in enumerate(want):
            if regs and regs[i] != w:
                bad.append(f"x{i} = {regs[i]:#x}, the trace recorded {w:#x}")
        bp.delete()
        if not bad:
            where = gdb.execute("x/i $pc", to_string=True).strip()
            print(f"baretrace goto: stopped on CPU {thread - 1} (gdb thread {thread}) at {where}")
            shown = ", ".join(f"x{i}={regs[i]:#x}" for i in range(len(want)))
            print(f"baretrace goto: arguments as recorded: {shown or 'none recorded'}")
        if check and not bad:
            got = _counter_reads_until(thread, addr + 4, 64 if exact else 1)
            said = ", ".join(str(g) for g in got) or "none"
            if ts in got:
                print(f"baretrace goto: CNTVCT as the trace core read it between the patch "
                      f"site and the body: {said}; the event's timestamp {ts} is the "
                      f"recorder's read")
            elif exact:
                bad.append(f"CNTVCT read between the patch site and the body: {said}; "
                           f"the trace has {ts}")
            else:
                near = min(got, key=lambda g: abs(g - ts)) if got else None
                print(f"baretrace goto: CNTVCT read there: {said}; the trace has {ts}"
                      + (f" ({near - ts:+d} ticks)" if near is not None else "") +
                      ": with more than one CPU each stop of the debugger gives the "
                      "stopped CPU a fresh QEMU time slice, so the CPUs interleave "
                      "differently and the shared counter moves; the function, its entry "
                      "count and x0-x7 are checked against the trace (docs/replay.md)")
        for b in bad:
            print(f"baretrace goto: NOT the event: {b}")
        if check or bad:
            _end(1 if bad else 0)
        else:
            print("baretrace goto: at the event; the trace around it on every CPU: "
                  "baretrace-around [N]; stepi, continue (docs/replay.md)")


Goto()
