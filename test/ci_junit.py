"""test/ci_junit.py: issue 41 item 3, results CI systems read: a run's
KTAP results (`baretrace ktap LOG --junit FILE`) and the performance
gate's verdicts (`baretrace stats --diff ... --fail-above PCT --junit
FILE`) as JUnit XML, read back by a real consumer: xunit-viewer (npm,
pinned in tools/npm/xunit-viewer, installed by tools/npm-install)
renders each file to HTML, and headless chromium runs that page and
dumps the DOM it built, where each testcase's card, state and failure
text are read.

  ktap        an application of three KTAP tests made here (a folder
              outside the tree): one passes, one fails a KT_EQ, one skips
              with a reason holding <&>. Booted with make run; the tests,
              their verdicts and the failing one's diagnostic are read
              from the console here, and the JUnit file must hold exactly
              those (GitLab's shape: testsuites/testsuite/testcase with
              classname, name, time; failure with message and text);
              exit status 3; the path printed; the consumer shows them.
  crash, hang the same image with the failing test crashing (a store to
              address 0) or hanging (TIMEOUT=20 ends it): a failed testcase
              "run" naming the crash or hang and how many of the planned
              tests reported (read from the console); the consumer shows it.
  gate        two synthetic traces (test/host/e2e_stats_trace.py) where
              one function takes 30 % longer, one is only in OLD, one
              only in NEW: at --fail-above 25 its testcase fails naming
              it, its old and new totals, delta and % (computed here from
              the call tables), the others pass, status 3; at 50 all pass,
              status 0; the consumer shows the failure.
  escaping    a console log made here whose test names and diagnostics
              hold markup, C0 controls, DEL, U+FFFE and bytes that are
              not UTF-8: the file parses as strict XML 1.0 (expat, and
              xmllint), each text reads back with the forbidden bytes
              as \\xNN and the rest intact.
  subtests    a KTAP subtest made here: its cases are of its suite, its
              parent's result line is no case, --suite names the top level.
  bad input   an unwritable FILE (missing folder, a folder), a log with no
              KTAP, a trace file given as the log: status 1, a message
              saying why, no file written (stats --diff: nothing read).
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from ci_junit_read import cases_of, rendered, viewer  # noqa: F401

LIMIT = 240         # seconds a make run may take before it is killed (a failure)

APP_MAIN = r"""
#include <string.h>
#include "ktest.h"

static int crash_in_check;
static volatile int hang_in_check;

KTEST(ci_junit_passes) { KT_EXPECT(t, 1 + 1 == 2); }
KTEST(ci_junit_fails)
{
	if (crash_in_check)
		*(volatile int *)0 = 1;
	while (hang_in_check)
		;
	KT_EQ(t, 2 + 2, 5);
}
KTEST(ci_junit_skips) { ktest_skip(t, "not here <&>"); }

