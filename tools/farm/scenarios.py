"""tools/farm/scenarios.py: what the farm runners boot, shared by
run-labgrid and run-lava (and test/farm/stage.py, which checks them).

A scenario is an image (APP), a boot path (direct: QEMU loads the kernel;
uboot: U-Boot loads it) and boot arguments, all from the existing test
app and demo; no image is built for the farm alone. 'expect' is what a
correct runner must conclude: pass, or fail with a reason word that its
output names (hung, crashed, not ok).
"""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.path.join(ROOT, "build")
FARM = os.path.join(BUILD, "farm")
BOARD = "qemu-virt"
UBOOT_BIN = "/usr/lib/u-boot/qemu_arm64/u-boot.bin"


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

# 'trace=function' at boot leaves a tracer attached to every site, which
# four of the direct-call suite's cases refuse to share: a KTAP run with
# real "not ok" lines and the rest "ok", from the same image.
SCENARIOS = {
    "ktap":        dict(app="test/target", boot="direct", args="panic=poweroff -- ktest", expect="pass"),
    "ktap-uboot":  dict(app="test/target", boot="uboot", args="panic=poweroff -- ktest " + UBOOT_SUITES,
                        expect="pass"),
    "demo":        dict(app="examples/demo", boot="direct", args=None, expect="pass"),
    "demo-uboot":  dict(app="examples/demo", boot="uboot", args=None, expect="pass"),
    "fail":        dict(app="test/target", boot="direct",
                        args="panic=poweroff trace=function -- ktest direct_", expect="not ok"),
    "crash":       dict(app="test/target", boot="direct", args="panic=poweroff -- crash null", expect="crashed"),
    "crash-uboot": dict(app="test/target", boot="uboot", args="panic=poweroff -- crash null", expect="crashed"),
    "hang":        dict(app="test/target", boot="direct", args="panic=poweroff -- hang", expect="hung"),
    "hang-uboot":  dict(app="test/target", boot="uboot", args="panic=poweroff -- hang", expect="hung"),
}
GOOD = [name for name, s in SCENARIOS.items() if s["expect"] == "pass"]


def scenario(name, slow_reader=False):
    """The scenario with its paths. slow_reader: the runner reads the
    console more slowly than QEMU writes it (labgrid's QEMUDriver socket),
    so a burst of output stalls the writing CPU; the lockup detector
    would take that for a lockup and add its reports to the stream."""
    s = dict(SCENARIOS[name])
    if s["args"] is None:
        s["args"] = demo_args()
    if slow_reader:
        s["args"] = s["args"].replace("panic=poweroff", "panic=poweroff lockup_ms=0", 1)
    d = os.path.join(BUILD, BOARD, "" if s["app"] == "examples/demo"
                     else "app-" + s["app"].replace("/", "-"))
    s["image"] = os.path.join(d, "Image")
    s["elf"] = os.path.join(d, "baretrace.elf")
    s["kind"] = "demo" if s["app"] == "examples/demo" else "ktap"
    return s


def build(names):
    """Builds (or reuses: make is incremental) the images the scenarios
    boot and the host tool that decodes their traces."""
    apps = sorted({SCENARIOS[n]["app"] for n in names})
    for app in apps:
        subprocess.run(["make", "-s", f"BOARD={BOARD}", f"APP={app}"], cwd=ROOT, check=True)
    subprocess.run(["make", "-s", "host-tools"], cwd=ROOT, check=True)


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
