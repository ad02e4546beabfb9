"""test/ci_pipeline.py: issue 41 item 4: the example GitLab pipeline
(examples/ci/.gitlab-ci.yml) runs end to end as a user copies it, through
gitlab-ci-local's shell executor (pinned in tools/npm/gitlab-ci-local,
installed by `tools/setup ci` into build/npm/).

A scratch repository laid out as docs/ci.md says a user's is: the
pipeline file at its top, baretrace in baretrace/ (this tree's tracked
files, rsync'd; build/newlib is reused, it is read-only and slow to
build), the demo copied to app/ as the user's application, given three
KTAP tests of its own (run when its first argument is "ktest") and the
coverage minimum they reach (COVERAGE_MIN 10). There:
  bootstrap  the build and perf jobs with no baseline: green, and the perf
             job says to commit its trace, which the test then commits as
             ci/baseline.bt (the docs' recipe for updating the baseline)
  green      the whole pipeline on the unchanged demo: every job passes,
             the KTAP job's log has its suites' summary with 0 failed, the
             coverage gate its figure, the perf gate no function over; the
             published JUnit files: a passed case per KTAP test (as many as
             the summary says) and per function
  red        the build and perf jobs after a commit that gives
             filter_sort_window's loop one more iteration (the same result;
             the KTAP job does not boot the app, so it is not run again, one
             boot of the suites fewer): the pipeline fails, and
             the perf job's log names that function over the gate, and its
             JUnit file fails that function's testcase
The jobs run one at a time (they share the scratch tree's build/).
examples/ci/github-workflow.yml is not run (nothing here runs GitHub
Actions): it must hold the GitLab file's build, boot and gate commands.
"""
import os
import re
import shutil
import subprocess
import tempfile
import xml.etree.ElementTree as ET

GCL = os.path.join("build", "npm", "gitlab-ci-local", "node_modules", ".bin", "gitlab-ci-local")
# The planted regression: the insertion sort starts at 0, one more pass
# of its outer loop that moves nothing.
PLANT_FILE = os.path.join("app", "filter.c")
PLANT_FROM = "for (i = 1; i < n; i++) {"
PLANT_TO = "for (i = 0; i < n; i++) {"
PLANT_FN = "filter_sort_window"
# The JUnit files the jobs publish (paths in the repository, as the YAML says).
KTAP_JUNIT = "baretrace/build/ktap/junit-ktap.xml"
PERF_JUNIT = "baretrace/build/ci/junit-perf.xml"


def git(repo, *args):
    who = ["-c", "user.name=ci", "-c", "user.email=ci@example.invalid"]
    subprocess.run(["git"] + who + list(args), cwd=repo, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


# The user's KTAP suites: the demo given tests of its own, run when its
# first argument is "ktest" (docs/coverage.md: an application's suites).
APP_KTESTS = r"""
#include <stdint.h>
#include "ktest.h"
#include "demo.h"

KTEST(app_checksums_check_values) { csum_init(); KT_EQ(t, csum_selftest(), 0); }
KTEST(app_crc32_of_123456789) { csum_init(); KT_EQ(t, csum_crc32(0, "123456789", 9), 0xcbf43926u); }
KTEST(app_spsc_push_then_pop)
{
	static struct spsc_ring r;
	struct sample s = { 0 }, o;

	spsc_init(&r);
	KT_EQ(t, spsc_push(&r, &s), 0);
	KT_EQ(t, spsc_count(&r), 1);
	KT_EQ(t, spsc_pop(&r, &o), 0);
	KT_EQ(t, spsc_count(&r), 0);
}
"""
KTEST_DISPATCH = ("int main(int argc, char **argv)\n{\n",
                  "int main(int argc, char **argv)\n{\n"
                  "\tif (argc > 0 && !strcmp(argv[0], \"ktest\"))\n"
                  "\t\treturn ktest_run(argc - 1, argv + 1);\n")


def add_ktap(app):
    with open(os.path.join(app, "ktests.c"), "w") as f:
        f.write(APP_KTESTS)
    with open(os.path.join(app, "main.c")) as f:
        src = f.read()
    assert KTEST_DISPATCH[0] in src, "examples/demo/main.c: no main() to add the ktest word to"
    src = src.replace(KTEST_DISPATCH[0], KTEST_DISPATCH[1], 1)
    if "#include <string.h>" not in src:
        src = "#include <string.h>\n" + src
    src = src.replace('#include "demo.h"', '#include "demo.h"\n#include "ktest.h"', 1)
    with open(os.path.join(app, "main.c"), "w") as f:
        f.write(src)
    with open(os.path.join(app, "app.mk"), "a") as f:
        f.write("app-incdirs := $(KERNEL_INCLUDES)\n")


def scratch_repo(h, top):
    """The user's repository under top/repo; returns its path."""
    repo = os.path.join(top, "repo")
    bt = os.path.join(repo, "baretrace")
    os.makedirs(bt)
    files = subprocess.run(["git", "ls-files", "-z"], cwd=h.ROOT, stdout=subprocess.PIPE,
                           check=True).stdout
    subprocess.run(["rsync", "-a", "--ignore-missing-args", "--from0", "--files-from=-", "./",
                    bt + "/"], cwd=h.ROOT, input=files, check=True)
    if os.path.isdir(os.path.join(h.ROOT, "build", "newlib")):
        os.makedirs(os.path.join(bt, "build"))
        subprocess.run(["rsync", "-a", os.path.join(h.ROOT, "build", "newlib"),
                        os.path.join(bt, "build") + "/"], check=True)
    shutil.copytree(os.path.join(h.ROOT, "examples", "demo"), os.path.join(repo, "app"))
    add_ktap(os.path.join(repo, "app"))
    with open(os.path.join(h.ROOT, "examples", "ci", ".gitlab-ci.yml")) as f:
        yml = f.read()
    # As a user sets it: the minimum their suites reach (three tests of
    # the demo reach about 11 % of the image's functions, the kernel's
    # included).
    assert 'COVERAGE_MIN: "60"' in yml, "examples/ci/.gitlab-ci.yml: no COVERAGE_MIN to set"
    with open(os.path.join(repo, ".gitlab-ci.yml"), "w") as f:
        f.write(yml.replace('COVERAGE_MIN: "60"', 'COVERAGE_MIN: "10"', 1))
    with open(os.path.join(repo, ".gitignore"), "w") as f:
        f.write("baretrace/build/\n.gitlab-ci-local/\n")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "firmware with baretrace")
    return repo


