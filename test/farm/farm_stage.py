"""test/farm/farm_stage.py: stage "farm" of test/run.py.

Runs baretrace's board-farm integration on QEMU the way a farm would:
tools/farm/run-labgrid (labgrid's pytest plugin, QEMUDriver) and
tools/farm/run-lava (lava-run, no server) over every scenario of
tools/farm/scenarios.py each runner has a boot path for, and checks each
runner's verdict: the good images pass with every KTAP case reported
(the full run: as many cases as test/target defines with KTEST), the
demo passes with its trace report attached; a failing case, a crash and
a hang each fail, for the reason the runner names. The Raspberry Pi 4
scenarios run on QEMU raspi4b, the stand-in for a Pi (labgrid's
qemu-rpi4*.yaml; LAVA's rpi4-firmware-sd.yaml on devices/
rpi4-raspi4b-standin.jinja2); their console must also show the path:
the rpi4 kernel on raspi4b with the DTB's devices, the scenario's boot
arguments (from the card, for LAVA and U-Boot), U-Boot's banner for the
U-Boot flow. Without tools/fetch-qemu's QEMU they are left out and one
failure names what is missing. The LAVA job files are validated first.
A scenario run with trace=coverage leaves coverage.info, whose figures
test/farm/farm_coverage.py checks; every other scenario leaves none.
"""
import glob
import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "farm"))
import scenarios as sc  # noqa: E402
from farm_coverage import check_coverage  # noqa: E402

RUNNER_TIMEOUT = 900


def ktest_count():
    """How many tests test/target defines: counted in its sources, not
    taken from any run."""
    n = 0
    for path in glob.glob(os.path.join(ROOT, "test", "target", "*.c")):
        with open(path) as f:
            n += len(re.findall(r"^KTEST\(", f.read(), re.M))
    return n


def verdicts(out):
    """{scenario: (PASS|FAIL, rest of the line)} from a runner's output."""
    got = {}
    for line in out.splitlines():
        m = re.match(r"([a-z0-9-]+): (PASS|FAIL)(.*)$", line)
        if m and m.group(1) in sc.SCENARIOS:
            got[m.group(1)] = (m.group(2), m.group(3))
    return got


def console_of(runner, out_dir, name, kind):
    """The raw console a runner kept for a scenario, as text."""
    path = os.path.join(out_dir, name, *(["test_" + kind] if runner == "run-labgrid" else []),
                        "console.raw")
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError:
        return ""
    return re.sub(rb"\x02[^\x03]*\x03", b"", raw).decode(errors="replace").replace("\r", "")


def check_rpi4_path(res, runner, out_dir, name):
    """The boot went the way the scenario says, on the raspi4b stand-in."""
    s = sc.scenario(name, slow_reader=runner == "run-labgrid")
    text = console_of(runner, out_dir, name, s["kind"])
    got = re.search(r'^bootargs: "(.*)"$', text, re.M)
    want = [r"^baretrace: rpi4, entered at EL2", r"^uart0: [0-9a-f]+ \(DTB serial@",
            r"^gicd: [0-9a-f]+ \(DTB "]
    if s["boot"] == "uboot":
        want += [r"^U-Boot 20\d\d\.\d\d", r"^RPI 4 Model B"]
    missing = [w for w in want if not re.search(w, text, re.M)]
    where = "the card's cmdline.txt" if runner == "run-lava" else \
        "the card's boot.scr" if s["boot"] == "uboot" else "boot_args"
    res.record(f"farm[{runner}] {name}: the rpi4 kernel on raspi4b"
               + (" through U-Boot from the SD card" if s["boot"] == "uboot" else "")
               + f", devices from the DTB, boot arguments from {where}",
               not missing and got is not None and got.group(1) == s["args"],
               f"missing {missing}; kernel's bootargs {got.group(1) if got else None!r}, "
               f"the scenario's {s['args']!r}\n" + text[-1500:])


def check_runner(run, res, runner, out_dir, names):
    names = sc.for_runner(runner, names)
    t0 = time.time()
    st, out = run.run([os.path.join(ROOT, "tools", "farm", runner)] + names,
                      timeout=RUNNER_TIMEOUT)
    print(f"# {runner}: {time.time() - t0:.0f} s", flush=True)
    if st is None:
        res.record(f"farm[{runner}]: finishes within {RUNNER_TIMEOUT} s", False, out)
        return
    got = verdicts(out)
    full = ktest_count()
    for name in names:
        s = sc.SCENARIOS[name]
        verdict, rest = got.get(name, (None, ""))
        label = f"farm[{runner}] {name} ({s['boot']})"
        if s["expect"] == "pass":
            ok = verdict == "PASS"
            if s["args"] and re.search(r"-- ktest$", s["args"]):   # every suite
                m = re.search(r", (\d+) KTAP cases", rest)
                ok &= bool(m) and int(m.group(1)) == full
                label += f": passes with all {full} KTAP cases reported"
            elif s["app"] == "test/target":
                ok &= bool(re.search(r", [1-9]\d* KTAP cases", rest))
                label += ": passes with its KTAP cases reported"
            else:
                rep = os.path.join(out_dir, name, *(["test_demo"] if runner == "run-labgrid" else []),
                                   "report.txt")
                ok &= os.path.exists(rep) and "# tracer: function_graph" in open(rep, errors="replace").read(200)
                label += ": demo passes, its trace decoded into report.txt"
        else:
            ok = verdict == "FAIL" and re.search(rf"\({re.escape(s['expect'])}", rest) is not None
            label += f": fails, naming '{s['expect']}'"
        res.record(label, ok, f"verdict {verdict}{rest}\n" + out)
        if s.get("board") == "rpi4":
            check_rpi4_path(res, runner, out_dir, name)
        kind = "demo" if s["app"] == "examples/demo" else "ktap"
        check_coverage(res, runner, out_dir, name, out, console_of(runner, out_dir, name, kind))


def stage_farm(run, res, board):
    if board != "qemu-virt":
        print(f"# farm: runs on qemu-virt only (not {board})")
        return
    st, out = run.run([os.path.join(ROOT, "tools", "farm", "run-lava"), "--check"], timeout=300)
    for job in ("qemu-ktap", "qemu-demo", "rpi4-uboot-tftp", "rpi4-firmware-sd"):
        res.record(f"farm[lava] {job}.yaml passes the schema and lava-run --validate",
                   st == 0 and re.search(rf"^{job}\.yaml: valid$", out, re.M) is not None, out)
    names = list(sc.SCENARIOS)
    st, out = run.run([os.path.join(ROOT, "tools", "fetch-qemu"), "--check"])
    if st != 0:
        res.record("farm: a QEMU with the raspi4b machine for the Raspberry Pi 4 stand-in "
                   "(tools/setup runs tools/fetch-qemu); the rpi4 scenarios are left out",
                   False, out)
        names = [n for n in names if sc.SCENARIOS[n].get("board") != "rpi4"]
    check_runner(run, res, "run-labgrid", os.path.join(sc.FARM, "labgrid"), names)
    check_runner(run, res, "run-lava", os.path.join(sc.FARM, "lava"), names)
