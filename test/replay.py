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

from replay_common import GOT_REGS, GOT_STOP, GOT_TS
from replay_points import check_around, check_goto_time, check_hang, check_input

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
