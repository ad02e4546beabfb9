#!/usr/bin/env python3
"""test/run.py: every baretrace test, ending with "N passed, N failed".

Stages (each test prints one "ok"/"not ok" line as it finishes):
  host     C unit tests of pure kernel code under ASan/UBSan (TAP), and
           fuzz targets run over their seed corpus for a bounded count
  build    bad BOARD / APP values fail with the valid choices
  target   the KTAP suites of APP=test/target, booted in each of the
           board's TEST_BOOTS modes; a hang is killed and reported
  boot     scenarios read from the console: crash reports, W^X, boot
           arguments, line interleaving, the demo itself
  gdb      a hung guest's rings read through QEMU's gdb stub by
           tools/gdb/baretrace.py (test/gdb_check.py)
  rpi-uboot  the Pi card's U-Boot flow on raspi3b with Debian's U-Boot
           and DTB: demo traced, KTAP suites (test/rpi_uboot.py)
  rpi4-qemu  the Pi 4 image on QEMU raspi4b (tools/fetch-qemu's QEMU):
           KTAP suites (also multi-threaded TCG), demos, end-of-run
           books, uart_baud=, UART interrupt, break key, lockup, watchdog
           reset and power-off, trace across a reset (test/rpi4_qemu.py)
  rpi4-uboot the same card's U-Boot flow on raspi4b (test/rpi_uboot.py)
  readme   the README's marked examples run as written, its make commands
           checked against the Makefile, make help complete
           (test/readme_examples.py)
  farm     labgrid and LAVA (lava-run) on QEMU: good images pass, a
           failing case, a crash and a hang fail (test/farm/farm_stage.py)

Usage: test/run.py [--board B] [--only STAGE[,STAGE]] [-v]
"""
import argparse
import glob
import os
import re
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOST = os.path.join(ROOT, "build", "host")
QEMU_TIMEOUT = 90


