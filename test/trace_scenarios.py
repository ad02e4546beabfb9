"""test/trace_scenarios.py: tracing end to end, target to host tool.

  golden    the test image's fixed call tree traced under -icount shift=0,
            (sleep=off), where the whole run is deterministic: baretrace report must
            equal test/golden/function.txt byte for byte (run.py
            --update-golden rewrites it after an intended change)
  overflow  the demo with 4 KiB ring buffers, overwrite mode and export
            paced at 115200 baud: events decoded plus events reported
            lost must equal what the target says it produced, exactly
  run       'make run' prints a report and writes the trace files
  shell     console commands, each malformed one refused, change nothing
  panic     a crash with tracing on prints the buffers as text after the
            crash report
"""
import subprocess
import json
import os
import re

GOLDEN = "test/golden/function.txt"
GOLDEN_GRAPH = "test/golden/function_graph.txt"
# sleep=off: idle time advances the virtual clock by rule, not by the
# host's clock, so the whole run is the same every time.
ICOUNT = "-icount shift=0,sleep=off"


def capture(h, image, bootargs, out_bt, flags=""):
    """Boots image under baretrace capture; returns (status, console)."""
    cmd = ["tools/qemu-run", "--image", os.path.join(image, "Image"),
           "--bootargs", bootargs, "--capture", out_bt]
    if flags:
        cmd += ["--qemu-flags", flags]
    st, out = h.run(cmd, timeout=h.QEMU_TIMEOUT)
    return st, out.replace("\r", "")


def console_session(h, image, bootargs, keys):
    """Boots image, types 'keys' at the first shell prompt; returns
    (status or None on timeout, console text)."""
    cmd = ["tools/qemu-run", "--image", os.path.join(image, "Image"), "--bootargs", bootargs]
    proc = subprocess.Popen(cmd, cwd=h.ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    out = b""
    try:
        while b"bt> " not in out:
            chunk = proc.stdout.read1(4096)
            if not chunk:
                break
            out += chunk
        proc.stdin.write(keys)
        proc.stdin.flush()
        rest, _ = proc.communicate(timeout=h.QEMU_TIMEOUT)
        status = proc.returncode
    except (subprocess.TimeoutExpired, BrokenPipeError):
        os.killpg(proc.pid, 9)
        rest, _ = proc.communicate()
        status = None
    text = (out + rest).decode(errors="replace").replace("\r", "")
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
    rst, report = h.run([tool, "report", bt, "--elf", os.path.join(tgt, "baretrace.elf")])
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
    st, out = capture(h, tgt, "panic=poweroff trace=function trace_filter=tt_* -- golden",
                      bt, ICOUNT + " -smp 1")
    rst3, report3 = h.run([tool, "report", bt, "--elf", os.path.join(tgt, "baretrace.elf")])
    res.record("trace: two -icount runs give byte-identical reports",
               report3 == report2 and rst3 == 0, report3[-500:])

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
    rst, report = h.run([tool, "report", bt, "--elf", os.path.join(tgt, "baretrace.elf")])
    gpath = os.path.join(h.ROOT, GOLDEN_GRAPH)
    if h.UPDATE_GOLDEN and rst == 0:
        with open(gpath, "w") as f:
            f.write(report)
    want = open(gpath).read() if os.path.exists(gpath) else None
    res.record("trace: golden function_graph trace (exact durations under -icount) equals "
               + GOLDEN_GRAPH, st == 0 and rst == 0 and report == want,
               f"--- got:\n{report}\n--- want:\n{want}")

    # shell: commands typed on the console
    st, out = console_session(h, tgt, "panic=poweroff shell trace=function trace_filter=tt_* -- golden",
                              b"help\nbuffer\ndump\nbuffer 1K\nbuffer 8K sideways\nbuffer x\n"
                              b"buffer 8K stop extra\nnosuch cmd\nmeta extra\nstats\n"
                              b"buffer 8K stop\nbuffer\nexit 300\nexit 7\n")
    expect = [r"^  dump +print the trace buffers as text", r"^buffer: 64 KiB per CPU, overwrite mode$",
              r"^\[000\] \d+\.\d{6}: tt_alpha <-scenario_golden$", r"^# trace dump: 1[34] records$",
              r"^buffer: SIZE must be from 2K to 64M$", r"^buffer: the mode is 'overwrite' or 'stop'$",
              r"^buffer: SIZE is a number", r"^buffer: too many arguments$",
              r"^unknown command 'nosuch' \(try 'help'\)$", r"^meta: takes no arguments$",
              r"^patcher: \d+ batches", r"^buffer: 8 KiB per CPU, stop mode$",
              r"^exit: the status is a number from 0 to 255$", r"^baretrace: exit status 7$"]
    missing = [p for p in expect if not re.search(p, out, re.M)]
    # Refused lines change nothing: 64 KiB stays until the valid command.
    ok_order = out.find("buffer: 8 KiB per CPU") > out.find("buffer 8K stop extra")
    res.record("trace: shell commands work and malformed ones are refused with the reason",
               st == 7 and not missing and ok_order, f"status {st}, missing {missing}\n" + out[-3000:])

    st, out = capture(h, tgt, "panic=poweroff trace=function trace_filter=crash_* -- crash null",
                      os.path.join(h.HOST, "panic.bt"))
    text = "".join(c for c in out if c == "\n" or " " <= c <= "~")
    res.record("trace: a crash with tracing on dumps the buffers as text after the report",
               st == 3 and re.search(r"^==== trace buffers at the crash ====$", text, re.M) and
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
    ok = ok and re.search(r"^\[\d{3}\] \d+\.\d{6}: \w+ <-\w+", out, re.M) is not None
    res.record("trace: make run shows a function trace and writes trace.bt/.json/.folded",
               ok, out[-2500:])
