"""test/replay.py: exact runs to come back to (issue 44; stage 'replay'
of test/run.py; docs/replay.md).

  - make record twice on the same build (the demo, 4 CPUs): the two
    traces are byte-identical, and the run folder holds what goto needs
    (image, ELF and their hashes, the QEMU command line, boot arguments);
  - baretrace goto to events across CPUs and functions in the middle of
    the trace: each stop is at the event's function, on its CPU, with
    the arguments the trace recorded (trace_args=) in x0-x7, and the
    counter the recorder read there equal to the event's timestamp;
  - refusals: a trace with no run folder of make record, a run folder
    whose ELF was changed, a trace captured without -icount;
  - export --numbers: the Chrome slices carry report's numbers;
  - a crash (test/target's 'crash null'): report --numbers names the
    event to start from, and from it gdb reaches the faulting load with
    the crash report's ELR_EL1 and ESR_EL1;
  - one CPU (QEMU's rr log replayed): the counter the recorder reads at
    each stop equals the event's time as report prints it, and at gdb's
    prompt there reverse-stepi goes back into the caller (QEMU's rr
    snapshot in the run folder's rr.qcow2);
  - a hang (test/target's 'lockup 2'): report --numbers names each
    CPU's last entry before it, and goto reaches the stopped CPU's;
  - one CPU with console input (EXEC=: the shell starts the tracer, then
    runs 'help'): recorded, replayed, goto to the entry the typed line
    made, x0 pointing at it, and reverse-stepi into the caller.
"""
import os
import re
import shutil
import subprocess

# Arguments recorded for functions the demo calls on every CPU.
ARGS = "trace_args=fsm_step:2,stage_classify:2,csum_crc16:3,filter_apply:2,sensor_tick:2,block_rand:1"
GOTO_EVENTS = 24        # >= 20 (issue 44), across CPUs and functions
# A graph line with its number: " 2)   0.064 us    |    sensor_tick(cpu=2, tick=17);  #1234"
NUMBERED = re.compile(r"^\s*(\d+)\)[^|]*\|\s*([A-Za-z_]\w*)\((.*?)\)(?:;.*?| \{)\s+#(\d+)$")


def record(h, board, rdir, extra=""):
    return h.run(["make", "-s", f"BOARD={board}", f"RECORD_DIR={rdir}",
                  f"BOOTARGS={ARGS}{extra}", "record"], timeout=600)


def check_record(h, res, board):
    """Two records of one build: the same bytes; the folder complete."""
    dirs = [os.path.join(h.ROOT, "build", "replay", f"rec{i}") for i in (1, 2)]
    outs = [record(h, board, d) for d in dirs]
    if any(st != 0 for st, _ in outs):
        res.record("replay: make record runs the demo", False, outs[0][1] + outs[1][1])
        return None
    t = [open(os.path.join(d, "trace.bt"), "rb").read() for d in dirs]
    res.record("replay: two make record runs of one build give byte-identical traces",
               len(t[0]) > 10000 and t[0] == t[1], f"{len(t[0])} and {len(t[1])} bytes")
    conf = dict(line.split("=", 1) for line in open(os.path.join(dirs[0], "record.txt"))
                if "=" in line and not line.startswith("#"))
    args = open(os.path.join(dirs[0], "qemu.args")).read().split("\n")
    want = ["Image", "baretrace.elf", "trace.bt", "qemu.args", "record.txt"]
    res.record("replay: the run folder keeps image, ELF, hashes, QEMU line and boot arguments",
               all(os.path.exists(os.path.join(dirs[0], f)) for f in want)
               and re.fullmatch(r"[0-9a-f]{64}", conf.get("elf_sha256", "").strip()) is not None
               and conf.get("icount", "").startswith("shift=0,sleep=off")
               and ARGS in conf.get("bootargs", "") and ARGS in "".join(args)
               and "-icount" in args and "-kernel" in args and conf.get("smp", "").strip() == "4",
               f"{conf}\n{args}")
    return dirs[0]