def pipeline(h, repo, home, jobs=()):
    """Runs gitlab-ci-local in repo: (status, its output, {job: log})."""
    cmd = [os.path.join(h.ROOT, GCL), "--shell-executor-no-image", "--concurrency", "1",
           "--no-color", "--home", home]
    if jobs:
        cmd += ["--needs"] + list(jobs)
    st, out = h.run(cmd, cwd=repo, timeout=900)
    logs = {}
    outdir = os.path.join(repo, ".gitlab-ci-local", "output")
    for name in os.listdir(outdir) if os.path.isdir(outdir) else ():
        with open(os.path.join(outdir, name), errors="replace") as f:
            logs[name[:-len(".log")] if name.endswith(".log") else name] = f.read()
    return st, out, logs


def junit_root(repo, job, path):
    """The JUnit file job published as an artifact (gitlab-ci-local keeps
    them per job), parsed, or None."""
    try:
        return ET.parse(os.path.join(repo, ".gitlab-ci-local", "artifacts", job, path)).getroot()
    except (OSError, ET.ParseError):
        return None


def junit_cases(repo, job, path):
    """[(testcase name, failed)] of a published JUnit file, or None."""
    root = junit_root(repo, job, path)
    if root is None:
        return None
    return [(c.get("name"), c.find("failure") is not None or c.find("error") is not None)
            for c in root.iter("testcase")]


def junit_failures(repo, job, path):
    """The failed testcases of a published JUnit file with their text."""
    root = junit_root(repo, job, path)
    out = []
    for c in root.iter("testcase") if root is not None else ():
        for f in list(c.findall("failure")) + list(c.findall("error")):
            out.append(f"{c.get('name')}: {f.get('message')}\n{(f.text or '').strip()}")
    return "\n".join(out)


def tail(text, n=40):
    return "\n".join(text.splitlines()[-n:])


def over_names(log):
    """The functions the perf job's diff says grew over the gate."""
    return set(re.findall(r"stats --diff: (\S+) grew more than", log))


def gate_commands(text):
    """The commands of a pipeline file that build, boot and gate (make,
    lcov, stats --diff, the coverage threshold), spaces squeezed, the
    checkout's variable named alike."""
    text = text.replace("$GITHUB_WORKSPACE", "$CI_PROJECT_DIR")
    text = re.sub(r"\\\n\s*", " ", text)
    out = []
    for line in text.splitlines():
        line = re.sub(r"^\s*(- |run: )?", "", line)
        if re.match(r"(make -C baretrace|lcov --summary|baretrace/build/host/baretrace |"
                    r"awk -v p=|pct=)", line):
            out.append(" ".join(line.split()))
    return out


def check_github(h, res):
    """The GitHub workflow runs the GitLab pipeline's commands (nothing
    here runs GitHub Actions; the GitLab file is the one run end to end)."""
    with open(os.path.join(h.ROOT, "examples", "ci", ".gitlab-ci.yml")) as f:
        gitlab = gate_commands(f.read())
    with open(os.path.join(h.ROOT, "examples", "ci", "github-workflow.yml")) as f:
        github = gate_commands(f.read())
    missing = [c for c in gitlab if c not in github]
    res.record(f"pipeline: the GitHub workflow runs the GitLab pipeline's {len(gitlab)} build, "
               "boot and gate commands", len(gitlab) >= 6 and not missing,
               "missing from github-workflow.yml:\n" + "\n".join(missing))


