"""tools/farm/scenarios.py: what the farm runners boot, shared by
run-labgrid and run-lava (and test/farm/farm_stage.py, which checks them).

A scenario is a board, an image (APP), a boot path and boot arguments,
all from the existing test app and demo; no image is built for the farm
alone. The boot paths:
  direct    (qemu-virt) QEMU loads the kernel
  uboot     (qemu-virt) U-Boot loads it: from a disk (labgrid), by TFTP
            (LAVA, the Pi 4 job on a virt stand-in); (rpi4) Debian's
            U-Boot from the SD card, on raspi4b (labgrid only: LAVA's Pi 4
            U-Boot job needs the network, which raspi4b does not model)
  firmware  (rpi4) as the Pi firmware boots an SD card: kernel8.img with
            the DTB and cmdline.txt, on QEMU raspi4b (the stand-in)
'expect' is what a correct runner must conclude: pass, or fail with a
reason word that its output names (hung, crashed, not ok). A run whose
trace holds coverage frames also leaves lcov data (capture_coverage).
"""
import os
import re
import shutil
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build")
FARM = os.path.join(BUILD, "farm")
BOARD = "qemu-virt"
UBOOT_BIN = "/usr/lib/u-boot/qemu_arm64/u-boot.bin"
RUNNERS = ("run-labgrid", "run-lava")


def demo_args():
    with open(os.path.join(ROOT, "examples", "demo", "trace_filter")) as f:
        flt = f.read().strip()
    return f"panic=poweroff trace=function_graph trace_filter={flt}"


# Seconds a hang is given before the runner calls it one: the good runs
# finish in well under this on a loaded 2-core machine.
HANG_S = 10

# Through U-Boot, a part of the suites (the boot path is what differs; the
# direct runs take all of them). ring is among them again: its slow-reader
# cases once failed here (events + lost short of 20000) because the idle
# exporter, started by recorders_, sent blocks the test was counting;
# the ring tests now hold the exporter while they read (ring.h's rule).
UBOOT_SUITES = "cpus smp ring patch recorders trace_"

# The part of the suites the Pi 4's coverage run takes.
COVERAGE_SUITES = "cpus smp ring"

# 'trace=function' at boot leaves a tracer attached to every site, which
# four of the direct-call suite's cases refuse to share: a KTAP run with
# real "not ok" lines and the rest "ok", from the same image.
SCENARIOS = {
    "ktap":        dict(app="test/target", boot="direct", args="panic=poweroff -- ktest", expect="pass"),
    "ktap-uboot":  dict(app="test/target", boot="uboot", args="panic=poweroff -- ktest " + UBOOT_SUITES,
                        expect="pass"),
    # Every suite under trace=coverage (the cases that read a site's own
    # instructions or count the patcher's batches skip while it runs): the
    # runners write the run's lcov data, coverage.info.
    "ktap-coverage": dict(app="test/target", boot="direct",
                          args="panic=poweroff trace=coverage -- ktest", expect="pass"),
    "demo":        dict(app="examples/demo", boot="direct", args=None, expect="pass"),
    "demo-uboot":  dict(app="examples/demo", boot="uboot", args=None, expect="pass"),
    "fail":        dict(app="test/target", boot="direct",
                        args="panic=poweroff trace=function -- ktest direct_", expect="not ok"),
    "crash":       dict(app="test/target", boot="direct", args="panic=poweroff -- crash null", expect="crashed"),
    "crash-uboot": dict(app="test/target", boot="uboot", args="panic=poweroff -- crash null", expect="crashed"),
    "hang":        dict(app="test/target", boot="direct", args="panic=poweroff -- hang", expect="hung"),
    "hang-uboot":  dict(app="test/target", boot="uboot", args="panic=poweroff -- hang", expect="hung"),
    # The Raspberry Pi 4 image on QEMU raspi4b, the stand-in for a Pi in
    # the farm (tools/fetch-qemu's QEMU, board/rpi4/board.mk QEMU_BIN).
    "rpi4-ktap":   dict(board="rpi4", app="test/target", boot="firmware",
                        args="panic=poweroff -- ktest", expect="pass"),
    # coverage on the Pi 4 too, of a part of the suites: the other
    # suites' tests are then functions the run must not reach
    "rpi4-ktap-coverage": dict(board="rpi4", app="test/target", boot="firmware",
                               args="panic=poweroff trace=coverage -- ktest " + COVERAGE_SUITES,
                               expect="pass"),
    "rpi4-demo":   dict(board="rpi4", app="examples/demo", boot="firmware", args=None, expect="pass"),
    "rpi4-ktap-uboot": dict(board="rpi4", app="test/target", boot="uboot",
                            args="panic=poweroff -- ktest " + UBOOT_SUITES, expect="pass",
                            runners=("run-labgrid",)),
    "rpi4-crash":  dict(board="rpi4", app="test/target", boot="firmware",
                        args="panic=poweroff -- crash null", expect="crashed"),
}
GOOD = [name for name, s in SCENARIOS.items() if s["expect"] == "pass"]


