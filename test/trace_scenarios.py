"""test/trace_scenarios.py: tracing end to end, target to host tool.

  golden    the test image's fixed call tree traced under -icount
            (shift=4,sleep=off), where the whole run is deterministic:
            baretrace report, with absolute timestamps made relative to
            the first, must equal test/golden/function.txt byte for byte;
            the same for function_graph with exact durations (run.py
            --update-golden rewrites both after an intended change)
  overflow  the demo with 4 KiB ring buffers, overwrite mode and export
            paced at 115200 baud: events decoded plus events reported
            lost must equal what the target says it produced, exactly
  run       'make run' prints a report and writes the trace files
  shell     console commands, each malformed one refused, change nothing
  panic     a crash with tracing on prints the buffers as text after the
            crash report
  two-way   keys and --exec through 'baretrace capture' (two_way.py)
"""
import subprocess
import time
import json
import os
import re

GOLDEN = "test/golden/function.txt"
GOLDEN_GRAPH = "test/golden/function_graph.txt"
# sleep=off: idle time advances the virtual clock by rule, not by the
# host's clock, so the whole run is the same every time. shift=4: each
# instruction takes 16 ns, exactly one tick of virt's 62.5 MHz counter, so
# a duration is an instruction count and does not depend on where the
# workload falls between two counter ticks (with shift=0 it would move by
# a tick whenever any code before it changed length).
ICOUNT = "-icount shift=4,sleep=off"


def normalize(report):
    """Makes absolute timestamps (report --ns) relative to the first one:
    with shift=4 each is a whole number of 16 ns ticks, so differences are
    exact. Absolute times depend on
    how long everything before the workload took, which the golden files
    are not about. Durations and everything else stay as printed."""
    stamps = re.findall(r"^\[\d{3}\] (\d+)\.(\d{9}):", report, re.M)
    if not stamps:
        return report
    t0 = int(stamps[0][0]) * 10**9 + int(stamps[0][1])

    def rel(m):
        ns = int(m.group(2)) * 10**9 + int(m.group(3)) - t0
        return f"{m.group(1)} +{ns // 10**9}.{ns % 10**9:09d}:"
    return re.sub(r"^(\[\d{3}\]) (\d+)\.(\d{9}):", rel, report, flags=re.M)


def capture(h, image, bootargs, out_bt, flags=""):
    """Boots image under baretrace capture; returns (status, console)."""
    cmd = ["tools/qemu-run", "--image", os.path.join(image, "Image"),
           "--bootargs", bootargs, "--capture", out_bt]
    if flags:
        cmd += ["--qemu-flags", flags]
    st, out = h.run(cmd, timeout=h.QEMU_TIMEOUT)
    return st, out.replace("\r", "")


