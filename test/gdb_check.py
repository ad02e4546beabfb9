"""test/gdb_check.py: the post-mortem gdb commands (tools/gdb/baretrace.py)
on a hung guest, through QEMU's gdb stub (stage 'gdb' of test/run.py).

The test image's 'gdbhang' scenario (test/target/scenario_hang.c) traces
a fixed pattern of calls on CPUs 0 and 1 and of tracepoints and a
trace_printf on CPU 2, prints the rings with the target's own decoder
(trace_dump: function entries, tracepoints with their fields and the
trace_printf message, as the host words them), and spins for ever with
interrupts masked, its last block still open. gdb-multiarch -batch attaches (which
halts every vCPU), runs baretrace-last and baretrace-dump, and QEMU is
killed. Then:
  - the .bt file, decoded by build/host/baretrace report (with and
    without the ELF), holds for CPUs 0 and 1 exactly the lines of the
    console dump, in order, which are the known pattern, and for CPU 2
    the known tracepoints and message; no event is lost;
  - baretrace-last 5 prints the report's last 5 lines of each CPU;
  - with 2 KiB rings (older blocks overwritten or sent and reused),
    under multi-threaded TCG: the events still in the rings match the
    console dump, and decoded + lost equals the 1487 events made, from
    the end-of-stream totals the dump writes.
Also: tools/gdb/bt_wire.py's numbers are still wire/wire.h's.
"""
import os
import re
import select
import signal
import socket
import subprocess
import sys
import time

# What scenario_hang.c does: function entries on CPUs 0 and 1, a
# tracepoint and a trace_printf on CPU 2.
# The lockup detector would end the run (lockup_action=end) once the
# guest spins masked longer than lockup_ms, before gdb attaches on a slow
# host: off, so the rings are as the scenario left them.
BOOT = "panic=poweroff lockup_ms=0"
FILTER = "trace_filter=tt_alpha,tt_beta,tt_gamma trace_event=gdbhang:step"
CPU0 = [("tt_alpha", "scenario_gdbhang")] * 5 + [("tt_beta", "scenario_gdbhang")]
# HANG_CPU0_CALLS (1200) tt_alpha calls, a tt_beta after every fifth:
# 1440 events, more than 2 KiB rings hold of two-byte records.
WANT = {0: CPU0 * 240, 1: [("tt_gamma", "cpu1_calls")] * 40}
CPU0_EVENTS = len(WANT[0])
FUNC_CPUS = set(WANT)
CALLS = sum(len(v) for v in WANT.values())
WANT_CPU2 = [f"gdbhang:step: i={i} name={['alpha', 'beta', 'gamma'][i % 3]}" for i in range(6)] \
    + ["gdbhang: 6 events on CPU 2, 0xbeef, -42"]
EVENTS = CALLS + len(WANT_CPU2)


def wire_h_values(path):
    """Every WIRE_* number of wire.h: #defines and enumerators (implicit
    ones counted on from the previous)."""
    text = re.sub(r"/\*.*?\*/", "", open(path).read(), flags=re.S)
    vals = {m.group(1): int(m.group(2), 0) for m in
            re.finditer(r"^#define\s+(WIRE_\w+)\s+(0x[0-9a-fA-F]+|\d+)\s*$", text, re.M)}
    for body in re.findall(r"enum\s+\w*\s*\{(.*?)\}", text, re.S):
        nxt = 0
        for item in body.split(","):
            m = re.match(r"\s*(WIRE_\w+)\s*(?:=\s*(\w+))?\s*$", item)
            if not m:
                continue
            nxt = int(m.group(2), 0) if m.group(2) else nxt
            vals[m.group(1)] = nxt
            nxt += 1
    return vals


def check_constants(h, res):
    sys.path.insert(0, os.path.join(h.ROOT, "tools", "gdb"))
    import bt_wire
    w = wire_h_values(os.path.join(h.ROOT, "wire", "wire.h"))
    pairs = {"VERSION": "WIRE_VERSION", "DELTA_ESCAPE": "WIRE_DELTA_ESCAPE",
             "CALLER_SLOTS": "WIRE_CALLER_CACHE",
             "EXIT_HAS_RETVAL": "WIRE_EXIT_HAS_RETVAL", "FIELD_STRING": "WIRE_FIELD_STRING",
             "FIELD_S8": "WIRE_FIELD_S8", "FIELD_PTR": "WIRE_FIELD_PTR"}
    for py in dir(bt_wire):
        if re.match(r"(FRAME|META|REC)_[A-Z_]+$", py):
            pairs[py] = "WIRE_" + py
    wrong = {py: (getattr(bt_wire, py), w.get(c)) for py, c in pairs.items()
             if getattr(bt_wire, py) != w.get(c)}
    res.record(f"gdb: tools/gdb/bt_wire.py's {len(pairs)} wire numbers equal wire/wire.h's",
               len(pairs) > 20 and not wrong, f"(python, wire.h): {wrong}")