def for_runner(runner, names):
    """The scenarios of 'names' that 'runner' has a boot path for."""
    return [n for n in names if runner in SCENARIOS[n].get("runners", RUNNERS)]


def make_var(board, var):
    """A variable as the Makefile sets it for the board (make print-VAR)."""
    out = subprocess.run(["make", "-s", f"BOARD={board}", f"print-{var}"], cwd=ROOT,
                         capture_output=True, text=True).stdout.strip()
    return out.splitlines()[-1] if out else ""


def unavailable(name):
    """Why the scenario's board cannot run here, or None: the rpi4 ones
    need a QEMU with raspi4b (tools/fetch-qemu --check says what is
    missing, as the rpi4-qemu stage reports it)."""
    if SCENARIOS[name].get("board", BOARD) != "rpi4":
        return None
    r = subprocess.run([os.path.join(ROOT, "tools", "fetch-qemu"), "--check"], cwd=ROOT,
                       capture_output=True, text=True)
    return None if r.returncode == 0 else (r.stderr.strip() or "tools/fetch-qemu --check failed")


def scenario(name, slow_reader=False):
    """The scenario with its paths. slow_reader: the runner reads the
    console more slowly than QEMU writes it (labgrid's QEMUDriver socket),
    so a burst of output stalls the writing CPU; the lockup detector
    would take that for a lockup and add its reports to the stream."""
    s = dict(SCENARIOS[name])
    s.setdefault("board", BOARD)
    if s["args"] is None:
        s["args"] = demo_args()
    if slow_reader:
        s["args"] = s["args"].replace("panic=poweroff", "panic=poweroff lockup_ms=0", 1)
    d = os.path.join(BUILD, s["board"], "" if s["app"] == "examples/demo"
                     else "app-" + s["app"].replace("/", "-"))
    s["dir"] = d
    # what the board's loader takes: the Pi firmware loads kernel8.img
    s["image"] = os.path.join(d, "kernel8.img" if s["board"] == "rpi4" else "Image")
    s["elf"] = os.path.join(d, "baretrace.elf")
    s["kind"] = "demo" if s["app"] == "examples/demo" else "ktap"
    return s


def build(names):
    """Builds (or reuses: make is incremental) the images the scenarios
    boot and the host tool that decodes their traces; for rpi4 also
    Debian's DTB and U-Boot (tools/fetch-pi, through the Makefile)."""
    images = sorted({(SCENARIOS[n].get("board", BOARD), SCENARIOS[n]["app"]) for n in names})
    for board, app in images:
        subprocess.run(["make", "-s", f"BOARD={board}", f"APP={app}"], cwd=ROOT, check=True)
    if any(board == "rpi4" for board, _ in images):
        subprocess.run(["make", "-s", "BOARD=rpi4", make_var("rpi4", "RPI_KERNEL_DEB") + "/.fetched",
                        make_var("rpi4", "RPI_UBOOT_DEB")], cwd=ROOT, check=True)
    subprocess.run(["make", "-s", "host-tools"], cwd=ROOT, check=True)


def rpi4_dtb():
    """Debian's bcm2711-rpi-4-b.dtb, the tree the Pi firmware hands over
    (board.mk's QEMU_DTB, as make BOARD=rpi4 run passes it)."""
    dtb = make_var("rpi4", "QEMU_DTB_FILE")
    if not dtb:
        raise SystemExit("no bcm2711-rpi-4-b.dtb in build/debs (tools/fetch-pi fetches it)")
    return os.path.join(ROOT, dtb)


