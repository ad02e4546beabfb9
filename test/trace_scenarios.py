"""test/trace_scenarios.py: tracing end to end, target to host tool.

  golden    the test image's fixed call tree traced under -icount shift=0,
            (sleep=off), where the whole run is deterministic: baretrace report must
            equal test/golden/function.txt byte for byte (run.py
            --update-golden rewrites it after an intended change)
  overflow  the demo with 4 KiB ring buffers, overwrite mode and export
            paced at 115200 baud: events decoded plus events reported
            lost must equal what the target says it produced, exactly
  run       'make run' prints a report and writes the trace files
"""
import json
import os
import re

GOLDEN = "test/golden/function.txt"
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
