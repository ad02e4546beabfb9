"""test/farm/farm_stage.py: stage "farm" of test/run.py.

Runs baretrace's board-farm integration on QEMU the way a farm would:
tools/farm/run-labgrid (labgrid's pytest plugin, QEMUDriver) and
tools/farm/run-lava (lava-run, no server) over every scenario of
tools/farm/scenarios.py, and checks each runner's verdict: the good
images pass with every KTAP case reported (the full run: as many cases
as test/target defines with KTEST), the demo passes with its trace
report attached; a failing case, a crash and a hang each fail, for the
reason the runner names. The LAVA job files are validated first.
"""
import glob
import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tools", "farm"))
import scenarios as sc  # noqa: E402

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
        m = re.match(r"([a-z-]+): (PASS|FAIL)(.*)$", line)
        if m and m.group(1) in sc.SCENARIOS:
            got[m.group(1)] = (m.group(2), m.group(3))
    return got


def check_runner(run, res, runner, out_dir):
    names = list(sc.SCENARIOS)
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
            if name == "ktap":
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


def stage_farm(run, res, board):
    if board != "qemu-virt":
        print(f"# farm: runs on qemu-virt only (not {board})")
        return
    st, out = run.run([os.path.join(ROOT, "tools", "farm", "run-lava"), "--check"], timeout=300)
    for job in ("qemu-ktap", "qemu-demo", "rpi4-uboot-tftp", "rpi4-firmware-sd"):
        res.record(f"farm[lava] {job}.yaml passes the schema and lava-run --validate",
                   st == 0 and re.search(rf"^{job}\.yaml: valid$", out, re.M) is not None, out)
    check_runner(run, res, "run-labgrid", os.path.join(sc.FARM, "labgrid"))
    check_runner(run, res, "run-lava", os.path.join(sc.FARM, "lava"))