def console_session(h, image, bootargs, keys):
    """Boots image and types 'keys' one line per shell prompt (the
    guest's receive buffer is small); returns (status or None on
    timeout, console text)."""
    cmd = ["tools/qemu-run", "--image", os.path.join(image, "Image"), "--bootargs", bootargs]
    proc = subprocess.Popen(cmd, cwd=h.ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    out, lines, deadline = b"", keys.split(b"\n"), time.time() + h.QEMU_TIMEOUT
    try:
        sent = 0
        while sent < len(lines) and time.time() < deadline:
            chunk = proc.stdout.read1(4096)
            if not chunk:
                break
            out += chunk
            while sent < len(lines) and out.count(b"bt> ") > sent:
                proc.stdin.write(lines[sent] + b"\n")
                proc.stdin.flush()
                sent += 1
        rest, _ = proc.communicate(timeout=max(1, deadline - time.time()))
        status = proc.returncode
    except (subprocess.TimeoutExpired, BrokenPipeError):
        os.killpg(proc.pid, 9)
        rest, _ = proc.communicate()
        status = None
    # Trace frames (STX ... ETX, docs/wire.md) come between console lines
    # without a newline of their own: drop them before reading lines.
    raw = re.sub(rb"\x02[^\x03]*\x03", b"", out + rest)
    text = raw.decode(errors="replace").replace("\r", "")
    return status, "".join(c for c in text if c == "\n" or " " <= c <= "~")


def _varint(b, i):
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if not c & 0x80:
            return v, i


def graph_time_skews(path):
    """Reads a .bt file on its own (docs/wire.md 1-3, not the host tool)
    and pairs each graph entry (kind 3) with its exit (kind 2) per CPU.
    Returns ([(cpu, site, duration, exit_ts - entry_ts)], error). A hole
    (a kind-6 record or a jump of a block's 'first') forgets the open
    calls; an exit that is not the innermost open call's is not paired."""
    import struct
    try:
        data = open(path, "rb").read()
    except OSError as e:
        return [], str(e)
    if data[:8] != b"BTRACE\0\1":
        return [], "not a trace file"
    pairs, stacks, nxt, i = [], {}, {}, 8
    while i + 4 <= len(data):
        n, = struct.unpack_from("<I", data, i)
        p, i = data[i + 4:i + 4 + n], i + 4 + n
        _, j = _varint(p, 2)                    # seq
        ln, j = _varint(p, j)
        if p[0] != 1:                           # data blocks only
            continue
        cpu, body = p[1], p[j:j + ln]
        ts, k = _varint(body, 0)
        first, k = _varint(body, k)
        st = stacks.setdefault(cpu, [])
        if nxt.get(cpu) != first:
            st.clear()
        while k < len(body):
            kind, dt = body[k] >> 5, body[k] & 31
            k += 1
            if dt == 31:
                dt, k = _varint(body, k)
            ts += dt
            first += kind != 6
            if kind in (0, 1, 6):               # site [caller] / count
                _, k = _varint(body, k)
                if kind == 1:
                    _, k = _varint(body, k)
                if kind == 6:
                    st.clear()
            elif kind == 3:
                site, k = _varint(body, k)
                _, k = _varint(body, k)
                st.append((site, ts))
            elif kind == 2:
                site, k = _varint(body, k)
                dur, k = _varint(body, k)
                k += 1
                if body[k - 1] & 1:
                    _, k = _varint(body, k)
                if st and st[-1][0] == site:
                    pairs.append((cpu, site, dur, ts - st.pop()[1]))
                else:
                    st.clear()
            elif kind == 5:                     # format id, count, args
                _, k = _varint(body, k)
                cnt, k = body[k], k + 1
                for _ in range(cnt):
                    _, k = _varint(body, k)
            elif kind == 7:
                k += 1
                ln7, k = _varint(body, k)
                k += ln7
            else:
                return pairs, f"CPU {cpu} block at {first}: kind {kind} needs its schema"
        nxt[cpu] = first
    return pairs, None


def check_graph_times(res, path, what):
    """A graph call's duration (exit record) and the distance between its
    entry and exit records' times come from one pair of counter reads
    (docs/wire.md 2.1): equal for every call, the records that the slow
    path writes when a block fills up included (it once read the counter
    again, up to ~100 us later under TCG)."""
    pairs, err = graph_time_skews(path)
    bad = [p for p in pairs if p[2] != p[3]]
    res.record(f"trace: {what} {len(pairs)} graph calls: duration == exit time - entry "
               f"time for each ({len(bad)} differ)",
               err is None and len(pairs) > 1000 and not bad,
               f"{err}\n" + "".join(f"CPU {c} site {s}: duration {d} ticks, records "
                                    f"{t} ticks apart\n" for c, s, d, t in bad[:10]))


def stage_trace(h, res, board):
    if board != "qemu-virt":
        return
    st, out = h.run(["make", "-s", f"BOARD={board}", "host-tools", "all"])
    st2, out2 = h.run(["make", "-s", f"BOARD={board}", "APP=test/target"])
    if st or st2:
        res.record("trace: build the images and host tools", False, out + out2)
        return
    tool = os.path.join(h.HOST, "baretrace")
    tgt, demo = h.make_dir(board, "test/target"), h.make_dir(board, "examples/demo")
    bt = os.path.join(h.HOST, "golden.bt")

    # golden
    st, out = capture(h, tgt, "panic=poweroff trace=function trace_filter=tt_* -- golden",
                      bt, ICOUNT + " -smp 1")
    rst, report = h.run([tool, "report", "--ns", bt, "--elf", os.path.join(tgt, "baretrace.elf")])
    report = normalize(report)
    if h.UPDATE_GOLDEN and rst == 0:
        with open(os.path.join(h.ROOT, GOLDEN), "w") as f:
            f.write(report)
    try:
        with open(os.path.join(h.ROOT, GOLDEN)) as f:
            want = f.read()
    except OSError:
        want = None
    res.record("trace: golden function trace under -icount equals " + GOLDEN,
               st == 0 and rst == 0 and report == want,
               f"capture status {st}, report status {rst}\n--- got:\n{report}\n"
               f"--- want:\n{want}")
    rst2, report2 = h.run([tool, "report", bt, "--elf", os.path.join(tgt, "baretrace.elf")])
    # The second run compares raw reports: absolute times must repeat too.
    st, out = capture(h, tgt, "panic=poweroff trace=function trace_filter=tt_* -- golden",
                      bt, ICOUNT + " -smp 1")
    rst3, report3 = h.run([tool, "report", bt, "--elf", os.path.join(tgt, "baretrace.elf")])
    res.record("trace: two -icount runs give byte-identical reports",
               report3 == report2 and rst3 == 0, report3[-500:])

    # tracepoints alone, decoded on the host from the schemas in metadata
    bt = os.path.join(h.HOST, "events.bt")
    st, out = capture(h, tgt, "panic=poweroff trace_event=timer:tick,irq:entry,smp:call "
                      "-- ktest smp_call_runs delay_waits", bt)
    elf = os.path.join(tgt, "baretrace.elf")
    rst, report = h.run([tool, "report", bt, "--elf", elf])
    est, _ = h.run([tool, "export", "--format=chrome-json", "-o", bt + ".json", bt, "--elf", elf])
    try:
        with open(bt + ".json") as f:
            inst = [e for e in json.load(f)["traceEvents"]   # cat "tracepoint,SYSTEM"
                    if e.get("cat", "").split(",")[0] == "tracepoint"]
    except (OSError, ValueError, KeyError):
        inst = []
    res.record("trace: tracepoints alone (trace_event=) reach the host and decode with their fields",
               st == 0 and rst == 0 and est == 0 and
               re.search(r"^\[\d{3}\] \d+\.\d{6}: irq:entry: irq=27$", report, re.M) and
               re.search(r"^\[\d{3}\] \d+\.\d{6}: timer:tick: cpu=\d+ count=\d+$", report, re.M) and
               re.search(r"^\[000\] \d+\.\d{6}: smp:call: cpu=1 fn=0x[0-9a-f]+$", report, re.M) and
               len(inst) > 3, report[-1500:] + f"\n{len(inst)} tracepoint instants")

    # the demo under function_graph with tracepoints on 4 CPUs, exported
    # for trace-cmd and read back by `trace-cmd report` (test/host/e2e_tracecmd.py)
    bt = os.path.join(h.HOST, "tracecmd.bt")
    filt = open(os.path.join(h.ROOT, "examples/demo/trace_filter")).read().strip()
    st, out = capture(h, demo, "panic=poweroff trace=function_graph trace_filter=" + filt +
                      " trace_event=irq:entry,timer:tick,ipi:send,ipi:receive", bt)
    res.record("trace: demo with function_graph and tracepoints for trace-cmd", st == 0, out[-1500:])
    if st == 0:
        st, out = h.run(["python3", "test/host/e2e_tracecmd.py", tool, "--real", bt,
                         os.path.join(demo, "baretrace.elf")], timeout=300)
        h.parse_tap("trace: e2e_tracecmd (real demo)", out, res, st)

    # overflow with paced export
    bt = os.path.join(h.HOST, "overflow.bt")
    filt = open(os.path.join(h.ROOT, "examples/demo/trace_filter")).read().strip()
    st, out = capture(h, demo, "panic=poweroff trace=function trace_filter=" + filt +
                      " trace_buf=4K trace_mode=overwrite trace_pace=115200", bt)
    text = "".join(c for c in out if c == "\n" or " " <= c <= "~")
    m = re.search(r"trace: (\d+) events, (\d+) lost", text)
    rst, report = h.run([tool, "report", bt, "--elf", os.path.join(demo, "baretrace.elf")])
    decoded = len(re.findall(r"^\[\d{3}\] ", report, re.M))
    lost = sum(int(n) for n in re.findall(r"^CPU:\d+ \[LOST (\d+) EVENTS\]", report, re.M))
    produced = int(m.group(1)) if m else -1
    res.record(f"trace: overflow at 115200 baud: decoded {decoded} + lost {lost} "
               f"== produced {produced}",
               st == 0 and rst == 0 and m and decoded + lost == produced and lost > 0,
               text[-1500:] + report[-800:])

    # its holes as trace-cmd's dropped-events marks (test/host/e2e_tracecmd.py)
    st, out = h.run(["python3", "test/host/e2e_tracecmd.py", tool, "--real", bt,
                     os.path.join(demo, "baretrace.elf")], timeout=300)
    h.parse_tap("trace: e2e_tracecmd (overflow)", out, res, st)

    # the same crash with the graph tracer hooking every frame on the way
    st, out = capture(h, tgt, "panic=poweroff trace=function_graph trace_filter=crash_*,scenario_* "
                      "-- crash null", os.path.join(h.HOST, "panicg.bt"))
    text = "".join(c for c in out if c == "\n" or " " <= c <= "~")
    res.record("trace: a crash report's backtrace shows real callers under function_graph",
               st == 3 and re.search(r"^  #1 .* crash_caller\+", text, re.M) and
               re.search(r"^  #2 .* scenario_crash\+", text, re.M) and
               "fgraph_return" not in text.split("backtrace:")[-1].split("====")[0],
               text[-2500:])

    # graph golden
    bt = os.path.join(h.HOST, "graph.bt")
    st, out = capture(h, tgt, "panic=poweroff trace=function_graph trace_filter=tt_* "
                      "trace_retval=1 -- golden", bt, ICOUNT + " -smp 1")
    rst, report = h.run([tool, "report", "--ns", bt, "--elf", os.path.join(tgt, "baretrace.elf")])
    report = normalize(report)
    gpath = os.path.join(h.ROOT, GOLDEN_GRAPH)
    if h.UPDATE_GOLDEN and rst == 0:
        with open(gpath, "w") as f:
            f.write(report)
    want = open(gpath).read() if os.path.exists(gpath) else None
    res.record("trace: golden function_graph trace (exact durations under -icount) equals "
               + GOLDEN_GRAPH, st == 0 and rst == 0 and report == want,
               f"--- got:\n{report}\n--- want:\n{want}")

    # shell: every command once well formed and once malformed
    session = [
        (b"help", r"^  funcs +GLOB +list traceable functions"),
        (b"tracer", r"^tracer: function \(on\)$"),
        (b"tracer bogus", r"^tracer: no such tracer"),
        (b"filter", r"^filter: tt_\*$"),
        (b"filter tt_[ab", r"^filter: invalid glob"),
        (b"notrace tt_[", r"^notrace: invalid glob"),
        (b"graph_function tt_[", r"^graph_function: invalid glob"),
        (b"max_depth many", r"^max_depth: one number from 0 to 1000$"),
        (b"threshold -5", r"^threshold: one number from 0 to 60000000$"),
        (b"cpumask 0x100", r"^cpumask: the mask names no online CPU$"),
        (b"context kernel", r"^context: one of thread, irq, all$"),
        (b"trigger tt_gamma:explode", r"^trigger: FUNC:traceon"),
        (b"trigger no_such_fn:traceoff", r"^trigger: no function matches 'no_such_fn'$"),
        (b"args tt_args:9", r"^args: FUNC:N with N from 1 to 8"),
        (b"buffer 1K", r"^buffer: SIZE must be from 2K to 64M$"),
        (b"buffer 8K sideways", r"^buffer: the mode is 'overwrite' or 'stop'$"),
        (b"start now", r"^start: takes no arguments$"),
        (b"stop now", r"^stop: takes no arguments$"),
        (b"clear all", r"^clear: takes no arguments$"),
        (b"dump all", r"^dump: takes no arguments$"),
        (b"snapshot later", r"^snapshot: 'snapshot' takes one now"),
        (b"profile maybe", r"^profile: on \[GLOB\.\.\.\], off, send, reset"),
        (b"stats all", r"^stats: takes no arguments$"),
        (b"funcs", r"^funcs: one valid glob$"),
        (b"meta extra", r"^meta: takes no arguments$"),
        (b"nosuch cmd", r"^unknown command 'nosuch' \(try 'help'\)$"),
        (b"exit 300", r"^exit: the status is a number from 0 to 255$"),
        # and the well-formed ones, in an order that shows their effect
        (b"dump", r"^\[000\] \d+\.\d{6}: tt_alpha <-scenario_golden$"),
        (b"funcs tt_a*", r"^# 4 of \d+ traceable functions$"),
        (b"snapshot", None),
        (b"snapshot show", r"^# snapshot: oldest first"),
        (b"stop", None),
        (b"tracer function_graph", None),
        (b"max_depth 1", None),
        (b"threshold 0", None),
        (b"context all", None),
        (b"cpumask 0x1", None),
        (b"notrace tt_beta", None),
        (b"graph_function tt_outer", None),
        (b"args tt_args:2", None),
        (b"args", r"^tt_args:2$"),
        (b"trigger tt_gamma:traceoff:2", None),
        (b"trigger", r"^tt_gamma:traceoff:2 left \(fired 0 times\)$"),
        (b"buffer 16K stop", r"^buffer: 16 KiB per CPU, stop mode$"),
        (b"clear", None),
        (b"start", None),
        (b"tracer", r"^tracer: function_graph \(on\)$"),
        (b"profile on tt_*", None),
        (b"profile", r"^\s+calls\s+total us"),
        (b"profile send", None),
        (b"profile off", None),
        (b"stats", r"^patcher: \d+ batches"),
        (b"exit 7", r"^baretrace: exit status 7$"),
    ]
    keys = b"".join(k + b"\n" for k, _ in session)
    st, out = console_session(h, tgt, "panic=poweroff shell trace=function "
                              "trace_filter=tt_* -- golden", keys)
    missing = [k.decode() for k, p in session if p and not re.search(p, out, re.M)]
    res.record(f"trace: {len(session)} console commands: each malformed one names the problem, "
               "the well-formed ones work", st == 7 and not missing,
               out[-3000:] + f"\nstatus {st}, unmatched: {missing}")

    # The patcher's tracepoint records sit before the crash's function
    # events in CPU 0's block: the dump must decode past them.
    st, out = capture(h, tgt, "panic=poweroff trace=function trace_filter=crash_* "
                      "trace_event=trace:patch -- crash null", os.path.join(h.HOST, "panic.bt"))
    text = "".join(c for c in out if c == "\n" or " " <= c <= "~")
    res.record("trace: a crash with tracing on dumps the buffers as text after the report, "
               "function events after tracepoint records included",
               st == 3 and re.search(r"^==== trace buffers at the crash ====$", text, re.M) and
               re.search(r"^\[000\] \d+\.\d{6}: trace:patch$", text, re.M) and
               re.search(r"^\[000\] \d+\.\d{6}: crash_caller <-scenario_crash$", text, re.M) and
               re.search(r"^\[000\] \d+\.\d{6}: crash_null_deref <-crash_caller$", text, re.M),
               text[-2500:])

    # make run
    st, out = h.run(["make", f"BOARD={board}", "run"], timeout=h.QEMU_TIMEOUT)
    paths = ["build/run/trace.bt", "build/run/trace.json", "build/run/trace.folded"]
    ok = st == 0 and "demo: PASS" in out and all(
        os.path.getsize(os.path.join(h.ROOT, p)) > 0 for p in paths
        if os.path.exists(os.path.join(h.ROOT, p))) and all(
        os.path.exists(os.path.join(h.ROOT, p)) for p in paths)
    try:
        with open(os.path.join(h.ROOT, "build/run/trace.json")) as f:
            events = json.load(f)
        ok = ok and len(events.get("traceEvents", events)) > 100
    except (OSError, ValueError) as e:
        ok = False
        out += f"\ntrace.json: {e}"
    ok = ok and re.search(r"^ \d\) .*\|\s+\w+\(\) \{$", out, re.M) is not None
    res.record("trace: make run shows a function_graph view and writes trace.bt/.json/.folded",
               ok, out[-2500:])
    # The demo's CPUs drain in blocks; report merges them by time (issue
    # 14): with --abstime every line has a time, none before the last one.
    rst, rep = h.run([tool, "report", "--abstime", os.path.join(h.ROOT, "build/run/trace.bt"),
                      "--elf", os.path.join(demo, "baretrace.elf")])
    stamps = [(int(a), int(b)) for a, b in re.findall(r"^ *(\d+)\.(\d{6}) \|  ", rep, re.M)]
    back = [i for i in range(1, len(stamps)) if stamps[i] < stamps[i - 1]]
    cpus = set(re.findall(r"^ +\d+\.\d{6} \|   (\d+)\) ", rep, re.M))
    res.record(f"trace: the demo's report --abstime: {len(stamps)} lines on {len(cpus)} CPUs, "
               f"{len(back)} earlier than the line before",
               rst == 0 and len(stamps) > 100 and not back and len(cpus) > 1 and
               re.search(r"^ -{42}\n +\d+\) => \d+\)\n -{42}\n\n", rep, re.M) is not None,
               rep[:1500] + "".join(f"\nbackwards at {i}: {stamps[i - 1]} -> {stamps[i]}"
                                    for i in back[:5]))

    check_graph_times(res, os.path.join(h.ROOT, "build/run/trace.bt"), "the demo's")

    # The serial line both ways: keys, --exec, a terminal (test/two_way.py).
    import two_way
    two_way.stage(h, res, tgt)


def stage_bad_input(h, res, board):
    """Bad input on the console and in the boot arguments: each gets a
    clear message and changes nothing (issue 10, part 4)."""
    if board != "qemu-virt":
        return
    st, out = h.run(["make", "-s", f"BOARD={board}", "all"])
    st2, out2 = h.run(["make", "-s", f"BOARD={board}", "APP=test/target"])
    if st or st2:
        res.record("input: build the images", False, out + out2)
        return
    tgt, demo = h.make_dir(board, "test/target"), h.make_dir(board, "examples/demo")

    def boot(image, bootargs):
        # Trace frames sit between console lines without a newline of
        # their own (docs/wire.md): drop them so lines start at ^.
        st, out = h.boot(board, image, "direct", bootargs)
        return st, re.sub(r"\x02[^\x03]*\x03", "", out)

    # A refused value leaves the earlier one in force and is named.
    st, out = boot(tgt, "panic=poweroff trace_buf=8K trace_buf=1K trace_cpumask=0x1 "
              "trace_cpumask=0 trace=function trace_filter=tt_*,nosuch_fn* -- golden")
    h.expect(res, "input: trace_buf=8K trace_buf=1K keeps 8 KiB, trace_cpumask=0 keeps 0x1, "
             "each refusal shows its value, a filter matching nothing is named", st, out,
             present=[r"^bootargs: invalid value in 'trace_buf=1K' \(.*2K-64M.*\); not applied$",
                      r"^bootargs: invalid value in 'trace_cpumask=0' \(.*\); not applied$",
                      r"^trace: filter 'nosuch_fn\*' matches no function$",
                      r"^trace: function tracer on, 8 KiB per CPU, overwrite mode, CPUs 0x1$"],
             absent=[r"''", r"^trace: filter 'tt_\*'"])
    st, out = boot(tgt, "panic=poweroff trace=nop -- golden")
    h.expect(res, "input: trace=nop chooses nop without calling it refused", st, out,
             present=[r"^trace: nop tracer: no function is traced$"], absent=[r"refused"])

    # A command line past 1024 bytes: what fits applies (panic=, the
    # tick rate), the rest is named; the echo is whole.
    filler = " ".join("trace_pace=" + "0" * 100 for _ in range(12))
    line = f"panic=poweroff tick_hz=50 {filler} -- ignored"
    st, out = boot(demo, line)
    h.expect(res, f"input: a {len(line)}-byte command line keeps what fits and says where it "
             "stopped; kprintf prints the whole echo line", st, out,
             present=[r"^bootargs: \"" + re.escape(line) + r"\"$",
                      r"^bootargs: line too long \(at most 1023 bytes, 32 words\): ignoring "
                      r"everything from byte \d+ \('trace_pace=0+\.\.\.'\) on; \d+ kernel and "
                      r"0 app words kept$",
                      r"^time: counter \d+ Hz, tick 50 Hz$", r"^demo: PASS"])

    # The console, with no tracer chosen at first.
    long_filter = b"filter " + b"tt_alpha," * 16
    session = [
        (b"filter [", r"^filter: invalid glob '\[' "),
        (b"filter tt_* !", r"^filter: invalid glob '!' "),
        (b"filter", r"^filter: \(every function\)$"),
        (long_filter, r"^filter: too long, max 127 characters$"),
        (b"buffer 64M", r"^buffer: 65536 KiB per CPU, overwrite mode$"),
        (b"buffer", None),
        (b"buffer 16K stop", r"^buffer: 16 KiB per CPU, stop mode$"),
        (b"event filter irq:entry irq==99999999999999999999999",
         r"^event: no such event or field, or a value outside the field's type$"),
        (b"event filter irq:entry irq==-5", None),
        (b"events", r"^ *\d+ irq:entry +off probes=\d+ irq$"),
        (b"event filter irq:entry irq==4294967295", None),
        (b"events", r"^ *\d+ irq:entry .*\[filter irq==4294967295, 0 dropped\]$"),
        (b"event filter irq:entry", None),
        (b"tracer function", None),
        (b"filter tt_alpha nosuch_fn*", r"^filter: 'nosuch_fn\*' matches no function$"),
        (b"filter", r"^filter: tt_alpha nosuch_fn\*$"),
        (b"profile on tt_*", None),
        (b"profile on tt_*", r"^profile: already on \('profile off' first\)$"),
        (b"profile off", None),
        (b"x" * 200, r"^console: line too long \(max 159 characters\), line dropped$"),
        # ESC then Enter (CR) ends the line; were the CR swallowed, the
        # next word would join it ("tracerfilter"). Every line still ends
        # in LF, so a regression cannot leave the session waiting.
        (b"tracer\x1b\rfilter", r"^tracer: function \(off\)$"),
        (b"tracer \x1b[Dfunction_graph", None),
        (b"tracer", r"^tracer: function_graph \(off\)$"),
        (b"exit 5", r"^baretrace: exit status 5$"),
    ]
    keys = b"".join(k + b"\n" for k, _ in session)
    st, out = console_session(h, tgt, "panic=poweroff shell -- golden", keys)
    missing = [k.decode(errors="replace")[:40] for k, p in session
               if p and not re.search(p, out, re.M)]
    refusals = len(re.findall(r"^event: no such event or field, or a value outside", out, re.M))
    sizes = len(re.findall(r"^buffer: 65536 KiB per CPU, overwrite mode$", out, re.M))
    unwanted = [p for p in (r"^unknown command 'x", r"^unknown command 'tracer",
                            r"^tracer: profile", r"not while the graph")
                if re.search(p, out, re.M)]
    res.record(f"input: {len(session)} console lines: bad globs, long filters, buffer sizes, "
               "out-of-range event values, a second 'profile on', over-long lines and ESC "
               "Enter each get a clear answer and change nothing",
               st == 5 and not missing and refusals == 2 and sizes == 2 and not unwanted,
               out[-3000:] + f"\nstatus {st}, unmatched: {missing}, "
               f"event refusals {refusals} (want 2), 64M echoes {sizes} (want 2), "
               f"unwanted {unwanted}")