class Results:
    def __init__(self, verbose):
        self.passed = 0
        self.failed = 0
        self.failures = []
        self.verbose = verbose

    def record(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print(f"ok - {name}", flush=True)
        else:
            self.failed += 1
            self.failures.append(name)
            print(f"not ok - {name}", flush=True)
            for line in detail.strip().splitlines()[-25:]:
                print(f"#   {line}")


def run(cmd, timeout=None, cwd=ROOT, env=None):
    """Runs cmd; returns (status, output). Status None means timed out."""
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            env=env, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out.decode(errors="replace")
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out, _ = proc.communicate()
        return None, out.decode(errors="replace")


def make_var(board, var):
    _, out = run(["make", "-s", f"BOARD={board}", f"print-{var}"])
    return out.strip().splitlines()[-1] if out.strip() else ""


# ---- host ------------------------------------------------------------------

def sources_of(path):
    with open(path) as f:
        first = f.readline()
    m = re.match(r"/\*\s*sources:(.*)\*/", first)
    return m.group(1).split() if m else []


def parse_tap(name, out, res, status):
    seen = 0
    for line in out.splitlines():
        m = re.match(r"(not ok|ok)\s+(\d+)\s*-?\s*(.*)", line)
        if m:
            seen += 1
            res.record(f"{name}: {m.group(3)}", m.group(1) == "ok",
                       "" if m.group(1) == "ok" else out)
    if status != 0 and not any(l.startswith("not ok") for l in out.splitlines()):
        res.record(f"{name}: exits 0", False, out)
    elif seen == 0:
        res.record(f"{name}: produced TAP", False, out)


def host_dtb():
    path = os.path.join(HOST, "virt.dtb")
    if not os.path.exists(path):
        run(["qemu-system-aarch64", "-M", f"virt,dumpdtb={path}", "-smp", "4",
             "-m", "512M", "-nographic", "-net", "none"], timeout=30)
    return path


# The host tool's end-to-end tests (TAP), each given the built tool.
HOST_E2E = [
    ("e2e_baretrace", 300),     # capture, report, stats, export; goldens
    ("e2e_report_order", 120),  # report: time order across CPUs, ftrace's cells
    ("e2e_capture_io", 300),    # the two-way line: stdin, --exec, raw terminal
    ("e2e_stats_diff", 300),    # stats --sort, --diff; --help, --version
    ("e2e_tracecmd", 300),      # export --format=trace-cmd read by trace-cmd report
    ("e2e_viewers", 300),       # JSON, the SVG's script in chromium, babeltrace2
    ("e2e_filters", 300),       # host-side filters on every command, graph
]


def stage_host(res, board):
    os.makedirs(HOST, exist_ok=True)
    stage_host_units(res)
    # The host tool end to end: capture, report, stats, export (TAP).
    st, out = run(["make", "-s", f"BOARD={board}", "build/host/baretrace"])
    if st != 0:
        res.record("host baretrace: builds", False, out)
    else:
        for script, timeout in HOST_E2E:
            st, out = run(["python3", f"test/host/{script}.py",
                           os.path.join(HOST, "baretrace")], timeout=timeout)
            parse_tap(f"host {script}", out, res, st)


def kernel_includes():
    """-I for kernel/ and each of its folders (kernel/LAYERS), as the
    Makefile's KERNEL_DIRS: "x.h" finds a kernel header wherever it is."""
    dirs = sorted(os.path.relpath(d, ROOT) for d in glob.glob(os.path.join(ROOT, "kernel", "*", "")))
    return ["-Ikernel"] + ["-I" + d for d in dirs]


def stage_host_units(res):
    dtb = host_dtb()
    cflags = ["-std=gnu11", "-g", "-O1", "-Wall", "-Wextra", "-Werror"] + \
        kernel_includes() + ["-Iinclude", "-Itest/host"]
    host_dir = os.path.join(ROOT, "test/host")
    tests = sorted(f for f in os.listdir(host_dir)
                   if f.startswith("test_") and f.endswith(".c"))
    if not tests:
        res.record("host unit tests exist", False, f"nothing in {host_dir}")
    for t in tests:
        name = t[:-2]
        exe = os.path.join(HOST, name)
        src = os.path.join("test/host", t)
        st, out = run(["clang"] + cflags + ["-fsanitize=address,undefined",
                       "-fno-sanitize-recover=all", src] + sources_of(src) + ["-o", exe])
        if st != 0:
            res.record(f"host {name}: builds", False, out)
            continue
        st, out = run([exe, dtb], timeout=120)
        parse_tap(f"host {name}", out, res, st)
    fuzz_dir = os.path.join(ROOT, "test/fuzz")
    for t in sorted(os.listdir(fuzz_dir)) if os.path.isdir(fuzz_dir) else []:
        if not (t.startswith("fuzz_") and t.endswith(".c")):
            continue
        name = t[:-2]
        exe = os.path.join(HOST, name)
        src = os.path.join("test/fuzz", t)
        st, out = run(["clang", "-g", "-O1", "-fsanitize=fuzzer,address,undefined",
                       *kernel_includes(), "-Iinclude", "-Itrace", "-Iwire", src] + sources_of(src) +
                      ["-o", exe])
        if st != 0:
            res.record(f"fuzz {name}: builds", False, out)
            continue
        corpus = os.path.join(fuzz_dir, "corpus", name[len("fuzz_"):])
        # New inputs go to a scratch directory (the first one named), so
        # the committed seeds stay as they are.
        scratch = os.path.join(HOST, "corpus_" + name)
        os.makedirs(scratch, exist_ok=True)
        st, out = run([exe, "-runs=20000", "-max_len=4096", scratch, corpus], timeout=300)
        res.record(f"fuzz {name}: 20000 runs without a crash", st == 0, out)


# ---- build -----------------------------------------------------------------

def stage_build(res, board):
    st, out = run(["make", "BOARD=no-such-board"])
    res.record("make BOARD=no-such-board fails listing the boards",
               st != 0 and "unknown BOARD" in out and "qemu-virt" in out, out)
    st, out = run(["make", "APP=no/such/app"])
    res.record("make APP=no/such/app fails naming valid apps",
               st != 0 and "no/such/app" in out and "examples/demo" in out, out)
    check_trace_path_fails(res)
    check_no_byproducts_tracked(res)
    import layers  # noqa: E402
    layers.check(sys.modules[__name__], res, board)


def check_no_byproducts_tracked(res):
    """No tracked file is a build by-product: each matches none of
    .gitignore's rules (a compiler's "-.d" was once committed)."""
    st, out = run(["git", "ls-files", "-ci", "--exclude-standard"])
    if st is not None and "not a git repository" in out:
        res.record("no build by-product is tracked (skipped: not a git checkout)", True)
        return
    res.record("no tracked file matches .gitignore (no build by-product committed)",
               st == 0 and out.strip() == "", out)


def check_trace_path_fails(res):
    """tools/check-trace-path on a small listing: export_tick reaches
    smp_num_cpus through a tail branch, and smp_num_cpus is a callsite."""
    import tempfile
    lst = ("0000000000001000 <export_tick>:\n"
           "    1000:\td503201f \tnop\n"
           "    1004:\t94000010 \tbl\t1044 <helper>\n"
           "0000000000001040 <helper>:\n"
           "    1044:\t14000005 \tb\t1058 <smp_num_cpus>\n"
           "0000000000001058 <smp_num_cpus>:\n"
           "    1058:\td65f03c0 \tret\n")
    tables = "bt_sites:\n\t.long 7\t// smp_num_cpus\nbt_site_count:\n"
    with tempfile.TemporaryDirectory() as d:
        paths = [os.path.join(d, "a.lst"), os.path.join(d, "tables.S")]
        for path, text in zip(paths, [lst, tables]):
            with open(path, "w") as f:
                f.write(text)
        st, out = run(["tools/check-trace-path"] + paths)
        res.record("check-trace-path fails on a traced function the exporter reaches",
                   st == 1 and "smp_num_cpus <- helper <- export_tick" in out, out)
        with open(paths[1], "w") as f:
            f.write("bt_sites:\n\t.long 7\t// other\nbt_site_count:\n")
        st, out = run(["tools/check-trace-path"] + paths)
        res.record("check-trace-path passes when nothing reached is a callsite", st == 0, out)


# ---- target ----------------------------------------------------------------

def boot(board, image_dir, mode, bootargs, timeout=QEMU_TIMEOUT):
    """Boots an image; returns (status or None on timeout, console text)."""
    cpu = make_var(board, "QEMU_CPU")
    machine = make_var(board, "QEMU_MACHINE")
    smp = make_var(board, "QEMU_SMP")
    cmd = ["tools/qemu-run", "--image", os.path.join(image_dir, "Image"),
           "--machine", machine, "--cpu", cpu, "--smp", smp,
           "--mem", make_var(board, "QEMU_MEM"), "--bootargs", bootargs]
    # A board's own QEMU and the device tree its firmware passes (rpi4).
    qemu_bin, dtb = make_var(board, "QEMU_BIN"), make_var(board, "QEMU_DTB_FILE")
    cmd += (["--qemu", qemu_bin] if qemu_bin else []) + (["--dtb", dtb] if dtb else [])
    if mode == "uboot":
        cmd += ["--uboot", make_var(board, "UBOOT_BIN")]
    elif mode == "el2":
        cmd[cmd.index("--machine") + 1] = machine + ",virtualization=on"
    elif mode == "smp1":
        cmd[cmd.index("--smp") + 1] = "1"
    elif mode == "cpumax":
        cmd[cmd.index("--cpu") + 1] = "max"
    elif mode == "mttcg":
        cmd += ["--qemu-flags", "-accel tcg,thread=multi"]
    elif mode == "icount":
        cmd += ["--qemu-flags", "-icount shift=0"]
    st, out = run(cmd, timeout=timeout)
    return st, strip_frames(out)


def strip_frames(out):
    """Console text without trace frames (STX ... ETX, docs/wire.md; ETX
    never occurs inside one), which may sit between console lines."""
    return re.sub("\x02[^\x03]*\x03", "", out).replace("\r", "")


def parse_ktap(prefix, out, res):
    """Records one result per KTAP test line, checking the plan."""
    plan = re.search(r"^KTAP version 1\n1\.\.(\d+)$", out, re.M)
    if not plan:
        res.record(f"{prefix}: prints a KTAP header and plan", False, out)
        return
    lines = re.findall(r"^(not ok|ok) (\d+) (\S+)(.*)$", out, re.M)
    for i, (verdict, num, name, rest) in enumerate(lines):
        detail = "\n".join(re.findall(rf"^    # .*$", out, re.M)) if verdict != "ok" else ""
        res.record(f"{prefix}: {name}{rest}", verdict == "ok" and int(num) == i + 1, detail)
    if len(lines) != int(plan.group(1)):
        res.record(f"{prefix}: ran all {plan.group(1)} planned tests (got {len(lines)})",
                   False, out)


def check_fp_free_core(res, board, image_dir):
    """The core tracers' callbacks run with no FP/SIMD save (their ops
    carry TRACE_OPS_NO_FPSIMD), so nothing the kernel and trace core run
    may touch an FP/SIMD register: built -mgeneral-regs-only, only the
    two save routines name one, and of the library routines they call
    only strchr does (trace/tracers/trigger.c parsing a spec, thread context)."""
    sys.path.insert(0, os.path.join(ROOT, "test"))
    import image_check as ic
    objs = sorted(o for sub in ("boot", "kernel", "trace", "wire", "drivers")
                  for o in glob.glob(os.path.join(ROOT, "build", board, "obj", sub, "**", "*.o"),
                                     recursive=True))
    fp = ic.fp_simd_functions(os.path.join(image_dir, "baretrace.elf"))
    defined, needed = ic.object_symbols(objs)
    own, called = sorted(defined & fp), sorted((needed - defined) & fp)
    res.record("kernel and trace core name no FP/SIMD register but in the saves",
               own == ["exc_common", "trace_fp_call"] and set(called) <= {"strchr"},
               f"own: {own}; library routines with FP/SIMD they call: {called}")


def stage_target(res, board):
    st, out = run(["make", f"BOARD={board}", "APP=test/target"])
    if st != 0:
        res.record("build APP=test/target", False, out)
        return
    image_dir = make_dir(board, "test/target")
    check_fp_free_core(res, board, image_dir)
    for mode in make_var(board, "TEST_BOOTS").split():
        st, out = boot(board, image_dir, mode, "panic=poweroff -- ktest")
        prefix = f"ktap[{mode}]"
        if st is None:
            res.record(f"{prefix}: finished within {QEMU_TIMEOUT}s (hang: QEMU killed)",
                       False, out)
            continue
        parse_ktap(prefix, out, res)
        res.record(f"{prefix}: exit status 0 reaches the host", st == 0, out)


def make_dir(board, app):
    return os.path.join(ROOT, "build", board,
                        "" if app == "examples/demo" else "app-" + app.replace("/", "-"))


# ---- boot scenarios ----------------------------------------------------------

def expect(res, name, st, out, status=0, present=(), absent=()):
    missing = [p for p in present if not re.search(p, out, re.M)]
    found = [p for p in absent if re.search(p, out, re.M)]
    ok = st == status and not missing and not found
    why = (f"exit status {st}, wanted {status}; missing {missing}; unwanted {found}\n"
           + out)
    res.record(name, ok, why)


def stage_boot(res, board):
    st, out = run(["make", f"BOARD={board}"])
    if st != 0:
        res.record("build the demo", False, out)
        return
    demo = make_dir(board, "examples/demo")
    tgt = make_dir(board, "test/target")
    modes = make_var(board, "TEST_BOOTS").split()
    smp = make_var(board, "QEMU_SMP")

    for mode in modes:
        st, out = boot(board, demo, mode, "panic=poweroff")
        cpus = "1" if mode == "smp1" else smp
        present = [rf"^smp: {cpus} CPUs online$", r"^demo: PASS$",
                   r"^baretrace: exit status 0$"]
        if mode == "el2":
            present.append(r"entered at EL2")
        if mode == "uboot":
            present += [r"U-Boot", r"Starting kernel"]
        expect(res, f"demo boots [{mode}] with {cpus} CPUs and exits 0", st, out,
               present=present)

    # Under -icount virtual time advances only by executed instructions:
    # a CPU that spins while waiting for the tick makes the demo crawl
    # (over 100 s with 4 CPUs); idling in WFI lets QEMU skip to the tick.
    filt = open(os.path.join(ROOT, "examples/demo/trace_filter")).read().strip()
    for what, args in [("untraced", ""),
                       ("traced", f"trace=function_graph trace_filter={filt} ")]:
        st, out = boot(board, demo, "icount", f"panic=poweroff {args}", timeout=40)
        expect(res, f"demo under -icount shift=0 with {smp} CPUs, {what}, ends "
               "within 40 s", st, out, present=[
                   rf"^smp: {smp} CPUs online$", r"^demo: samples=48 ",
                   r"^demo: PASS$", r"^baretrace: exit status 0$"])

    st, out = boot(board, tgt, "direct", "panic=poweroff -- crash null")
    expect(res, "a load from an unmapped address prints a crash report naming the function",
           st, out, status=3, present=[
               r"^==== baretrace crash on CPU 0", r"^exception: Data abort .*translation fault",
               r"^ELR .* crash_null_deref\+0x", r"^  #1 .* crash_caller\+",
               r"^  #\d+ .* main\+", r" x29 ", r"^ESR .*FAR 0000000000001000",
               r"^baretrace: exit status 3$"])

    st, out = boot(board, tgt, "direct", "panic=poweroff -- crash textwrite")
    expect(res, "a store into kernel text faults (W^X) and the report names the function",
           st, out, status=3, present=[
               r"permission fault at level \d on write", r"^ELR .* crash_text_write\+0x"],
           absent=[r"crash: survived"])

    st, out = boot(board, tgt, "direct", "panic=poweroff nosuchparam=1 tick_hz=abc -- args")
    expect(res, "an unknown kernel parameter and a bad value are reported, boot goes on",
           st, out, present=[r"unknown kernel parameter 'nosuchparam=1'",
                             r"invalid value in 'tick_hz=abc'", r"tick 100 Hz",
                             r"^args: argc=1 \[args\]$"])

    st, out = boot(board, tgt, "direct",
                   'panic=poweroff tick_hz=250 -- args alpha "beta gamma" -- x')
    expect(res, "bootargs: kernel parameters before --, quoted application words after",
           st, out, present=[r"tick 250 Hz",
                             r"^args: argc=5 \[args\] \[alpha\] \[beta gamma\] \[--\] \[x\]$"])

    st, out = boot(board, tgt, "direct", "panic=poweroff -- ktest smp_call_runs")
    expect(res, "ktest runs only the tests named by prefix", st, out,
           present=[r"^1\.\.1$", r"^ok 1 smp_call_runs_on_the_target_cpu$"])

    st, out = boot(board, tgt, "mttcg", "panic=poweroff -- ktest trace_stress")
    expect(res, "trace stress with truly parallel CPUs (multi-threaded TCG): hits exact",
           st, out, present=[r"^ok 1 trace_stress_register_while_other_cpus_call$"])

    # The cross-CPU races (trace core, ring swaps, FP/SIMD state), with
    # truly parallel CPUs.
    mt_suites = ["trigger_count", "patch_stats", "patch_refused", "grace_period",
                 "buffer_and_clear", "fp_"]
    st, out = boot(board, tgt, "mttcg", "panic=poweroff -- ktest " + " ".join(mt_suites))
    parse_ktap("ktap[mttcg races]", out, res)
    res.record("ktap[mttcg races]: exit status 0", st == 0, out[-3000:])

    st, out = boot(board, tgt, "direct", "panic=poweroff -- printlines")
    lines = [l for l in out.splitlines() if l.startswith("pl ")]
    good = [l for l in lines if re.fullmatch(
        r"pl cpu\d n\d{3} abcdefghijklmnopqrstuvwxyz0123456789", l)]
    want = int(smp) * 200
    res.record(f"printf from {smp} CPUs at once: {want} whole lines, none mixed",
               st == 0 and len(lines) == want and len(good) == want,
               f"{len(lines)} lines, {len(good)} intact\n" + out[-2000:])

    st, out = boot(board, tgt, "direct", "panic=poweroff -- hang", timeout=8)
    res.record("the runner kills a hung guest and reports the hang",
               st is None and "baretrace: exit status" not in out, out)


STAGES = {"host": stage_host, "build": stage_build, "target": stage_target,
          "boot": stage_boot}


# ---- Raspberry Pi --------------------------------------------------------------
# rpi3: QEMU raspi3b runs the Pi code (spin table, watchdog, no DTB) with
# all four CPUs. rpi4: its image and boot files are checked statically
# against the documented addresses here; test/rpi4_qemu.py boots it on
# QEMU raspi4b.

def stage_rpi3(res, board):
    for app in ("examples/demo", "test/target"):
        st, out = run(["make", "BOARD=rpi3", f"APP={app}"])
        if st != 0:
            res.record(f"rpi3: build APP={app}", False, out)
            return
    demo, tgt = make_dir("rpi3", "examples/demo"), make_dir("rpi3", "test/target")
    if board != "rpi3":  # else the target and boot stages ran these on rpi3
        st, out = boot("rpi3", tgt, "direct", "panic=poweroff -- ktest")
        if st is None:
            res.record(f"rpi3 ktap: finished within {QEMU_TIMEOUT}s (hang: QEMU killed)",
                       False, out)
        else:
            parse_ktap("rpi3 ktap", out, res)
            res.record("rpi3 ktap: exit status 0 reaches the host", st == 0, out)
        st, out = boot("rpi3", tgt, "direct", "panic=poweroff -- crash null")
        expect(res, "rpi3: RAM starts at 0, yet a low load faults and is reported", st, out,
               status=3, present=[r"^ELR .* crash_null_deref\+0x",
                                  r"^ESR .*FAR 0000000000001000"])
    st, out = boot("rpi3", demo, "direct", "panic=poweroff")
    expect(res, "rpi3: raspi3b boots the demo at EL2 without a DTB, 4 CPUs by spin table",
           st, out, present=[r"^baretrace: rpi3, entered at EL2, image at 0x200000",
                             r"no valid DTB .* using board defaults",
                             r'^bootargs: "panic=poweroff"$',  # from semihosting
                             r"^smp: 4 CPUs online$", r"^demo: PASS$",
                             r"^baretrace: exit status 0$"])

    # uart_baud=: the divisors for the 48 MHz UART clock are set after the
    # banner and the demo still prints. QEMU's PL011 ignores the divisors,
    # so this shows the parameter is parsed and applied without breaking
    # output, not the line rate (test_pl011_div checks the numbers).
    st, out = boot("rpi3", demo, "direct", "panic=poweroff uart_baud=921600")
    expect(res, "rpi3: uart_baud=921600 switches the PL011 after the banner; output goes on",
           st, out, present=[r"^bootargs: \"panic=poweroff uart_baud=921600\"$",
                             r"^uart: switching to 921600 baud \(IBRD 3, FBRD 16: 923077 baud\)$",
                             r"^uart: now at 921600 baud$", r"^smp: 4 CPUs online$",
                             r"^demo: PASS$", r"^baretrace: exit status 0$"])
    st, out = boot("rpi3", demo, "direct", "panic=poweroff uart_baud=4000000")
    expect(res, "rpi3: uart_baud=4000000 is refused with the reason; the rate stays",
           st, out, present=[r"^uart_baud: 4000000: above 3000000 baud \(UART clock "
                             r"48000000 Hz\); keeping 115200$", r"^demo: PASS$"],
           absent=[r"^uart: switching"])

    # With a device tree, as the Pi firmware always passes one: CPUs from
    # /cpus and their cpu-release-addr, arguments from /chosen, RAM from
    # /memory (which QEMU sets to the 1 GiB less its 64 MiB of video RAM).
    dtb = os.path.join(ROOT, "build", "rpi3", "raspi3b-test.dtb")
    with open(dtb, "wb") as f:
        f.write(pi3_dtb())
    st, out = run(["tools/qemu-run", "--image", os.path.join(demo, "Image"),
                   "--machine", "raspi3b", "--cpu", "cortex-a53", "--smp", "4", "--mem", "1G",
                   "--bootargs", "panic=poweroff tick_hz=250", "--qemu-flags", f"-dtb {dtb}"],
                  timeout=QEMU_TIMEOUT)
    expect(res, "rpi3: with a DTB, RAM, boot arguments and the 4 CPUs come from it",
           st, out.replace("\r", ""),
           present=[r"RAM 0\+3c000000$", r'^bootargs: "panic=poweroff tick_hz=250"$',
                    r"tick 250 Hz", r"^smp: 4 CPUs online$", r"^demo: PASS$"],
           absent=[r"no valid DTB", r"spin-table:"])

    # The VideoCore interrupt controller behind the local one: bytes sent
    # once the guest is ready raise UART0's receive interrupt (ID 153).
    st, out = run(["make", "BOARD=rpi3", "APP=test/uartirq"])
    if st == 0:
        st, out = uart_input_boot(os.path.join(make_dir("rpi3", "test/uartirq"), "Image"),
                                  "uartirq: ready", b"abc")
    expect(res, "rpi3: a byte on the console raises UART0's interrupt through both "
           "controllers", st, out, present=[r"^uartirq: [1-9]\d* interrupts, 3 bytes$"])

    # The watchdog: reset (QEMU -no-reboot turns it into an exit) ...
    st, out = run(["tools/qemu-run", "--image", os.path.join(tgt, "Image"),
                   "--machine", "raspi3b", "--cpu", "cortex-a53", "--smp", "4", "--mem", "1G",
                   "--bootargs", "panic=reset -- crash null", "--qemu-flags", "-no-reboot"],
                  timeout=QEMU_TIMEOUT)
    out = out.replace("\r", "")
    res.record("rpi3: panic=reset resets the board through the PM watchdog",
               st == 0 and "baretrace: reset" in out and out.count("baretrace: rpi3,") == 1
               and "baretrace: exit status" not in out, f"status {st}\n" + out)
    # ... and power-off (RSTS partition 63) with no semihosting to exit by.
    st, out = run(["qemu-system-aarch64", "-M", "raspi3b", "-nographic", "-net", "none",
                   "-accel", "tcg,thread=single", "-kernel", os.path.join(demo, "Image")],
                  timeout=QEMU_TIMEOUT)
    out = out.replace("\r", "")
    res.record("rpi3: without semihosting, power-off through the watchdog stops QEMU",
               st == 0 and "baretrace: exit status 0" in out and "power-off failed" not in out,
               f"status {st}\n" + out)


def pi3_dtb():
    """A device tree shaped like the Pi 3 firmware's (bcm2837.dtsi /cpus,
    one memory bank), in the devicetree specification v0.4 chapter 5
    format; QEMU adds /chosen/bootargs and rewrites /memory."""
    import struct

    strings, st = b"", b""

    def prop(name, value):
        nonlocal strings, st
        key = name.encode() + b"\0"
        if key not in strings:
            strings += key
        st += struct.pack(">III", 3, len(value), strings.index(key))
        st += value + b"\0" * (-len(value) % 4)

    def begin(name):
        nonlocal st
        n = name.encode() + b"\0"
        st += struct.pack(">I", 1) + n + b"\0" * (-len(n) % 4)

    def end():
        nonlocal st
        st += struct.pack(">I", 2)

    def cells(*v):
        return struct.pack(f">{len(v)}I", *v)

    begin("")
    prop("#address-cells", cells(1))
    prop("#size-cells", cells(1))
    prop("compatible", b"raspberrypi,3-model-b\0brcm,bcm2837\0")
    begin("memory@0")
    prop("device_type", b"memory\0")
    prop("reg", cells(0, 0x3b400000))
    end()
    begin("chosen")
    end()
    begin("cpus")
    prop("#address-cells", cells(1))
    prop("#size-cells", cells(0))
    for n in range(4):
        begin(f"cpu@{n}")
        prop("device_type", b"cpu\0")
        prop("compatible", b"arm,cortex-a53\0")
        prop("reg", cells(n))
        prop("enable-method", b"spin-table\0")
        prop("cpu-release-addr", cells(0, 0xd8 + 8 * n))
        end()
    end()
    end()
    st += struct.pack(">I", 9)
    off_rsv = 40
    off_st = off_rsv + 16
    off_str = off_st + len(st)
    total = off_str + len(strings)
    hdr = struct.pack(">10I", 0xd00dfeed, total, off_st, off_str, off_rsv, 17, 16, 0,
                      len(strings), len(st))
    return hdr + b"\0" * 16 + st + strings


def uart_input_boot(image, ready, data):
    """Boots an rpi3 image, sends 'data' on its console once the line
    'ready' appears; returns (status or None on timeout, console text)."""
    cmd = ["qemu-system-aarch64", "-M", "raspi3b", "-nographic", "-net", "none",
           "-accel", "tcg,thread=single", "-semihosting-config", "enable=on,target=native",
           "-kernel", image]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    deadline, text = time.time() + QEMU_TIMEOUT, b""
    try:
        while time.time() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            text += line
            if ready.encode() in line:
                proc.stdin.write(data)
                proc.stdin.flush()
                break
        rest, _ = proc.communicate(timeout=max(1, deadline - time.time()))
        return proc.returncode, (text + rest).decode(errors="replace").replace("\r", "")
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        rest, _ = proc.communicate()
        return None, (text + rest).decode(errors="replace")


# Documented Pi 4 values (board/rpi4/board.h cites the sources), asserted
# here rather than read back from the board data under test.
RPI4_EXPECTED = {"BOARD_PERIPH_BASE": 0xfe000000, "BOARD_UART_BASE": 0xfe201000,
                 "BOARD_UART_CLK_HZ": 48000000, "BOARD_UART_IRQ": 153,
                 "BOARD_GICD_BASE": 0xff841000, "BOARD_GICC_BASE": 0xff842000,
                 "BOARD_TIMER_IRQ": 27, "BOARD_TIMER_HZ_FALLBACK": 54000000,
                 "BOARD_SPIN_RELEASE_ADDRS": [0xd8, 0xe0, 0xe8, 0xf0]}
# Register blocks the code must reach (base, size) and QEMU virt's, which
# it must not (hw/arm/virt.c: GIC distributor and CPU interface 64 KiB
# each, UART 4 KiB).
RPI4_BLOCKS = {"BOARD_UART_BASE": 0x1000, "BOARD_GICD_BASE": 0x1000, "BOARD_GICC_BASE": 0x2000}
VIRT_BLOCKS = {"BOARD_UART_BASE": 0x1000, "BOARD_GICD_BASE": 0x10000, "BOARD_GICC_BASE": 0x10000}


def stage_rpi4(res, board):
    import image_check as ic

    st, out = run(["make", "BOARD=rpi4"])
    d = make_dir("rpi4", "examples/demo")
    files = ["kernel8.img", "config.txt", "cmdline.txt", "boot.scr", "baretrace.lst"]
    missing = [f for f in files if not os.path.exists(os.path.join(d, f))]
    res.record("rpi4: make BOARD=rpi4 writes kernel8.img, config.txt, cmdline.txt, boot.scr",
               st == 0 and not missing, f"missing {missing}\n" + out)
    if st != 0 or missing:
        return

    img = os.path.join(d, "kernel8.img")
    h = ic.arm64_header(img)
    with open(img, "rb") as a, open(os.path.join(d, "Image"), "rb") as b:
        same = a.read() == b.read()
    res.record("rpi4: kernel8.img is the Image with a valid arm64 header (branch, magic, "
               "text_offset 0, size, little endian, 4 KiB, place anywhere)",
               same and h["code0_is_branch"] and h["magic"] == ic.ARM64_MAGIC
               and h["text_offset"] == 0 and h["file_size"] <= h["image_size"]
               and h["image_size"] % 4096 == 0 and h["flags"] == 0b1010, repr(h))

    with open(os.path.join(d, "config.txt")) as f:
        cfg = [l.rstrip("\n") for l in f]
    settings = [i for i, l in enumerate(cfg) if l and not l.startswith("#")]
    bare = [cfg[i] for i in settings if i == 0 or not cfg[i - 1].startswith("#")]
    want = ["arm_64bit=1", "enable_uart=1", "enable_gic=1", "kernel=kernel8.img"]
    res.record("rpi4: config.txt sets arm_64bit, enable_uart, enable_gic, kernel8.img, "
               "each line commented",
               all(w in cfg for w in want) and not bare, f"uncommented {bare}\n" + "\n".join(cfg))

    ok, itype, body = ic.mkimage_script(os.path.join(d, "boot.scr"))
    res.record("rpi4: boot.scr is a U-Boot script that loads kernel8.img and runs booti",
               ok and itype == 6 and b"kernel8.img" in body and b"booti" in body, repr(body[:400]))

    # A card records a trace by default: cmdline.txt holds make run's
    # tracing (function_graph on the demo's trace_filter) unless BOOTARGS=
    # says otherwise, and boot.scr carries the same line.
    with open(os.path.join(ROOT, "examples/demo/trace_filter")) as f:
        demo_filter = f.read().strip()
    st_p, run_args = run(["make", "-s", "BOARD=rpi4", "print-TRACE_ARGS"])

    def cmdline():
        with open(os.path.join(d, "cmdline.txt")) as f:
            return f.read()

    want = f"trace=function_graph trace_filter={demo_filter}\n"
    line = cmdline()
    res.record("rpi4: cmdline.txt holds make run's tracing defaults without BOOTARGS=",
               line == want and line == run_args.strip() + "\n" and
               want.strip().encode() in body, f"cmdline.txt {line!r}, make run {run_args!r}")
    st, out = run(["make", "BOARD=rpi4", "BOOTARGS=uart_baud=921600 trace=function"])
    _, _, body2 = ic.mkimage_script(os.path.join(d, "boot.scr"))
    line = cmdline()
    res.record("rpi4: BOOTARGS= replaces cmdline.txt and boot.scr's arguments",
               st == 0 and line == "uart_baud=921600 trace=function\n" and
               b"uart_baud=921600 trace=function" in body2 and b"function_graph" not in body2,
               f"cmdline.txt {line!r}\n" + out)
    st, out = run(["make", "BOARD=rpi4", "BOOTARGS="])
    line = cmdline()
    res.record("rpi4: BOOTARGS= (empty) leaves cmdline.txt empty: no tracing",
               st == 0 and line == "\n", f"cmdline.txt {line!r}\n" + out)
    run(["make", "BOARD=rpi4"])

    try:
        rpi4, virt = ic.board_constants("rpi4"), ic.board_constants("qemu-virt")
    except Exception as e:  # a board.h that does not compile on the host
        res.record("rpi4: board.h values compile on the host", False, str(e))
        return
    wrong = {k: (rpi4.get(k), v) for k, v in RPI4_EXPECTED.items() if rpi4.get(k) != v}
    res.record("rpi4: board data holds the documented UART, GIC, timer and spin-table values",
               not wrong, f"(board.h, documented): {wrong}")

    refs = ic.referenced_values(os.path.join(d, "baretrace.elf"), os.path.join(d, "baretrace.lst"))
    unused = [k for k, size in RPI4_BLOCKS.items() if not ic.in_window(refs, rpi4[k], size)]
    res.record("rpi4: the image's code reaches the UART and the GIC at the board's addresses",
               not unused, f"no reference into {unused}")

    def virt_refs(values):
        return {k: [hex(v) for v in ic.in_window(values, virt[k], size)]
                for k, size in VIRT_BLOCKS.items() if ic.in_window(values, virt[k], size)}

    found = virt_refs(refs)
    res.record("rpi4: disassembly and data reference no QEMU virt device address",
               not found, f"found {found}")
    # The same check must see them in the qemu-virt image, or it proves nothing.
    st, out = run(["make", "BOARD=qemu-virt"])
    v = make_dir("qemu-virt", "examples/demo")
    control = virt_refs(ic.referenced_values(os.path.join(v, "baretrace.elf"),
                                             os.path.join(v, "baretrace.lst"))) if st == 0 else {}
    res.record("rpi4: the same check finds the virt addresses in the qemu-virt image",
               len(control) == len(VIRT_BLOCKS), f"found only {control}\n" + out[-2000:])


STAGES.update(rpi3=stage_rpi3, rpi4=stage_rpi4)

# ---- kernel protections (qemu-virt) -------------------------------------------
# CPU ids with a CPU that does not start, stack guard pages, SErrors, and
# crash reports while other CPUs print.

def dtb_set_cpu1_cell(blob, prop, value):
    """A copy of the DTB 'blob' whose /cpus/cpu@1 property 'prop' has its
    last 32-bit cell set to 'value', cut to its real size (QEMU pads a
    dumped DTB to 1 MiB, which the kernel takes for no DTB at all).
    Walks the structure block (devicetree specification v0.4 chapter 5)."""
    import struct

    blob = bytearray(blob)
    _, _, off_st, off_str = struct.unpack(">4I", blob[:16])
    size_str, size_st = struct.unpack(">II", blob[32:40])
    pos, path = off_st, []
    while True:
        tok, = struct.unpack(">I", blob[pos:pos + 4])
        pos += 4
        if tok == 1:            # FDT_BEGIN_NODE, name, padded
            end = blob.index(b"\0", pos)
            path.append(blob[pos:end].decode())
            pos = (end + 4) & ~3
        elif tok == 2:          # FDT_END_NODE
            path.pop()
        elif tok == 3:          # FDT_PROP: len, nameoff, value
            ln, nameoff = struct.unpack(">II", blob[pos:pos + 8])
            pos += 8
            name = blob[off_str + nameoff:blob.index(b"\0", off_str + nameoff)]
            if path[1:] == ["cpus", "cpu@1"] and name == prop.encode():
                blob[pos + ln - 4:pos + ln] = struct.pack(">I", value)
                break
            pos = (pos + ln + 3) & ~3
        elif tok == 4:          # FDT_NOP
            continue
        else:
            raise ValueError(f"DTB without /cpus/cpu@1 {prop}")
    total = max(off_st + size_st, off_str + size_str)
    blob[4:8] = struct.pack(">I", total)
    return bytes(blob[:total])


def virt_dtb_with_cpu1_at(mpidr):
    """QEMU virt's own DTB (4 CPUs, 512M) whose cpu@1 names MPIDR 'mpidr'."""
    with open(host_dtb(), "rb") as f:
        blob = dtb_set_cpu1_cell(f.read(), "reg", mpidr)
    path = os.path.join(HOST, "virt-cpu1-%x.dtb" % mpidr)
    with open(path, "wb") as f:
        f.write(blob)
    return path


def qemu_boot(image_dir, bootargs, machine="virt", cpu="cortex-a72", flags="", capture="",
              mem="512M"):
    cmd = ["tools/qemu-run", "--image", os.path.join(image_dir, "Image"),
           "--machine", machine, "--cpu", cpu, "--smp", "4", "--mem", mem,
           "--bootargs", bootargs]
    if flags:
        cmd += ["--qemu-flags", flags]
    if capture:
        cmd += ["--capture", capture]
    st, out = run(cmd, timeout=QEMU_TIMEOUT)
    return st, strip_frames(out) if not capture else out.replace("\r", "")


def crash_report_lines(out):
    """The lines from a crash report's first line to the end of the boot."""
    lines = out.splitlines()
    first = [i for i, l in enumerate(lines) if l.startswith("==== baretrace crash on CPU")]
    return lines[first[0]:] if first else []


def stage_kern(res, board):
    if board != "qemu-virt":
        return
    for app in ("examples/demo", "test/target"):
        st, out = run(["make", f"BOARD={board}", f"APP={app}"])
        if st != 0:
            res.record(f"kern: build APP={app}", False, out)
            return
    demo, tgt = make_dir(board, "examples/demo"), make_dir(board, "test/target")

    # 3.5: cpu@1 names MPIDR 0xf0f, which QEMU has not: CPU_ON fails.
    dtb = virt_dtb_with_cpu1_at(0xf0f)
    st, out = qemu_boot(tgt, "panic=poweroff -- ktest", flags=f"-dtb {dtb}")
    expect(res, "kern: a CPU that does not start: 3 CPUs online, the suite passes",
           st, out, present=[r"^psci: CPU_ON f0f failed", r"^smp: 3 CPUs online$",
                             r"^ok \d+ cpus_online_ids_are_dense$",
                             r"^ok \d+ cpus_every_running_cpu_has_an_id_below_the_count$",
                             r"^ok \d+ cpus_each_cpu_traces$", r"^# ktest: \d+ tests, 0 failed$"],
           absent=[r"^not ok", r"==== baretrace crash"])
    if st is not None:
        parse_ktap("kern: ktap[cpu@1 missing]", out, res)
    # The traced demo under 'baretrace capture': events from CPUs 0, 1, 2.
    st, out = run(["make", "-s", f"BOARD={board}", "host-tools"])
    bt = os.path.join(HOST, "kern-cpu1-missing.bt")
    filt = open(os.path.join(ROOT, "examples/demo/trace_filter")).read().strip()
    st, out = qemu_boot(demo, f"panic=poweroff trace=function_graph trace_filter={filt}",
                        flags=f"-dtb {dtb}", capture=bt)
    rst, report = run([os.path.join(HOST, "baretrace"), "report", bt,
                       "--elf", os.path.join(demo, "baretrace.elf")])
    cpus = sorted(set(re.findall(r"^ *(\d+)\) ", report, re.M)), key=int)
    expect(res, "kern: a CPU that does not start: the demo traced on CPUs 0-2 decodes",
           st if rst == 0 and cpus == ["0", "1", "2"] else f"{st}, report {rst}, CPUs {cpus}",
           out, present=[r"^smp: 3 CPUs online$", r"^demo: PASS$",
                         r"^trace: \d+ events, 0 lost", r"^baretrace: exit status 0$"],
           absent=[r"==== baretrace crash"])

    # A CPU that accepts the start but never arrives: on raspi3b, cpu@1's
    # cpu-release-addr points where no CPU polls. Start-up gives up after
    # 1 s, abandons the slot, and CPU 2 and 3 become ids 1 and 2.
    st, out = run(["make", "BOARD=rpi3", "APP=test/target"])
    if st != 0:
        res.record("kern: rpi3: build APP=test/target", False, out)
    else:
        pdtb = os.path.join(ROOT, "build", "rpi3", "raspi3b-cpu1-unreleased.dtb")
        with open(pdtb, "wb") as f:
            f.write(dtb_set_cpu1_cell(pi3_dtb(), "cpu-release-addr", 0x3000))
        st, out = qemu_boot(make_dir("rpi3", "test/target"), "panic=poweroff -- ktest cpus",
                            machine="raspi3b", cpu="cortex-a53", mem="1G",
                            flags=f"-dtb {pdtb}")
        expect(res, "kern: rpi3: a CPU that never arrives is given up, ids stay dense",
               st, out, present=[r"^smp: CPU 1 did not come up; its id 1 goes to the next$",
                                 r"^smp: 3 CPUs online$", r"^ok \d+ cpus_online_ids_are_dense$",
                                 r"^# ktest: \d+ tests, 0 failed$"])

    # 3.10b: unbounded recursion runs into the guard page below the stack.
    for cpu in ("0", "1"):
        st, out = qemu_boot(tgt, f"panic=poweroff -- overflow {cpu}")
        expect(res, f"kern: unbounded recursion on CPU {cpu} is reported as a stack overflow",
               st, out, status=3, present=[
                   rf"^overflow: recursing on CPU {cpu}$",
                   rf"^==== baretrace crash on CPU {cpu}: stack overflow on CPU {cpu} ",
                   r"^ELR .* recurse[.\w]*\+0x", r"^  #\d+ .* recurse[.\w]*\+0x",
                   r"^==== end of crash report ====$", r"^baretrace: exit status 3$"],
               absent=[r"overflow: survived", r"crash while reporting"])
    # A store into another CPU's guard page with room on the own stack:
    # the report names that CPU and still runs on the emergency stack.
    st, out = qemu_boot(tgt, "panic=poweroff -- guardwrite 2")
    expect(res, "kern: a store into CPU 2's guard page is named a stack overflow on CPU 2",
           st, out, status=3, present=[
               r"^==== baretrace crash on CPU 0: stack overflow on CPU 2 ",
               r"^ELR .* scenario_guardwrite\+0x", r"^==== end of crash report ====$"],
           absent=[r"guardwrite: survived", r"crash while reporting"])

    # 3.10a: a virtual SError from the EL2 stub reaches the crash report;
    # with RAS (cpu max) the stub also sets the syndrome.
    st, out = qemu_boot(tgt, "panic=poweroff -- serror", machine="virt,virtualization=on")
    expect(res, "kern: an SError is reported (kind named, ESR decoded)", st, out, status=3,
           present=[r"^==== baretrace crash on CPU 0: SError \(asynchronous external abort\)"
                    r": uncategorized", r"^exception: SError \(EC 0x2f\)",
                    r"^ESR 00000000be000000 ", r"^ELR .* scenario_serror\+0x"],
           absent=[r"serror: survived"])
    st, out = qemu_boot(tgt, "panic=poweroff -- serror", machine="virt,virtualization=on",
                        cpu="max")
    expect(res, "kern: an SError's RAS syndrome is decoded", st, out, status=3,
           present=[r"^==== baretrace crash on CPU 0: SError \(asynchronous external abort\)"
                    r": asynchronous SError interrupt, restartable \(AET UEO\)",
                    r"^ESR 00000000be000811 "],
           absent=[r"serror: survived"])

    # Crash report in one piece: CPUs 1-3 print without pause while CPU 0
    # crashes. Printing the report before stopping them mixed lines in
    # about one boot in two with truly parallel CPUs (multi-threaded TCG),
    # rarely single-threaded: five parallel boots, then one single.
    for flags in ["-accel tcg,thread=multi"] * 5 + [""]:
        st, out = qemu_boot(tgt, "panic=poweroff -- crashprint", flags=flags)
        report = crash_report_lines(out)
        before = out.split("==== baretrace crash on CPU")[0]
        foreign = [l for l in report if "cp cpu" in l]
        printed = all(f"cp cpu{c} n" in before for c in (1, 2, 3))
        res.record(f"kern: a crash report while 3 CPUs print is not interleaved "
                   f"[{flags or 'single-threaded'}]",
                   st == 3 and printed and report and not foreign
                   and any(l == "==== end of crash report ====" for l in report),
                   f"status {st}, others printed before: {printed}, "
                   f"{len(foreign)} foreign lines in the report: {foreign[:3]}\n" + out[-3000:])


STAGES["kern"] = stage_kern

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import trace_scenarios  # noqa: E402
import input_scenarios  # noqa: E402

UPDATE_GOLDEN = False
STAGES["trace"] = lambda res, board: trace_scenarios.stage_trace(
    sys.modules[__name__], res, board)
STAGES["input"] = lambda res, board: input_scenarios.stage_bad_input(
    sys.modules[__name__], res, board)
import hang_scenarios  # noqa: E402
STAGES["hang"] = lambda res, board: hang_scenarios.stage_hang(
    sys.modules[__name__], res, board)
import reset_scenarios  # noqa: E402
STAGES["reset"] = lambda res, board: reset_scenarios.stage_reset(
    sys.modules[__name__], res, board)
import end_of_run  # noqa: E402
STAGES["endrun"] = lambda res, board: end_of_run.stage_endrun(
    sys.modules[__name__], res, board)
import gdb_check  # noqa: E402
STAGES["gdb"] = lambda res, board: gdb_check.stage_gdb(sys.modules[__name__], res, board)
import rpi_uboot  # noqa: E402
STAGES["rpi-uboot"] = lambda res, board: rpi_uboot.stage_rpi_uboot(
    sys.modules[__name__], res, board)
import rpi4_qemu  # noqa: E402
STAGES["rpi4-qemu"] = lambda res, board: rpi4_qemu.stage_rpi4_qemu(
    sys.modules[__name__], res, board)
STAGES["rpi4-uboot"] = lambda res, board: rpi_uboot.stage_rpi4_uboot(
    sys.modules[__name__], res, board)
import readme_examples  # noqa: E402
STAGES["readme"] = lambda res, board: readme_examples.stage_readme(
    sys.modules[__name__], res, board)
sys.path.insert(0, os.path.join(ROOT, "test", "farm"))
import farm_stage  # noqa: E402
STAGES["farm"] = lambda res, board: farm_stage.stage_farm(sys.modules[__name__], res, board)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--board", default="qemu-virt")
    ap.add_argument("--only", default=",".join(STAGES))
    ap.add_argument("-v", action="store_true")
    ap.add_argument("--update-golden", action="store_true",
                    help="rewrite test/golden files from this run")
    args = ap.parse_args()
    global UPDATE_GOLDEN
    UPDATE_GOLDEN = args.update_golden
    res = Results(args.v)
    t0 = time.time()
    for stage in args.only.split(","):
        if stage not in STAGES:
            print(f"run.py: unknown stage '{stage}' (valid: {', '.join(STAGES)})")
            return 2
        print(f"# stage {stage} ({args.board})", flush=True)
        STAGES[stage](res, args.board)
    print(f"# {time.time() - t0:.0f} s")
    for name in res.failures:
        print(f"# FAILED: {name}")
    print(f"{res.passed} passed, {res.failed} failed")
    return 0 if res.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
