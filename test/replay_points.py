"""test/replay_points.py: where goto lands from the other ways in
(issue 44; part of stage 'replay', test/replay.py runs these):

  - a time: goto @T on the one-CPU recording, the counter there equal
    to T; a malformed T is a bad command line;
  - console input on one CPU (EXEC=: the shell starts the tracer, then
    runs 'help'): recorded, replayed, goto to the entry the typed line
    made, x0 pointing at it, reverse-stepi into the caller;
  - a hang (test/target's 'lockup 2'): report --numbers names each CPU's
    last entry before it, and goto reaches the stopped CPU's;
  - baretrace-around at goto's prompt: on every CPU the events before
    the point and the ones after it, the event first.
"""
import os
import re
import subprocess

from replay_common import GOT_STOP, GOT_TS


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