def check(h, res, board):
    gcl = os.path.join(h.ROOT, GCL)
    if not os.access(gcl, os.X_OK) or shutil.which("rsync") is None:
        res.record("pipeline: gitlab-ci-local and rsync are installed (tools/setup ci)", False,
                   f"{GCL} or rsync missing: run tools/setup ci")
        return
    example = os.path.join(h.ROOT, "examples", "ci")
    for name in (".gitlab-ci.yml", "github-workflow.yml"):
        res.record(f"pipeline: examples/ci/{name} is there",
                   os.path.isfile(os.path.join(example, name)), "")
    if not os.path.isfile(os.path.join(example, ".gitlab-ci.yml")):
        return
    if os.path.isfile(os.path.join(example, "github-workflow.yml")):
        check_github(h, res)
    top = tempfile.mkdtemp(prefix="ci_pipeline.")
    home = os.path.join(top, "home")
    os.makedirs(home)
    try:
        repo = scratch_repo(h, top)

        st, out, logs = pipeline(h, repo, home, ["perf"])
        trace = os.path.join(repo, "baretrace", "build", "ci", "trace.bt")
        said = "no ci/baseline.bt yet" in logs.get("perf", "")
        res.record("pipeline: with no baseline, the build and perf jobs pass and the perf job "
                   "says to commit its trace", st == 0 and said and os.path.isfile(trace),
                   f"exit {st}\n{tail(out)}")
        if not os.path.isfile(trace):
            return
        os.makedirs(os.path.join(repo, "ci"))
        shutil.copy2(trace, os.path.join(repo, "ci", "baseline.bt"))
        git(repo, "add", "ci/baseline.bt")
        git(repo, "commit", "-q", "-m", "ci: performance baseline")

        st, out, logs = pipeline(h, repo, home)
        ktap = logs.get("ktap-coverage", "")
        perf = logs.get("perf", "")
        summary = re.search(r"^# ktest: (\d+) tests, (\d+) failed", ktap, re.M)
        cov = re.search(r"^functions reached ([\d.]+) %, minimum (\d+) %", ktap, re.M)
        gate = re.search(r"^make ci: PASS: .*against \S*ci/baseline\.bt.*", perf, re.M)
        kcases = junit_cases(repo, "ktap-coverage", KTAP_JUNIT)
        pcases = junit_cases(repo, "perf", PERF_JUNIT)
        res.record("pipeline: green on the demo: every job passes (build, ktap-coverage, perf)",
                   st == 0 and set(logs) >= {"build", "ktap-coverage", "perf"},
                   f"exit {st}, job logs: {sorted(logs)}\n{tail(out)}")
        res.record("pipeline: green: the KTAP job ran the suites, 0 failed "
                   f"({summary.group(0) if summary else 'no # ktest: line'})",
                   summary is not None and int(summary.group(1)) > 0 and summary.group(2) == "0",
                   junit_failures(repo, "ktap-coverage", KTAP_JUNIT) + "\n" + tail(ktap))
        res.record("pipeline: green: the coverage gate read lcov's figure and it is at least "
                   f"the minimum ({cov.group(0) if cov else 'no figure'})",
                   cov is not None and float(cov.group(1)) >= float(cov.group(2)), tail(ktap))
        res.record("pipeline: green: the perf gate compared with the committed baseline, no "
                   f"function over ({gate.group(0) if gate else 'no make ci: PASS line'})",
                   gate is not None and not over_names(perf), tail(perf))
        res.record(f"pipeline: green: the KTAP job published {KTAP_JUNIT}, a passed testcase per "
                   f"KTAP test ({len(kcases or [])} cases, summary: "
                   f"{summary.group(1) if summary else '?'} tests)",
                   kcases is not None and summary is not None
                   and len(kcases) == int(summary.group(1)) and not any(f for _, f in kcases),
                   f"{kcases and kcases[:5]}")
        res.record(f"pipeline: green: the perf job published {PERF_JUNIT}, every function passed "
                   f"({len(pcases or [])} cases)",
                   bool(pcases) and not any(f for _, f in pcases), f"{pcases and pcases[:5]}")

        path = os.path.join(repo, PLANT_FILE)
        with open(path) as f:
            src = f.read()
        res.record(f"pipeline: the planted regression applies ({PLANT_FILE})",
                   PLANT_FROM in src, "")
        with open(path, "w") as f:
            f.write(src.replace(PLANT_FROM, PLANT_TO))
        git(repo, "commit", "-q", "-a", "-m", f"{PLANT_FN}: one more pass")
        st, out, logs = pipeline(h, repo, home, ["perf"])
        perf = logs.get("perf", "")
        named = over_names(perf)
        failed = sorted(n for n, f in junit_cases(repo, "perf", PERF_JUNIT) or [] if f)
        res.record(f"pipeline: red after the planted extra iteration: the pipeline fails, the "
                   f"perf job names {PLANT_FN} over the gate (it named: "
                   f"{', '.join(sorted(named)) or 'none'})",
                   st not in (0, None) and PLANT_FN in named, f"exit {st}\n{tail(perf)}")
        res.record(f"pipeline: red: the perf job's JUnit file fails {PLANT_FN}'s testcase "
                   f"(failed: {', '.join(failed) or 'none'})", PLANT_FN in failed, "")
    finally:
        shutil.rmtree(top, ignore_errors=True)
