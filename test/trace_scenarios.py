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

The 'input' stage (bad console and boot-argument input) is
input_scenarios.py.
"""
import json
import os
import re

from graph_times import check_graph_times

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
    report = re.sub(r"^(\[\d{3}\]) (\d+)\.(\d{9}):", rel, report, flags=re.M)

    def rel_end(m):     # the footer's "ended: ..., on CPU n at T"
        ns = int(m.group(2)) * 10**9 + int(m.group(3)) - t0
        return f"{m.group(1)} +{ns // 10**9}.{ns % 10**9:09d}"
    return re.sub(r"^(# the run of .* on CPU \d+ at) (\d+)\.(\d{9})$", rel_end, report,
                  flags=re.M)


def capture(h, image, bootargs, out_bt, flags=""):
    """Boots image under baretrace capture; returns (status, console)."""
    cmd = ["tools/qemu-run", "--image", os.path.join(image, "Image"),
           "--bootargs", bootargs, "--capture", out_bt]
    if flags:
        cmd += ["--qemu-flags", flags]
    st, out = h.run(cmd, timeout=h.QEMU_TIMEOUT)
    return st, out.replace("\r", "")


def console_session(h, image, bootargs, keys, captured=False):
    """Boots image and types 'keys' one line per shell prompt (the
    guest's receive buffer is small); returns (status or None on
    timeout, console text). captured: each line goes after the capture's
    mark (DLE CAN 'c', docs/serial-line.md), as baretrace capture sends
    it, so the shell may start trace frames (this reader drops them)."""
    cmd = ["tools/qemu-run", "--image", os.path.join(image, "Image"), "--bootargs", bootargs]
    status, raw = h.typed_session(cmd, keys.split(b"\n"), b"\x10\x18c" if captured else b"")
    # Trace frames (STX ... ETX, docs/wire.md) come between console lines
    # without a newline of their own: drop them before reading lines.
    raw = re.sub(rb"\x02[^\x03]*\x03", b"", raw)
    text = raw.decode(errors="replace").replace("\r", "")
    return status, "".join(c for c in text if c == "\n" or " " <= c <= "~")


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
               st == 139 and re.search(r"^  #1 .* crash_caller\+", text, re.M) and
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
        (b"help", r"^  funcs +GLOB\|@FOLDER +list traceable functions"),
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
        (b"hist maybe", r"^hist: on FUNC \[GLOB\.\.\.\], on SYSTEM:EVENT:FIELD\[:keys=KEY\], "
                        r"off, send, clear"),
        (b"hist on timer:tick:nope", r"^hist: timer:tick has no field 'nope'; its fields: cpu count$"),
        (b"hist on", r"^hist: name the functions: hist on FUNC"),
        (b"hist on tt_[", r"^hist: invalid glob$"),
        (b"hist on no_such_fn", r"^hist: the globs choose 0 functions; a histogram needs 1 to 32$"),
        (b"stats all", r"^stats: takes no arguments$"),
        (b"funcs", r"^funcs: one valid glob, or @FOLDER$"),
        (b"funcs @", r"^funcs: one valid glob, or @FOLDER$"),
        (b"meta extra", r"^meta: takes no arguments$"),
        (b"nosuch cmd", r"^unknown command 'nosuch' \(try 'help'\)$"),
        (b"exit 300", r"^exit: the status is a number from 0 to 255$"),
        # and the well-formed ones, in an order that shows their effect
        (b"dump", r"^\[000\] \d+\.\d{6}: tt_alpha <-scenario_golden$"),
        (b"funcs tt_a*", r"^# 4 of \d+ traceable functions$"),
        (b"funcs @app", r"^tt_alpha$"),     # test/target is the app: @app lists it
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
        (b"hist on tt_alpha tt_beta", r"^hist: on, 2 functions$"),
        (b"hist", r"^hist: tt_alpha: 0 calls on 0 CPUs$"),
        (b"hist send", None),
        (b"hist clear", None),
        (b"hist off", None),
        (b"hist on trace:patch:words:keys=kind", r"^hist: on, trace:patch:words:keys=kind$"),
        (b"profile on tt_*", None),     # patch batches for the field histogram to count
        (b"profile off", None),
        (b"hist", r"^hist: kind = 0: [1-9]\d* hits?, average \d+$"),
        (b"hist send", None),
        (b"hist off", None),
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
    # events in CPU 0's block: the dump must decode past them (and name
    # their fields).
    st, out = capture(h, tgt, "panic=poweroff trace=function trace_filter=crash_* "
                      "trace_event=trace:patch -- crash null", os.path.join(h.HOST, "panic.bt"))
    text = "".join(c for c in out if c == "\n" or " " <= c <= "~")
    res.record("trace: a crash with tracing on dumps the buffers as text after the report, "
               "function events after tracepoint records included",
               st == 139 and re.search(r"^==== trace buffers at the crash ====$", text, re.M) and
               re.search(r"^\[000\] \d+\.\d{6}: trace:patch: words=\d+ kind=\d+$", text, re.M) and
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