def rpi4_card(s, out_dir, flow):
    """The SD card of 'make BOARD=rpi4 sdcard' for the scenario (its boot
    arguments in cmdline.txt and boot.scr), copied to out_dir/card.img.
    FIRMWARE_DIR holds Debian's bcm2711-rpi-4-b.dtb, the device tree the
    firmware would take from the card, and placeholders for the rest of
    the firmware (RPI_FIRMWARE), which QEMU stands in for."""
    fw = os.path.join(FARM, "rpi4-firmware")
    os.makedirs(fw, exist_ok=True)
    dtb = rpi4_dtb()
    for f in make_var("rpi4", "RPI_FIRMWARE").split():
        if f == os.path.basename(dtb):
            shutil.copyfile(dtb, os.path.join(fw, f))
        else:
            with open(os.path.join(fw, f), "w") as out:
                out.write("placeholder: QEMU raspi4b stands in for the Pi firmware\n")
    subprocess.run(["make", "-s", "BOARD=rpi4", f"APP={s['app']}"] + card_vars(s["args"]) +
                   [f"SDCARD_FLOW={flow}", f"FIRMWARE_DIR={fw}", "sdcard"],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    card = os.path.join(out_dir, "card.img")
    subprocess.run(["cp", "--sparse=always", os.path.join(s["dir"], "sdcard.img"), card], check=True)
    return card


def card_vars(args):
    """make's variables for a card whose cmdline.txt (and boot.scr) is
    exactly 'args': make writes its boot line, panic=poweroff, make
    run's tracing, then BOOTARGS as typed (the Makefile's boot_line), so
    the scenario's leading panic=poweroff is make's, and TRACE= adds no
    tracing of make's own."""
    head = "panic=poweroff"
    if args.split(" ", 1)[0] != head:
        raise ValueError(f"a card's boot line starts with {head}, not {args!r}")
    rest = args[len(head):]
    return ["TRACE=", "BOOTARGS=" + (rest[1:] if rest.startswith(" ") else rest)]


def uboot_word(value):
    """'value' as one word of U-Boot's shell that reads back as 'value'
    ($, ;, quotes and all; tools/uboot-quote, which refuses what no word
    carries)."""
    return subprocess.run([os.path.join(ROOT, "tools", "uboot-quote"), value], check=True,
                          capture_output=True, text=True).stdout.rstrip("\n")


def make_disk(s, out_dir):
    """The U-Boot boot disk (tools/mkdisk: FAT, Image, boot.scr with the
    boot arguments)."""
    disk = os.path.join(out_dir, "disk", "disk.img")
    subprocess.run([os.path.join(ROOT, "tools", "mkdisk"), s["image"], disk, s["args"]],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return disk


def capture_report(raw_path, elf, out_dir):
    """Trace frames in a raw console log -> out_dir/trace.bt and the
    decoded report out_dir/report.txt; returns the report's path or None."""
    tool = os.path.join(BUILD, "host", "baretrace")
    with open(raw_path, "rb") as f:
        if b"\x02" not in f.read():
            return None
    bt = os.path.join(out_dir, "trace.bt")
    subprocess.run([tool, "capture", "--file", raw_path, "-o", bt],
                   stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, timeout=60)
    if not os.path.exists(bt) or os.path.getsize(bt) == 0:
        return None
    rep = os.path.join(out_dir, "report.txt")
    with open(rep, "wb") as f:
        subprocess.run([tool, "report", bt, "--elf", elf], stdout=f,
                       stderr=subprocess.STDOUT, timeout=60)
    return rep


def capture_coverage(bt, elf, out_dir):
    """The coverage frames of a trace (a run with trace=coverage or
    trace_coverage=, or a 'coverage send' at the console) ->
    out_dir/coverage.info, lcov data from 'baretrace coverage', and its
    HTML, out_dir/coverage-html/index.html (Debian's genhtml). Returns
    (functions reached, functions) or None, writing nothing,
    when the trace holds no coverage frames."""
    tool = os.path.join(BUILD, "host", "baretrace")
    info = os.path.join(out_dir, "coverage.info")
    # the tool writes the file whole or not at all; without coverage
    # frames it fails (status 1) and writes nothing
    r = subprocess.run([tool, "coverage", bt, "--elf", elf, "-o", info],
                       capture_output=True, text=True, timeout=120)
    total = re.search(r"^\s+total\s+(\d+)\s+(\d+)", r.stdout, re.M)
    if r.returncode != 0 or "has no coverage frames" in r.stderr or not total:
        if os.path.exists(info):
            os.remove(info)
        return None
    with open(os.path.join(out_dir, "coverage.txt"), "w") as f:  # the per-folder summary
        f.write(r.stdout + r.stderr)
    # the HTML is a convenience: without lcov (tools/setup installs it)
    # the .info is still there, and the runner's line says there is no HTML
    if shutil.which("genhtml"):
        subprocess.run(["genhtml", "-q", "--title", "baretrace", "--prefix", ROOT, "-o",
                        os.path.join(out_dir, "coverage-html"), info],
                       stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, timeout=300)
    return int(total.group(1)), int(total.group(2))


def coverage_line(name, out_dir, reached, functions):
    """The runners' line for a scenario whose trace held coverage."""
    rel = os.path.relpath(out_dir, ROOT)
    html = os.path.join(rel, "coverage-html", "index.html")
    html = html if os.path.exists(os.path.join(ROOT, html)) else "none (no genhtml)"
    return (f"{name}: coverage {reached} of {functions} functions reached: {rel}/coverage.info, "
            f"HTML {html}")
