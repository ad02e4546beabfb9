"""test/farm/farm_coverage.py: the farm runners' coverage data, checked
for test/farm/farm_stage.py.

A scenario booted with trace=coverage must leave coverage.info (lcov
data) in its output folder, and the runner must name it in a line
"SCENARIO: coverage N of M functions reached: PATH/coverage.info, ...".
The figures are checked against what the tool did not produce:
- Debian's `lcov --summary` of the file reads the same N of M;
- M is the image's own site count (bt_site_count in the ELF, read with
  binutils as test/host/e2e_coverage.py does), 0 < N <= M;
- main and ktest_run are reached; the ktest function of every case the
  console lists (ktest_fn_NAME for "ok K NAME") is reached, and that of
  every KTEST the sources define and the console does not list is not;
- the scenario_* functions main() calls only for a first argument other
  than "ktest" (and nothing else in test/target calls) are not reached.
Every other scenario leaves no coverage.info and no line, the plain
KTAP runs too: the coverage suite's own tests forget what they ran
(trace_coverage_forget), so their end sends no coverage frames.
"""
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "test", "host"))
from e2e_coverage import image_facts  # noqa: E402
import scenarios as sc  # noqa: E402 (tools/farm, on the path farm_stage.py set)

TARGET = os.path.join(ROOT, "test", "target")


def is_coverage(name):
    return "trace=coverage" in (sc.SCENARIOS[name]["args"] or "")


def result_dirs(runner, out_dir, name):
    """The folders a runner writes a scenario's trace files to."""
    if runner == "run-labgrid":
        return glob.glob(os.path.join(out_dir, name, "test_*"))
    return [os.path.join(out_dir, name)]


def lcov_summary(info):
    """(functions hit, functions) as Debian's lcov counts them."""
    r = subprocess.run(["lcov", "--summary", info], capture_output=True, text=True, timeout=120)
    m = re.search(r"functions\.+: [\d.]+% \((\d+) of (\d+) functions\)", r.stdout + r.stderr)
    return (int(m.group(1)), int(m.group(2))) if m else None


def hits(info):
    """{function: hit count} from the FNDA lines."""
    got = {}
    with open(info) as f:
        for line in f:
            if line.startswith("FNDA:"):
                n, name = line[5:].rstrip("\n").split(",", 1)
                got[name] = int(n)
    return got


def ktest_names():
    names = set()
    for path in glob.glob(os.path.join(TARGET, "*.c")):
        with open(path) as f:
            names |= set(re.findall(r"^KTEST\((\w+)\)", f.read(), re.M))
    return names


def only_other_commands():
    """The scenario_* functions main() calls for a command other than
    ktest and no other file of test/target calls (a definition at the
    start of a line is not a call)."""
    with open(os.path.join(TARGET, "main.c")) as f:
        called = set(re.findall(r"return (scenario_\w+)\(", f.read()))
    others = ""
    for path in glob.glob(os.path.join(TARGET, "*.c")):
        if not path.endswith("/main.c"):
            with open(path) as f:
                others += f.read()
    return {n for n in called
            if not re.search(rf"^[ \t]+.*\b{n}\s*\(", others, re.M)}


def check_functions(res, label, info, console):
    got = hits(info)
    listed = set(re.findall(r"^(?:not ok|ok) \d+ (\w+)", console, re.M))
    defined = ktest_names()
    wrong = [f"ktest_fn_{n}: {got.get('ktest_fn_' + n)}" for n in sorted(defined)
             if got.get("ktest_fn_" + n) != (1 if n in listed else 0)]
    res.record(f"{label}: main, ktest_run and the {len(listed)} cases' ktest functions reached, "
               f"the {len(defined - listed)} other KTESTs' not",
               listed and got.get("main") == 1 and got.get("ktest_run") == 1 and not wrong,
               f"main {got.get('main')} ktest_run {got.get('ktest_run')}; {len(listed)} cases; "
               f"wrong: {wrong[:20]}")
    never = sorted(n for n in only_other_commands() if n in got)
    res.record(f"{label}: the {len(never)} scenario functions of other commands not reached",
               len(never) >= 5 and all(got[n] == 0 for n in never),
               str({n: got[n] for n in never}))


def check_coverage(res, runner, out_dir, name, out, console):
    """One scenario of one runner: its coverage.info as the module says."""
    s = sc.scenario(name, slow_reader=runner == "run-labgrid")
    label = f"farm[{runner}] {name}"
    infos = [p for d in result_dirs(runner, out_dir, name)
             for p in [os.path.join(d, "coverage.info")] if os.path.exists(p)]
    lines = re.findall(rf"^{re.escape(name)}: coverage (\d+) of (\d+) functions reached: "
                       r"(\S+)/coverage\.info, HTML (\S+)$", out, re.M)
    # A plain ktest run holds the coverage suite, whose tests forget what
    # they ran (trace_coverage_forget): no frames, no file.
    if not is_coverage(name):
        res.record(f"{label}: no coverage.info and no coverage line (not a coverage run)",
                   not infos and not lines, f"files {infos}, lines {lines}")
        return
    ok = len(infos) == 1 and len(lines) == 1 and \
        os.path.join(ROOT, lines[0][2], "coverage.info") == infos[0] and \
        os.path.exists(os.path.join(ROOT, lines[0][3]))
    res.record(f"{label}: coverage.info and its HTML written, named in the runner's output", ok,
               f"files {infos}, lines {lines}\n" + out)
    if not ok:
        return
    reached, functions = int(lines[0][0]), int(lines[0][1])
    summary = lcov_summary(infos[0])
    res.record(f"{label}: lcov --summary reads the runner's {reached} of {functions} functions",
               summary == (reached, functions), f"lcov {summary}")
    _, sites = image_facts(s["elf"])
    res.record(f"{label}: one function per site of the image ({sites}), 0 < reached <= sites",
               functions == sites and 0 < reached <= sites, f"{reached} of {functions}")
    check_functions(res, label, infos[0], console)