def numbered(h, rdir):
    """report --numbers of the run: [(number, cpu, function, [values])]
    for the entries with recorded arguments, values as integers."""
    st, out = h.run([os.path.join(h.HOST, "baretrace"), "report", "--numbers", "--no-types",
                     os.path.join(rdir, "trace.bt"), "--elf", os.path.join(rdir, "baretrace.elf")])
    got = []
    for line in out.splitlines():
        m = NUMBERED.match(line)
        if not m or not m.group(3):
            continue
        vals = [v.split("=", 1)[-1].strip() for v in m.group(3).split(",")]
        try:
            vals = [int(v, 0) for v in vals]
        except ValueError:
            continue
        got.append((int(m.group(4)), int(m.group(1)), m.group(2), vals))
    return st, got, out


def pick(events, total, n):
    """n events of the middle third, spread over (CPU, function) pairs."""
    mid = [e for e in events if total // 3 <= e[0] <= 2 * total // 3]
    groups = {}
    for e in mid:
        groups.setdefault((e[1], e[2]), []).append(e)
    chosen, k = [], 0
    while len(chosen) < n and any(len(g) > k for g in groups.values()):
        for key in sorted(groups):
            g = groups[key]
            if len(g) > k and len(chosen) < n:
                chosen.append(g[(k * 7919) % len(g)] if k else g[len(g) // 2])
        k += 1
    return chosen


GOT_STOP = re.compile(r"stopped on CPU (\d+) \(gdb thread \d+\) at => 0x[0-9a-f]+ <(\w+)\+4>")
GOT_REGS = re.compile(r"x(\d)=(0x[0-9a-f]+)")


def check_goto(h, res, rdir):
    """goto to events across CPUs and functions: each stop at the
    event's function and CPU, x0-x7 the values report shows."""
    st, events, out = numbered(h, rdir)
    total = max((e[0] for e in events), default=0)
    chosen = pick(events, total, GOTO_EVENTS)
    cpus = {e[1] for e in chosen}
    funcs = {e[2] for e in chosen}
    res.record(f"replay: report --numbers gives {GOTO_EVENTS} middle events with arguments over "
               "several CPUs and functions", st == 0 and len(chosen) == GOTO_EVENTS and
               len(cpus) >= 3 and len(funcs) >= 4, f"{len(chosen)} {cpus} {funcs}\n{out[-2000:]}")
    tool = os.path.join(h.HOST, "baretrace")
    bad = []
    for no, cpu, func, vals in chosen:
        st, out = h.run([tool, "goto", rdir, str(no), "--check"], timeout=300)
        m = GOT_STOP.search(out)
        regs = {int(r): int(v, 16) for r, v in GOT_REGS.findall(out)}
        ok = (st == 0 and m is not None and int(m.group(1)) == cpu and m.group(2) == func and
              len(regs) == len(vals) and
              all(regs[i] == v & (2**64 - 1) for i, v in enumerate(vals)))
        if not ok:
            bad.append(f"#{no} {func} on CPU {cpu} {vals}: status {st}\n{out[-1500:]}")
    res.record(f"replay: goto to {len(chosen)} events on CPUs {sorted(cpus)} "
               f"({len(funcs)} functions) stops at each one's function and CPU with the "
               "recorded arguments in x0-x7", chosen and not bad, "\n".join(bad))
    return chosen


GOT_TS = re.compile(r"the event's timestamp (\d+) is the recorder's read")


def check_one_cpu(h, res, board):
    """One CPU (QEMU's rr log replayed): the counter the recorder reads
    at the stop is the event's timestamp, as report prints it."""
    rdir = os.path.join(h.ROOT, "build", "replay", "one")
    st, out = h.run(["make", "-s", f"BOARD={board}", f"RECORD_DIR={rdir}", "QEMU_SMP=1",
                     f"BOOTARGS={ARGS}", "record"], timeout=600)
    if st or not os.path.exists(os.path.join(rdir, "replay.bin")):
        res.record("replay: make QEMU_SMP=1 record keeps QEMU's rr log", False, out)
        return
    st, events, out = numbered(h, rdir)
    chosen = pick(events, max((e[0] for e in events), default=0), 4)
    st, text = h.run([os.path.join(h.HOST, "baretrace"), "report", "--numbers", "--abstime",
                      "--ns", os.path.join(rdir, "trace.bt"), "--elf",
                      os.path.join(rdir, "baretrace.elf")])
    times = {int(m.group(2)): round(float(m.group(1)) * 1e9) for m in
             re.finditer(r"^\s*(\d+\.\d+) \|.*#(\d+)$", text, re.M)}
    bad = []
    for no, cpu, func, vals in chosen:
        st, out = h.run([os.path.join(h.HOST, "baretrace"), "goto", rdir, str(no), "--check"],
                        timeout=300)
        m = GOT_TS.search(out)
        # virt's counter runs at 62.5 MHz: 16 ns a tick.
        if st != 0 or not m or int(m.group(1)) * 16 != times.get(no):
            bad.append(f"#{no} {func}: report {times.get(no)} ns; status {st}\n{out[-1200:]}")
    res.record(f"replay: one CPU (rr replay): goto to {len(chosen)} events, the counter the "
               "recorder reads at each stop is the event's time in the report",
               len(chosen) == 4 and not bad, "\n".join(bad))
    if not chosen:
        return
    check_goto_time(h, res, rdir, chosen[1][0], times)
    # gdb's prompt at the event (goto without --check, commands on its
    # stdin): two reverse-stepi go back through the function's first
    # instruction to the caller's BL, the one before the return address.
    no, cpu, func, _ = chosen[0]
    cmds = "p/x $x30\nreverse-stepi\nreverse-stepi\np/x $pc\ninfo symbol $pc\nkill\nquit\n"
    proc = subprocess.run([os.path.join(h.HOST, "baretrace"), "goto", rdir, str(no)],
                          input=cmds.encode(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=300, cwd=h.ROOT)
    out = proc.stdout.decode(errors="replace")
    vals = [int(v, 16) for v in re.findall(r"^\(gdb\) \$\d+ = (0x[0-9a-f]+)$", out, re.M)]
    sym = re.search(r"^\(gdb\) (\w+) \+ \d+ in section", out, re.M)
    res.record(f"replay: one CPU: at event #{no} ({func}) reverse-stepi twice lands on the "
               "caller's BL (return address - 4), in the caller",
               len(vals) == 2 and vals[1] == vals[0] - 4 and sym is not None
               and sym.group(1) != func, out[-2500:])


# The shell's input starts the tracer and then runs a command: the
# events exist only because of the input, and shell_exec's argument is
# the line typed.
INPUT = "tracer function; filter shell_exec; args shell_exec:1:s0; start; help; exit 0"
INPUT_LINE = re.compile(r'^\[000\] [\d.]+: shell_exec\(line="help"\) <-(\w+)  #(\d+)$', re.M)


def check_input(h, res, board):
    """One CPU with console input (EXEC=): record, replay, goto the
    entry the typed 'help' made, and reverse-stepi into its caller."""
    rdir = os.path.join(h.ROOT, "build", "replay", "input")
    st, out = h.run(["make", "-s", f"BOARD={board}", f"RECORD_DIR={rdir}", "QEMU_SMP=1",
                     "TRACE=", "BOOTARGS=shell", f"EXEC={INPUT}", "record"], timeout=600)
    tool = os.path.join(h.HOST, "baretrace")
    trace = [os.path.join(rdir, "trace.bt"), "--elf", os.path.join(rdir, "baretrace.elf")]
    st2, text = h.run([tool, "report", "--numbers"] + trace)
    st3, raw = h.run([tool, "report", "--numbers", "--no-types"] + trace)
    m = INPUT_LINE.search(text)
    ptr = re.search(rf"shell_exec\((0x[0-9a-f]+)\) <-\w+  #{m.group(2)}$", raw, re.M) if m else None
    conf = open(os.path.join(rdir, "record.txt")).read() \
        if os.path.exists(os.path.join(rdir, "record.txt")) else ""
    ok = (st == 0 and st2 == 0 and m is not None and ptr is not None
          and f"input={INPUT}\n" in conf and os.path.exists(os.path.join(rdir, "replay.bin")))
    res.record("replay: make QEMU_SMP=1 EXEC=... record: the shell took the input, the trace "
               "has the entry the typed 'help' made, and the rr log is kept", ok,
               out[-2000:] + text[-1500:] + conf)
    if not ok:
        return
    no, caller = m.group(2), m.group(1)
    st, out = h.run([tool, "goto", rdir, no, "--check"], timeout=300)
    res.record(f"replay: input run: goto #{no} (shell_exec) --check stops there with x0 as "
               "recorded and the counter equal to the event's timestamp",
               st == 0 and "<shell_exec+4>" in out and f"x0={ptr.group(1)}" in out
               and GOT_TS.search(out) is not None, out[-2000:])
    # At the prompt: x0 points at the line typed; reverse-stepi twice goes
    # back through shell_exec's first instruction to the caller's BL.
    cmds = "p/x $x0\nx/s $x0\np/x $x30\nreverse-stepi\nreverse-stepi\np/x $pc\n" \
           "info symbol $pc\nkill\nquit\n"
    proc = subprocess.run([tool, "goto", rdir, no], input=cmds.encode(), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=300, cwd=h.ROOT)
    out = proc.stdout.decode(errors="replace")
    vals = [int(v, 16) for v in re.findall(r"^\(gdb\) \$\d+ = (0x[0-9a-f]+)$", out, re.M)]
    sym = re.search(r"^\(gdb\) (\w+) \+ \d+ in section", out, re.M)
    res.record(f"replay: input run: at #{no} x0 holds the recorded pointer to the typed "
               f"\"help\", and reverse-stepi twice lands on {caller}'s BL (return address - 4)",
               len(vals) == 3 and vals[0] == int(ptr.group(1), 16)
               and re.search(r'^\(gdb\) 0x[0-9a-f]+:\s+"help"$', out, re.M) is not None
               and vals[2] == vals[1] - 4 and sym is not None and sym.group(1) == caller,
               out[-2500:])
    check_around(h, res, rdir, int(no), 0, "shell_exec", 1, "input run")


GOT_EVENT = re.compile(r"^baretrace goto: event #(\d+): ", re.M)
SECONDS_LINE = re.compile(r"^\s*(\d+)\.(\d{6}) \|.*#(\d+)$", re.M)


def check_goto_time(h, res, rdir, no, times):
    """goto @T: the last entry at or before T, T in counter ticks (one
    CPU: the counter at the stop is T exactly) or in seconds as report
    prints them; a malformed T is a bad command line."""
    tool = os.path.join(h.HOST, "baretrace")
    ticks = times[no] // 16                  # virt: 62.5 MHz, 16 ns a tick
    earlier = max((n for n, t in times.items() if t < times[no]), default=None)
    bad = []
    for ev, want in ((f"@{ticks}", no), (f"@{ticks}@0", no), (f"@{ticks - 1}", earlier)):
        st, out = h.run([tool, "goto", rdir, ev, "--check"], timeout=300)
        m, ts = GOT_EVENT.search(out), GOT_TS.search(out)
        if st != 0 or not m or int(m.group(1)) != want or not ts or \
                (want == no and int(ts.group(1)) != ticks):
            bad.append(f"{ev}: want #{want}, status {st}\n{out[-1200:]}")
    # Seconds as report prints them (6 decimals, cut): the last entry
    # printed at or before the event's own line.
    st, text = h.run([tool, "report", "--numbers", "--abstime", os.path.join(rdir, "trace.bt"),
                      "--elf", os.path.join(rdir, "baretrace.elf")])
    shown = {int(n): int(a) * 10**6 + int(b) for a, b, n in SECONDS_LINE.findall(text)}
    if no in shown:
        want = max(n for n, t in shown.items() if t <= shown[no])
        sec = f"@{shown[no] // 10**6}.{shown[no] % 10**6:06d}"
        st, out = h.run([tool, "goto", rdir, sec, "--check"], timeout=300)
        m = GOT_EVENT.search(out)
        if st != 0 or not m or int(m.group(1)) != want:
            bad.append(f"{sec}: want #{want}, status {st}\n{out[-1200:]}")
    res.record(f"replay: one CPU: goto @T (T = event #{no}'s counter value, T - 1, and its "
               "time as report prints it) stops at the last entry at or before T, the counter "
               "there equal to T", no in shown and earlier is not None and not bad,
               "\n".join(bad) + text[-800:])
    outs = [h.run([tool, "goto", rdir, ev, "--check"]) for ev in ("@1.2.3", "@", "@x@0", "@5@")]
    res.record("replay: goto refuses a malformed timestamp: a line saying so, status 2, "
               "nothing run", all(st == 2 and re.match(r"baretrace: bad event '@[^']*' for goto",
                                                       out) and "event #" not in out
                                  for st, out in outs), "\n".join(o for _, o in outs))


AROUND_LAST = re.compile(r"^# cpu (\d+): last (\d+) events in its ring$")
AROUND_NOW = re.compile(r"^# cpu (\d+): ---- now: (\d+) events produced; the next (\d+) of "
                        r"the recorded run ----$")
RECORD_TS = re.compile(r"^\[(\d{3})\] (\d+\.\d{6}): (.*)$")


def check_around(h, res, rdir, no, cpu, func, ncpus, what):
    """At goto's prompt, baretrace-around 3: on every CPU the events
    before the point (its ring) and the 3 after it (the recorded trace);
    on the event's CPU the ones after begin with the event itself, at
    the time report gives it."""
    tool = os.path.join(h.HOST, "baretrace")
    st, text = h.run([tool, "report", "--numbers", "--abstime", os.path.join(rdir, "trace.bt"),
                      "--elf", os.path.join(rdir, "baretrace.elf")])
    when = re.search(rf"^(?:\[\d{{3}}\] )?\s*(\d+\.\d{{6}})\b.*#{no}$", text, re.M)
    proc = subprocess.run([tool, "goto", rdir, str(no)], input=b"baretrace-around 3\nkill\nquit\n",
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300,
                          cwd=h.ROOT)
    out = proc.stdout.decode(errors="replace").replace("(gdb) ", "")
    before, after, where = {}, {}, None
    for line in out.splitlines():
        m, n = AROUND_LAST.match(line), AROUND_NOW.match(line)
        if m:
            where = before.setdefault(int(m.group(1)), [])
        elif n:
            where = after.setdefault(int(n.group(1)), [])
        elif where is not None and RECORD_TS.match(line):
            where.append(RECORD_TS.match(line).groups())
        else:
            where = None
    mine = [(c, t, body) for c, t, body in after.get(cpu, [])
            if re.match(rf"\s*{func}\b(?!:)", body)]
    res.record(f"replay: {what}: at goto #{no} baretrace-around 3 shows each of the {ncpus} CPUs' "
               f"events before and the 3 after the point, the first entry after it on CPU {cpu} "
               f"being the event ({func} at report's {when.group(1) if when else '?'})",
               when is not None and sorted(after) == list(range(ncpus)) == sorted(before)
               and all(len(a) == 3 for a in after.values())
               and (ncpus == 1 or all(before.values()))
               and mine and mine[0][1] == when.group(1) and int(mine[0][0]) == cpu,
               out[-3000:])


def check_chrome(h, res, rdir):
    """export --numbers: each call slice carries its report number, and
    the slice of number N is report's entry #N (function, CPU)."""
    import json
    st, events, _ = numbered(h, rdir)
    out = os.path.join(h.ROOT, "build", "replay", "numbers.json")
    st, text = h.run([os.path.join(h.HOST, "baretrace"), "export", "--format=chrome-json",
                      "--numbers", "-o", out, os.path.join(rdir, "trace.bt"), "--elf",
                      os.path.join(rdir, "baretrace.elf")])
    try:
        slices = [e for e in json.load(open(out))["traceEvents"] if e.get("ph") == "X"]
    except (OSError, ValueError) as e:
        res.record("replay: export --numbers writes JSON", False, f"{e}\n{text}")
        return
    by_no = {e.get("args", {}).get("event"): e for e in slices}
    wrong = [f"#{no}: {func} on CPU {cpu}, slice {by_no.get(no)}" for no, cpu, func, _ in events
             if no not in by_no or by_no[no]["name"] != func or by_no[no]["tid"] != cpu + 1]
    res.record(f"replay: export --numbers gives each of the {len(slices)} call slices its "
               "report number, and report's entries with arguments are those slices",
               st == 0 and slices and len(by_no) == len(slices) and None not in by_no
               and sorted(by_no) == list(range(1, len(slices) + 1)) and events and not wrong,
               "\n".join(wrong[:10]) + text)


def check_crash(h, res, board):
    """A crash: report --numbers names the event to start from (the last
    entry on the crashing CPU); goto there, then on to the next data
    abort: ELR_EL1 and ESR_EL1 are the crash report's, the faulting load."""
    rdir = os.path.join(h.ROOT, "build", "replay", "crash")
    st, out = h.run(["make", "-s", f"BOARD={board}", "APP=test/target", "TRACE=function",
                     "TRACE_FILTER=crash_*", f"RECORD_DIR={rdir}",
                     "BOOTARGS=trace_args=crash_null_deref:1 -- crash null", "record"], timeout=600)
    console = open(os.path.join(rdir, "console.log"), errors="replace").read() \
        if os.path.exists(os.path.join(rdir, "console.log")) else ""
    crash = re.search(r"ESR ([0-9a-f]{16}) .*\n\s*ELR ([0-9a-f]{16})", console)
    st, text = h.run([os.path.join(h.HOST, "baretrace"), "report", "--numbers",
                      os.path.join(rdir, "trace.bt"), "--elf", os.path.join(rdir, "baretrace.elf")])
    named = re.search(r"^# goto: the last entry on CPU 0 before the crash is #(\d+)$", text, re.M)
    if not crash or not named:
        res.record("replay: a recorded crash: its report names the event to goto", False,
                   out[-1500:] + console[-1500:] + text[-1500:])
        return
    # 0x25: a data abort taken without a change of EL (ARM ARM, ESR_ELx.EC).
    cmds = ("tbreak *((char *)&exception_vectors + 0x200) if (($ESR_EL1 >> 26) & 0x3f) == 0x25\n"
            "continue\np/x $ELR_EL1\np/x $ESR_EL1\nx/i $ELR_EL1\nkill\nquit\n")
    proc = subprocess.run([os.path.join(h.HOST, "baretrace"), "goto", rdir, named.group(1)],
                          input=cmds.encode(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          timeout=300, cwd=h.ROOT)
    got = proc.stdout.decode(errors="replace")
    vals = [int(v, 16) for v in re.findall(r"^\(gdb\) \$\d+ = (0x[0-9a-f]+)$", got, re.M)]
    res.record(f"replay: from the crash's named event #{named.group(1)} (crash_null_deref) goto "
               "reaches the faulting load: ELR_EL1 and ESR_EL1 as the crash report printed them",
               "stopped on CPU 0" in got and "<crash_null_deref+4>" in got
               and vals == [int(crash.group(2), 16), int(crash.group(1), 16)]
               and re.search(rf"0x{crash.group(2).lstrip('0')} <crash_null_deref\+\d+>:\s+ldr",
                             got) is not None, got[-2500:] + crash.group(0))


ENTRY_LINE = re.compile(r"^\[(\d{3})\] [\d.]+: \w+.* <-\w+  #(\d+)$")
HANG_NAMED = re.compile(r"^# goto: the last entry on CPU (\d+) before the hang is #(\d+)$", re.M)


def check_hang(h, res, board):
    """A hang (test/target's 'lockup 2 MS': CPU 2 spins with interrupts
    masked, another CPU's lockup detector ends the run): report --numbers
    names each CPU's last entry before the hang, the stopped CPU's among
    them, and goto reaches it on that CPU."""
    rdir = os.path.join(h.ROOT, "build", "replay", "hang")
    st, out = h.run(["make", "-s", f"BOARD={board}", "APP=test/target", "TRACE=function",
                     "TRACE_FILTER=hang_masked_spin,scenario_lockup", f"RECORD_DIR={rdir}",
                     "BOOTARGS=lockup_ms=500 trace_args=hang_masked_spin:1 -- lockup 2 2000",
                     "record"], timeout=600)
    tool = os.path.join(h.HOST, "baretrace")
    st, text = h.run([tool, "report", "--numbers", os.path.join(rdir, "trace.bt"), "--elf",
                      os.path.join(rdir, "baretrace.elf")])
    before, last = text.split("==== run ended: hang ====")[0], {}
    for line in before.splitlines():
        m = ENTRY_LINE.match(line)
        if m:
            last[int(m.group(1))] = int(m.group(2))
    named = {int(c): int(n) for c, n in HANG_NAMED.findall(text)}
    res.record("replay: a recorded hang (lockup on CPU 2): report --numbers names the last "
               "entry of each CPU before the hang, CPU 2's included",
               st == 0 and 2 in last and named == last, f"{named} {last}\n{out[-1500:]}"
               + text[-1500:])
    if 2 not in named:
        return
    st, got = h.run([tool, "goto", rdir, str(named[2]), "--check"], timeout=300)
    res.record(f"replay: goto to the hang's named event #{named[2]} stops on CPU 2 in "
               "hang_masked_spin, the function that masked interrupts",
               st == 0 and GOT_STOP.search(got) is not None
               and GOT_STOP.search(got).group(1, 2) == ("2", "hang_masked_spin"), got[-2000:])


def check_refusals(h, res, board, rdir):
    """Runs goto cannot repeat are refused, status 1, with the reason."""
    tool = os.path.join(h.HOST, "baretrace")
    base = os.path.join(h.ROOT, "build", "replay")
    bare = os.path.join(base, "bare")
    os.makedirs(bare, exist_ok=True)
    shutil.copy(os.path.join(rdir, "trace.bt"), bare)
    st, out = h.run([tool, "goto", os.path.join(bare, "trace.bt"), "1", "--check"])
    res.record("replay: goto refuses a trace with no run folder of make record",
               st == 1 and "not made by make record" in out, out)
    elf = os.path.join(base, "elf")
    shutil.copytree(rdir, elf)
    with open(os.path.join(elf, "baretrace.elf"), "ab") as f:
        f.write(b"\0")
    st, out = h.run([tool, "goto", elf, "1", "--check"])
    res.record("replay: goto refuses a run folder whose ELF is not the one recorded",
               st == 1 and "baretrace.elf is not the ELF recorded" in out, out)
    # The same folder, its trace captured without -icount (host time):
    # the capture's clock note says so, whatever record.txt claims.
    host = os.path.join(base, "host")
    shutil.copytree(rdir, host)
    args = [a for a in open(os.path.join(rdir, "qemu.args")).read().split("\n") if a]
    i = args.index("-icount")
    del args[i:i + 2]
    os.remove(os.path.join(host, "trace.bt"))
    st, out = h.run([tool, "capture", "-o", "trace.bt", "--qemu", "--"] + args, cwd=host,
                    timeout=300)
    st2, out2 = h.run([tool, "goto", host, "1", "--check"])
    res.record("replay: goto refuses a trace captured without -icount",
               st == 0 and st2 == 1 and "not captured under -icount" in out2, out + out2)


def stage_replay(h, res, board):
    if board != "qemu-virt":
        return
    st, out = h.run(["make", "-s", f"BOARD={board}", "all", "host-tools"])
    if st:
        res.record("replay: build the demo and the host tool", False, out)
        return
    shutil.rmtree(os.path.join(h.ROOT, "build", "replay"), ignore_errors=True)
    rdir = check_record(h, res, board)
    if rdir:
        chosen = check_goto(h, res, rdir)
        other = [e for e in chosen if e[1] != 0]
        if other:
            check_around(h, res, rdir, other[0][0], other[0][1], other[0][2], 4, "4 CPUs")
        check_refusals(h, res, board, rdir)
        check_chrome(h, res, rdir)
    check_one_cpu(h, res, board)
    check_input(h, res, board)
    check_crash(h, res, board)
    check_hang(h, res, board)