int main(int argc, char **argv)
{
	crash_in_check = argc > 0 && !strcmp(argv[0], "crash");
	hang_in_check = argc > 0 && !strcmp(argv[0], "hang");
	return ktest_run(0, NULL);
}
"""


def make_run(h, board, run_dir, app, bootargs, extra=()):
    return h.run(["make", "-s", f"BOARD={board}", f"RUN_DIR={run_dir}", f"APP={app}", "TRACE=",
                  f"BOOTARGS={bootargs}"] + list(extra) + ["run"], timeout=LIMIT)


def ktap_of(console):
    """What the console says: plan, [(verdict, num, name, directive)], and
    the diagnostic lines before each result, by name."""
    plan = re.search(r"^1\.\.(\d+)$", console, re.M)
    results, diags, pending = [], {}, []
    for line in console.splitlines():
        m = re.match(r"^(ok|not ok) (\d+) (\S+)(?: # (.*))?$", line)
        if m:
            results.append(m.groups())
            diags[m.group(3)] = pending
            pending = []
        elif re.match(r"^\s*# ", line) and not line.startswith("# ktest:"):
            pending.append(line.strip())
    return int(plan.group(1)) if plan else None, results, diags


def check_ktap(h, res, board, exe, tmp, app):
    log, junit = os.path.join(tmp, "ktap.log"), os.path.join(tmp, "ktap.xml")
    st, console = make_run(h, board, os.path.join(tmp, "run"), app, "-- ktest")
    with open(log, "w") as f:
        f.write(console)    # as make printed it (the target's CRLFs too)
    console = console.replace("\r", "")
    plan, results, diags = ktap_of(console)
    failing = [r[2] for r in results if r[0] == "not ok"]
    res.record("ci junit: the planted app's run shows its KTAP (3 tests, 1 failing with a "
               "diagnostic)", plan == 3 and len(results) == 3 and len(failing) == 1
               and diags.get(failing[0]), console[-3000:])
    if len(failing) != 1:
        return
    st, out = h.run([h.HOST + "/baretrace", "ktap", log, "--junit", junit])
    ok = st == 3 and f"junit:  {junit}" in out and os.path.exists(junit)
    res.record("ci junit: ktap --junit exits 3 on a failed test and prints the file's path",
               ok, out)
    if not os.path.exists(junit):
        return
    cases, shape = cases_of(junit)
    want = {r[2]: ("failure" if r[0] == "not ok" else "skipped" if r[3] else "passed")
            for r in results}
    got = {n: c[1] for n, c in cases.items()}
    fail = cases.get(failing[0], (None, None, None, ""))
    skip_reason = [r[3] for r in results if r[3]]
    ok = (shape is None and got == want and fail[3] == "\n".join(diags[failing[0]])
          and all(c[0] == "ktest" for c in cases.values())
          and [c[2] for c in cases.values() if c[1] == "skipped"] == skip_reason)
    res.record("ci junit: one testcase per KTAP test, the failed one with its diagnostic, "
               "the skipped one with its reason; GitLab's shape", ok,
               f"shape: {shape}\nwanted {want}\ngot {cases}\nconsole diag {diags}")
    cards, why = rendered(h, exe, junit, tmp) if exe else (None, "no consumer")
    shown = {c[1]: c[0] for c in cards or []}
    texts = {c[1]: "\n".join(c[2]) for c in cards or []}
    ok = (shown == want and all(d in texts.get(failing[0], "") for d in diags[failing[0]]))
    res.record("ci junit: xunit-viewer in chromium shows each KTAP test with its state and "
               "the failure's diagnostic", ok, f"wanted {want}\n{why}")


def check_end(h, res, board, exe, tmp, app, how):
    """how: crash (a store to 0), or hang (a loop, ended by TIMEOUT= as a
    hang whenever it comes: the verdict does not depend on when)."""
    log, junit = os.path.join(tmp, how + ".log"), os.path.join(tmp, how + ".xml")
    st, console = make_run(h, board, os.path.join(tmp, "run"), app, "-- " + how,
                           ["TIMEOUT=20"] if how == "hang" else [])
    with open(log, "w") as f:
        f.write(console)
    console = console.replace("\r", "")
    plan, results, _ = ktap_of(console)
    end = re.findall(r"baretrace: exit status (\d+) \((\w+)\)", console)
    if not (plan and end and len(results) < plan):
        res.record(f"ci junit: the {how} run ends inside the KTAP plan", False,
                   console[-3000:])
        return
    st, out = h.run([h.HOST + "/baretrace", "ktap", log, "--junit", junit])
    cases, shape = cases_of(junit) if os.path.exists(junit) else ({}, "no file")
    run = cases.get("run", (None, None, "", ""))
    word, code = end[-1][1], end[-1][0]
    ok = (st == 3 and shape is None and run[1] == "failure"
          and f"exit status {code} ({word})" in run[2]
          and f"after {len(results)} of {plan} tests" in run[2]
          and (how != "crash" or "crash report" in (run[3] or ""))
          and len(cases) == len(results) + 1)
    res.record(f"ci junit: a run that ended ({word}) inside the plan gives a failed "
               "testcase 'run' saying so, with the console's last lines", ok,
               f"exit {st}: {out}\n{cases}\nshape {shape}")
    cards, why = rendered(h, exe, junit, tmp) if exe else (None, "no consumer")
    ok = any(c[0] == "failure" and c[1] == "run" and any(word in t for t in c[2])
             for c in cards or [])
    res.record(f"ci junit: xunit-viewer in chromium shows the {how}'s testcase as failed",
               ok, why)


def gate_specs():
    """OLD and NEW call tables (e2e_stats_trace's form) and which name
    is only in which."""
    base = {"ci_steady": [(0, 4000, [])] * 3, "ci_sensor": [(0, 10000, [])] * 4}
    old = dict(base, ci_gone=[(1, 3000, [])] * 2)
    new = dict(base, ci_sensor=[(0, 13000, [])] * 4, ci_fresh=[(1, 2000, [])])
    return old, new


def check_gate(h, res, exe, tmp):
    sys.path.insert(0, os.path.join(h.ROOT, "test", "host"))
    from e2e_stats_trace import raw_trace  # noqa: E402
    old, new = gate_specs()
    order = sorted(set(old) | set(new))
    traces = []
    for name, spec in (("old", old), ("new", new)):
        raw, bt = os.path.join(tmp, name + ".raw"), os.path.join(tmp, name + ".bt")
        with open(raw, "wb") as f:
            f.write(raw_trace(spec, 1000000000, order))
        h.run([h.HOST + "/baretrace", "capture", "--file", raw, "-o", bt])
        traces.append(bt)
    # What the gate must say, from the tables: ci_sensor's total and avg
    # grow 30 % (by 12 us and 3 us, over the 1 us floor); nothing else
    # changes; ci_gone and ci_fresh are in one trace only.
    ot, nt = sum(d for _, d, _ in old["ci_sensor"]), sum(d for _, d, _ in new["ci_sensor"])
    pct = (nt - ot) * 100.0 / ot
    everyone = set(old) | set(new)
    for limit, want_st in ((25, 3), (50, 0)):
        junit = os.path.join(tmp, f"gate{limit}.xml")
        st, out = h.run([h.HOST + "/baretrace", "stats", "--diff"] + traces +
                        ["--fail-above", str(limit), "--junit", junit])
        cases, shape = cases_of(junit) if os.path.exists(junit) else ({}, "no file")
        failed = {n for n, c in cases.items() if c[1] == "failure"}
        over = {"ci_sensor"} if pct > limit else set()
        msg, text = (cases.get("ci_sensor") or (0, 0, "", ""))[2:]
        ok = (st == want_st and shape is None and set(cases) == everyone and failed == over
              and f"junit:  {junit}" in out
              and all(c[0] == "stats-diff" for c in cases.values()))
        if over:
            ok = ok and ("ci_sensor" in msg and f"{pct:+.1f}%" in msg and
                         f"total: old {ot / 1000:.3f} us, new {nt / 1000:.3f} us, delta "
                         f"{(nt - ot) / 1000:+.3f} us, {pct:+.1f}%" in (text or ""))
        res.record(f"ci junit: stats --diff --fail-above {limit} --junit: a testcase per "
                   f"function, {'ci_sensor failed with its figures' if over else 'all pass'}"
                   f", status {want_st}", ok, f"exit {st}\n{out}\n{cases}\nshape {shape}")
        if over:
            cards, why = rendered(h, exe, junit, tmp) if exe else (None, "no consumer")
            ok = ({c[1]: c[0] for c in cards or []} ==
                  {n: "failure" if n in over else "passed" for n in everyone}
                  and any(f"{pct:+.1f}%" in t for c in cards for t in c[2]
                          if c[1] == "ci_sensor"))
            res.record("ci junit: xunit-viewer in chromium shows the gate's failed function",
                       ok, why)
    return traces


def check_escaping(h, res, tmp):
    log, junit = os.path.join(tmp, "esc.log"), os.path.join(tmp, "esc.xml")
    nasty = b"a<b>&\"c\x01\x1b[31m\x7f\xef\xbf\xbe\xff\xc3\x28]]>\xc3\xa9\xe2\x82\xac"
    with open(log, "wb") as f:
        f.write(b"boot chatter\nKTAP version 1\n1..2\n    # diag " + nasty + b"\n"
                b"not ok 1 t_" + nasty + b"\nok 2 plain\nbaretrace: exit status 1\n")
    st, out = h.run([h.HOST + "/baretrace", "ktap", log, "--junit", junit])
    want = ("a<b>&\"c\\x01\\x1b[31m\x7f\\xef\\xbf\\xbe\\xff\\xc3(]]>\u00e9\u20ac")
    try:
        cases, shape = cases_of(junit)
        names = sorted(cases)
        ok = (st == 3 and shape is None and names == sorted(["t_" + want, "plain"])
              and cases["t_" + want][3] == "# diag " + want)
        why = f"{names}\n{cases}"
    except (ET.ParseError, OSError, KeyError) as e:
        ok, why = False, f"{e}"
    if shutil.which("xmllint"):
        xst, xout = h.run(["xmllint", "--noout", junit])
        ok, why = ok and xst == 0, why + f"\nxmllint: {xst} {xout}"
    res.record("ci junit: markup, C0 controls, U+FFFE and bytes that are not UTF-8 in "
               "names and diagnostics give well-formed XML 1.0, each kept as \\xNN", ok,
               f"exit {st}: {out}\n{why}")


def check_subtests(h, res, tmp):
    """A KTAP subtest is a suite of its own; its parent's line no case;
    a log that stops after a complete plan without the final line (a
    capture cut after the tests) adds no "run" case."""
    log, junit = os.path.join(tmp, "nest.log"), os.path.join(tmp, "nest.xml")
    subs = [("ok", "ring_a", ""), ("not ok", "ring_b", "# ring.c:3: expected 1")]
    text = "KTAP version 1\n1..2\n    KTAP version 1\n    # Subtest: ring\n    1..2\n"
    for i, (verdict, name, diag) in enumerate(subs):
        text += (f"    {diag}\n" if diag else "") + f"    {verdict} {i + 1} {name}\n"
    text += "not ok 1 ring\nok 2 top_one # SKIP no board\n"
    with open(log, "w") as f:
        f.write(text)
    st, out = h.run([h.HOST + "/baretrace", "ktap", log, "--junit", junit, "--suite", "app"])
    cases, shape = cases_of(junit) if os.path.exists(junit) else ({}, "no file")
    want = {"ring_a": ("ring", "passed", None, None),
            "ring_b": ("ring", "failure", "not ok 2 ring_b", "# ring.c:3: expected 1"),
            "top_one": ("app", "skipped", "SKIP no board", None)}
    res.record("ci junit: a KTAP subtest is a suite of its own (its parent's line no case); "
               "a complete plan without the final line adds no 'run' case", st == 3 and
               shape is None and cases == want, f"exit {st}: {out}\n{cases}\nshape {shape}")


def check_bad_input(h, res, tmp, traces):
    tool = h.HOST + "/baretrace"
    good_log = os.path.join(tmp, "ktap.log")
    nokt = os.path.join(tmp, "noktap.log")
    with open(good_log) as f, open(nokt, "w") as g:
        g.write("".join(line for line in f if not re.match(
            r"^\s*(KTAP version|1\.\.|ok |not ok |# )", line)))
    missing_dir = os.path.join(tmp, "no-such-folder", "out.xml")
    fresh = os.path.join(tmp, "never.xml")
    cases = [
        ("ktap, FILE in a missing folder", [tool, "ktap", good_log, "--junit", missing_dir],
         r"cannot write the JUnit file .*no-such-folder", missing_dir),
        ("ktap, FILE a folder", [tool, "ktap", good_log, "--junit", tmp],
         r"cannot write the JUnit file .*: a directory", None),
        ("ktap, a log without KTAP", [tool, "ktap", nokt, "--junit", fresh],
         r"no KTAP output in .*noktap\.log", fresh),
        ("ktap, a trace file as the log", [tool, "ktap", traces[0], "--junit", fresh],
         r"is a trace file: trace files hold no console text", fresh),
        ("stats --diff, FILE in a missing folder", [tool, "stats", "--diff"] + traces +
         ["--fail-above", "25", "--junit", missing_dir],
         r"cannot write the JUnit file .*no-such-folder", missing_dir),
    ]
    for name, cmd, said, path in cases:
        st, out = h.run(cmd)
        ok = (st == 1 and re.search(said, out) and (path is None or not os.path.exists(path))
              and "# stats --diff" not in out and "junit:" not in out)
        res.record(f"ci junit: bad input ({name}): status 1, says why, writes nothing", ok,
                   f"exit {st}\n{out}")


def check_make_ci(h, res, board, app):
    """make ci of the planted app: the KTAP results as build/ci's
    junit-ktap.xml, named on make's last line, the verdict a KTAP one."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES")}
    st, out = h.run(["make", f"BOARD={board}", f"APP={app}", "TRACE=", "BOOTARGS=-- ktest", "ci"],
                    timeout=LIMIT, env=env)
    plan, results, _ = ktap_of(out.replace("\r", ""))
    junit = os.path.join(h.ROOT, "build", "ci", "junit-ktap.xml")
    last = out.strip().splitlines()[-1] if out.strip() else ""
    cases = cases_of(junit)[0] if os.path.exists(junit) else {}
    failing = [r[2] for r in results if r[0] == "not ok"]
    ok = (st != 0 and "make ci: FAIL: KTAP:" in last and "JUnit: build/ci/junit-ktap.xml" in last
          and len(failing) == 1 and failing[0] in last
          and sorted(cases) == sorted(r[2] for r in results))
    res.record("ci junit: make ci of an app with a failing KTAP test fails naming it, writes "
               "build/ci/junit-ktap.xml (a testcase per KTAP test) and names the file last",
               ok, f"status {st}; last line {last!r}; cases {sorted(cases)}; KTAP {results}")


def check(h, res, board):
    if board != "qemu-virt":
        return
    st, out = h.run(["make", "-s", "host-tools"], timeout=600)
    if st != 0:
        res.record("ci junit: make host-tools", False, out)
        return
    exe, why = viewer(h)
    res.record("ci junit: the consumer (xunit-viewer, pinned) is installed under build/npm",
               exe is not None, why)
    tmp = tempfile.mkdtemp(prefix="bt-ci-junit-")
    app = os.path.join(tmp, "app")
    os.makedirs(app)
    with open(os.path.join(app, "main.c"), "w") as f:
        f.write(APP_MAIN)
    with open(os.path.join(app, "app.mk"), "w") as f:
        f.write("app-incdirs := $(KERNEL_INCLUDES)\n")
    try:
        check_ktap(h, res, board, exe, tmp, app)
        check_make_ci(h, res, board, app)
        check_end(h, res, board, exe, tmp, app, "crash")
        check_end(h, res, board, exe, tmp, app, "hang")
        traces = check_gate(h, res, exe, tmp)
        check_escaping(h, res, tmp)
        check_subtests(h, res, tmp)
        check_bad_input(h, res, tmp, traces)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(os.path.join(h.ROOT, "build", board,
                                   "app-" + app.replace("/", "-")), ignore_errors=True)