def check_format(h, res):
    """bt_text.c_format against what C's printf prints for the same."""
    import bt_text
    cases = [("%d %i %u", [-42, 7, 9], "-42 7 9"),
             ("%#x %x %X %o", [255, -1, 0xAB, 8], "0xff ffffffffffffffff AB 10"),
             ("%lu %lld %llx %zu", [3, -4, 0x10, 5], "3 -4 10 5"),
             ("%p %s %5.2s|%-4d|%04d", [4096, "abc", "xyz", 7, 7], "0x1000 abc    xy|7   |0007"),
             ("100%% of %d, then %d", [1], "100% of 1, then %d")]
    wrong = [(f, bt_text.c_format(f, a), want) for f, a, want in cases
             if bt_text.c_format(f, a) != want]
    res.record("gdb: bt_text formats trace_printf conversions as C does", not wrong,
               f"(format, got, want): {wrong}")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def boot_until(h, image, bootargs, flags, marker, timeout):
    """Starts the guest with a gdb stub; returns (process, port, console
    bytes) once 'marker' was printed, or with the process ended."""
    port = free_port()
    cmd = ["tools/qemu-run", "--image", os.path.join(image, "Image"), "--bootargs", bootargs,
           "--qemu-flags", f"-gdb tcp:127.0.0.1:{port} {flags}".strip()]
    proc = subprocess.Popen(cmd, cwd=h.ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    out, end = b"", time.time() + timeout
    while marker and marker not in out and time.time() < end:
        ready, _, _ = select.select([proc.stdout], [], [], 1)
        if ready:
            chunk = proc.stdout.read1(65536)
            if not chunk:
                break
            out += chunk
    return proc, port, out


def stop(proc):
    """Ends the guest this test started (its own session)."""
    for sig, wait in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
            proc.wait(timeout=wait)
            return
        except (ProcessLookupError, subprocess.TimeoutExpired):
            continue


def per_cpu(lines):
    """Event lines ("[NNN] ts: ...") grouped by CPU, in order."""
    out = {}
    for l in lines:
        m = re.match(r"^\[(\d{3})\] ", l)
        if m:
            out.setdefault(int(m.group(1)), []).append(l)
    return out


def calls_of(lines):
    return [tuple(re.match(r"^\[\d+\] [\d.]+: (\S+) <-(\S+)$", l).groups())
            if re.match(r"^\[\d+\] [\d.]+: \S+ <-\S+$", l) else (l, None) for l in lines]


def hang_and_dump(h, res, tag, bootargs, flags, bt, elf, tgt):
    """Boots the hang, runs the gdb commands; returns (console, gdb output,
    console dump per CPU) or None after recording a failure."""
    proc, port, raw = boot_until(h, tgt, bootargs, flags, b"gdbhang: spinning", h.QEMU_TIMEOUT)
    console = h.strip_frames(raw.decode(errors="replace"))
    try:
        base = re.search(r"image at (0x[0-9a-f]+)", console)
        if "gdbhang: spinning" not in console or not base:
            res.record(f"gdb[{tag}]: the guest reaches the hang", False, console[-3000:])
            return None
        if os.path.exists(bt):
            os.remove(bt)
        st, gout = h.run(["gdb-multiarch", "-batch", "-nx",
                          "-ex", "set architecture aarch64",
                          "-ex", f"add-symbol-file {elf} -o {base.group(1)}",
                          "-ex", f"target remote 127.0.0.1:{port}",
                          "-ex", "source tools/gdb/baretrace.py",
                          "-ex", "baretrace-last 5",
                          "-ex", f"baretrace-dump {bt}"], timeout=120)
    finally:
        stop(proc)
    res.record(f"gdb[{tag}]: gdb-multiarch attaches, runs baretrace-last and baretrace-dump",
               st == 0 and os.path.exists(bt) and "Traceback" not in gout, f"status {st}\n{gout}")
    m = re.search(r"^# trace dump: oldest first, per CPU\n(.*?)^# trace dump: (\d+) records$",
                  console, re.M | re.S)
    if not m:
        res.record(f"gdb[{tag}]: the console shows the target's dump", False, console[-3000:])
        return None
    dump = per_cpu(m.group(1).splitlines())
    return console, gout, funcs_only(dump), int(m.group(2)), dump.get(2, [])


def reservation(h, res, tgt, elf, base, bt):
    """Halted at the first ring_commit (CPU 2's first tracepoint, its
    reservation open): the dump names it, and keeps the record."""
    proc, port, _ = boot_until(h, tgt, f"{BOOT} trace=function {FILTER} -- gdbhang",
                               "-S", b"", 0)
    try:
        if os.path.exists(bt):
            os.remove(bt)
        for _ in range(5):     # until QEMU listens
            st, gout = h.run(["gdb-multiarch", "-batch", "-nx",
                              "-ex", "set architecture aarch64",
                              "-ex", f"add-symbol-file {elf} -o {base}",
                              "-ex", f"target remote 127.0.0.1:{port}",
                              "-ex", "source tools/gdb/baretrace.py",
                              "-ex", "break ring_commit", "-ex", "continue",
                              "-ex", f"baretrace-dump {bt}"], timeout=120)
            if "Connection refused" not in gout:
                break
            time.sleep(1)
    finally:
        stop(proc)
    rst, rep = h.run([os.path.join(h.HOST, "baretrace"), "report", bt, "--elf", elf])
    res.record("gdb[reservation]: halted inside ring_commit, baretrace-dump says so and the "
               "record reaches the report",
               st == 0 and re.search(r"^cpu 2: 1 events in blocks 0\.\.0 \(0 sent before, "
                                     r"0 not sent, 1 open\); 1 produced; halted inside 1 "
                                     r"reservation", gout, re.M) is not None
               and rst == 0 and texts(per_cpu(rep.splitlines()).get(2, [])) == WANT_CPU2[:1]
               and "# 1 event" in rep.splitlines(), f"gdb status {st}\n{gout}\n{rep}")


def make_debug(h, res, tgt, elf):
    """tools/qemu-run --debug (make debug) gives gdb the commands."""
    env = dict(os.environ, GDB_PORT=str(free_port()))
    try:
        p = subprocess.run(["tools/qemu-run", "--image", os.path.join(tgt, "Image"),
                            "--debug", elf], cwd=h.ROOT, input=b"baretrace-last 1\n",
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                           timeout=120, start_new_session=True)
        out = p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b"").decode(errors="replace") + "\n(timed out)"
    # At the first instruction no ring is set up yet.
    res.record("gdb: make debug's gdb knows baretrace-last (rings not set up yet: 0 events)",
               "# cpu 0: last 0 of 0 events in its ring" in out, out)


def funcs_only(cpus):
    """The function entries of the console dump (CPUs 0 and 1; CPU 2's
    tracepoints and trace_printf are compared on their own)."""
    return {c: v for c, v in cpus.items() if c in FUNC_CPUS}


def texts(lines):
    return [re.sub(r"^\[\d{3}\] [\d.]+: ", "", l) for l in lines]


def stage_gdb(h, res, board):
    if board != "qemu-virt":
        return
    check_constants(h, res)
    check_format(h, res)
    st, out = h.run(["make", "-s", f"BOARD={board}", "APP=test/target"])
    st2, out2 = h.run(["make", "-s", f"BOARD={board}", "host-tools"])
    if st or st2:
        res.record("gdb: build APP=test/target and the host tools", False, out + out2)
        return
    tool = os.path.join(h.HOST, "baretrace")
    tgt = h.make_dir(board, "test/target")
    elf = os.path.join(tgt, "baretrace.elf")

    # Default rings: every event still in them, CPU 0's last block open.
    bt = os.path.join(h.HOST, "gdb-hang.bt")
    got = hang_and_dump(h, res, "hang", f"{BOOT} trace=function {FILTER} -- gdbhang",
                        "", bt, elf, tgt)
    if got:
        console, gout, dump, nrec, cpu2 = got
        res.record(f"gdb[hang]: the target's own dump holds the {CALLS} known calls in order "
                   "and CPU 2's tracepoints and trace_printf",
                   nrec == EVENTS and {c: calls_of(v) for c, v in dump.items()} == WANT
                   and texts(cpu2) == WANT_CPU2,
                   f"{nrec} records; per CPU: {[(c, len(v)) for c, v in dump.items()]}\n"
                   f"CPU 2: {cpu2}")
        res.record("gdb[hang]: baretrace-dump reports CPU 0's block still open",
                   re.search(rf"^cpu 0: {CPU0_EVENTS} events in blocks 0\.\.\d+ \(.*, 1 open\); "
                             rf"{CPU0_EVENTS} produced$",
                             gout, re.M) is not None, gout)
        report = None
        for with_elf in (True, False):
            rst, rep = h.run([tool, "report", bt] + (["--elf", elf] if with_elf else []))
            lines = rep.splitlines()
            got_cpus = per_cpu(lines)
            report = report or got_cpus
            res.record("gdb[hang]: the .bt decodes (report" + (" --elf" if with_elf else
                       ", names from its symbol frames") + ") to the console dump's lines "
                       "and CPU 2's tracepoints and trace_printf, nothing lost",
                       rst == 0 and funcs_only(got_cpus) == dump
                       and texts(got_cpus.get(2, [])) == WANT_CPU2
                       and f"# {EVENTS} events" in lines and not any("lost" in l for l in lines),
                       f"report status {rst}, per CPU: {[(c, len(v)) for c, v in got_cpus.items()]}"
                       f" want {[(c, len(v)) for c, v in dump.items()]}\n"
                       f"CPU 2: {got_cpus.get(2)}\n" + rep[-1500:])
        last = {}
        for m in re.finditer(r"^# cpu (\d+): last (\d+) of (\d+) events in its ring\n((?:\[.*\n)*)",
                             gout, re.M):
            last[int(m.group(1))] = (int(m.group(2)), int(m.group(3)), m.group(4).splitlines())
        want_last = {c: (min(5, len(v)), len(v), v[-5:]) for c, v in report.items()}
        want_last[3] = (0, 0, [])
        res.record("gdb[hang]: baretrace-last 5 prints each CPU's last 5 lines of the report",
                   last == want_last and [last[c][1] for c in range(3)] == [CPU0_EVENTS, 40, 7],
                   f"got {last}\nwant {want_last}\n{gout}")

    if got:
        reservation(h, res, tgt, elf, re.search(r"image at (0x[0-9a-f]+)", console).group(1),
                    os.path.join(h.HOST, "gdb-resv.bt"))
    make_debug(h, res, tgt, elf)

    # The graph tracer: entries and exits, decoded by baretrace-last as
    # the console's dump prints them.
    bt = os.path.join(h.HOST, "gdb-hang-graph.bt")
    got = hang_and_dump(h, res, "graph", f"{BOOT} trace=function_graph "
                        f"{FILTER} -- gdbhang", "", bt, elf, tgt)
    if got:
        console, gout, dump, nrec, cpu2 = got
        last = {int(m.group(1)): m.group(2).splitlines() for m in re.finditer(
            r"^# cpu (\d+): last \d+ of \d+ events in its ring\n((?:\[.*\n)*)", gout, re.M)}
        rst, rep = h.run([tool, "report", bt, "--elf", elf])
        graph_events = 2 * CALLS + len(WANT_CPU2)
        res.record("gdb[graph]: baretrace-last prints the dump's last graph records, and the "
                   f".bt holds all {graph_events} events",
                   nrec == 2 * CALLS + len(WANT_CPU2) and all(last.get(c) == dump[c][-5:] for c in FUNC_CPUS)
                   and re.match(r"\[000\] [\d.]+: \} tt_beta \d+\.\d{3} us$", last[0][-1])
                   and rst == 0 and f"# {graph_events} events" in rep.splitlines()
                   and "lost" not in rep,
                   f"{nrec} dump records\ngot {last}\nwant {[dump.get(c, [])[-5:] for c in FUNC_CPUS]}"
                   f"\n{gout}\n" + rep[-800:])

    # 2 KiB rings: CPU 0's first block is gone (overwritten, or sent and
    # reused); the totals account for it. Parallel vCPUs this time.
    bt = os.path.join(h.HOST, "gdb-hang-small.bt")
    got = hang_and_dump(h, res, "2K rings, mttcg",
                        f"{BOOT} trace=function trace_buf=2K {FILTER} -- gdbhang",
                        "-accel tcg,thread=multi", bt, elf, tgt)
    if got:
        console, gout, dump, nrec, cpu2 = got
        rst, rep = h.run([tool, "report", bt, "--elf", elf])
        lines = rep.splitlines()
        dec = re.search(r"^# (\d+) events$", rep, re.M)
        lost = re.search(r"^# (\d+) of (\d+) events lost", rep, re.M)
        res.record("gdb[2K rings, mttcg]: the rings' events equal the console dump, and "
                   f"decoded + lost = the {EVENTS} events made",
                   rst == 0 and funcs_only(per_cpu(lines)) == dump and dec and lost
                   and int(lost.group(2)) == EVENTS
                   and int(dec.group(1)) + int(lost.group(1)) == EVENTS
                   and 0 < len(dump.get(0, [])) < CPU0_EVENTS,
                   f"report status {rst}, CPU 0 kept {len(dump.get(0, []))}\n{gout}\n" + rep[-1000:])
