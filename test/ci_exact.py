"""test/ci_exact.py: issue 41 items 1 and 2: make ci's figures are exact
and stats --diff gates on them (docs/ci.md "Exact runs", "Gating on
performance: stats --diff").

  repeat       two make ci of the demo (with duration histograms): the
               same bytes in trace.bt, stats.txt and hist.txt
  no change    stats --diff of the two: every change 0, nothing added or
               removed, --fail-above 0 exits 0 (and --hist too); make ci
               with the first as CI_BASELINE passes, its last line says so
  one loop     test/apps/ci_regress built with -DCI_EXTRA_LOOP=1 against
               its plain build: make ci fails with verdict 'gate 3', names
               ci_mix alone, with a self delta equal to the loop body's
               instruction count read from the disassembly (objdump), and
               the percentage of the baseline's self
  calls        -DCI_SWAP_CALL=1: ci_helper_new [added] fails the gate as
               newly called, ci_helper_old [removed]
  host time    two host-time make runs of the demo: the diff says host time
               and names make ci; the docs' gates (stats --diff --fail-above
               25, --hist --fail-above 50) pass on them
  refusals     a missing CI_BASELINE, a non-numeric CI_FAIL_ABOVE: make's
               last line says so, nothing boots

Each make is bounded (LIMIT): a hang fails, it does not hang the stage.
"""
import os
import re
import xml.etree.ElementTree as ET
import shutil
import tempfile

LIMIT = 300
HIST = "trace_hist=fsm_step,filter_apply"
APP = "test/apps/ci_regress"


def make(h, board, *args):
    return h.run(["make", "--no-print-directory", f"BOARD={board}", *args], timeout=LIMIT)


def last_line(out):
    lines = [ln for ln in out.strip().splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def read(path):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def keep(h, dst):
    """Copies build/ci/ to dst (the next make ci empties it)."""
    src = os.path.join(h.ROOT, "build", "ci")
    if os.path.isdir(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst)
    return dst


def rows(diff_text):
    """The table rows of a stats --diff: name -> the row's text."""
    out = {}
    for ln in diff_text.splitlines():
        if ln.startswith("#") or not ln.strip():
            continue
        m = re.match(r"\s*(\S+\s+){15}(\S+)", ln)
        if m:
            out[m.group(2)] = ln
    return out


def loop_body(h, board, elf, func):
    """Instructions of func's one loop, from the disassembly: from a
    backward branch's target to the branch, both counted."""
    objdump = h.make_var(board, "OBJDUMP") or "aarch64-linux-gnu-objdump"
    st, dis = h.run([objdump, "-d", "--no-show-raw-insn", elf], timeout=120)
    m = re.search(rf"^[0-9a-f]+ <{func}>:\n(.*?)\n\n", dis, re.S | re.M)
    if st != 0 or not m:
        return None, f"no {func} in {objdump} -d {elf} (status {st})"
    back = []
    for ln in m.group(1).splitlines():
        i = re.match(r"\s*([0-9a-f]+):\s+(b|b\.\w+|cbn?z|tbn?z)\s+(?:\w+,\s*)*(?:#\S+,\s*)?"
                     r"([0-9a-f]+) <", ln)
        if i and int(i.group(3), 16) < int(i.group(1), 16):
            back.append((int(i.group(3), 16), int(i.group(1), 16)))
    if len(back) != 1:
        return None, f"{func}: {len(back)} backward branches, not one:\n{m.group(1)}"
    return (back[0][1] - back[0][0]) // 4 + 1, m.group(1)


def check_repeat(h, res, board, tmp):
    runs = []
    for i in (1, 2):
        st, out = make(h, board, f"BOOTARGS={HIST}", "ci")
        if st != 0:
            res.record(f"ci_exact: make ci of the demo (run {i}) passes", False, out[-3000:])
            return None
        runs.append(keep(h, os.path.join(tmp, f"demo{i}")))
    same = []
    for name in ("trace.bt", "stats.txt", "hist.txt"):
        a, b = (read(os.path.join(r, name)) for r in runs)
        same.append((name, a is not None and a == b, len(a or b"")))
    res.record("ci_exact: two make ci of one build give byte-identical trace.bt, stats.txt, hist.txt",
               all(s for _, s, n in same) and all(n > 8 for _, _, n in same),
               "\n".join(f"{n}: {'same' if s else 'DIFFERENT or missing'} ({k} bytes)"
                         for n, s, k in same))
    return runs


def check_no_change(h, res, board, runs, tmp):
    bt = os.path.join(h.ROOT, "build", "host", "baretrace")
    a, b = (os.path.join(r, "trace.bt") for r in runs)
    st, out = h.run([bt, "stats", "--diff", a, b, "--fail-above", "0"], timeout=120)
    table = rows(out)
    moved = [n for n, ln in table.items()
             if re.findall(r"[+-]\d+\.\d%|\+inf%", ln) or "[" in ln]
    res.record("ci_exact: stats --diff of two make ci: times in instructions, every change 0, "
               "--fail-above 0 exits 0",
               st == 0 and len(table) > 10 and not moved and "times in instructions" in out
               and "0 added, 0 removed" in out,
               out[-3000:] + f"\nstatus {st}; {len(table)} rows; moved: {moved}")
    st, out = h.run([bt, "stats", "--diff", a, b, "--hist", "--fail-above", "0"], timeout=120)
    res.record("ci_exact: stats --diff --hist of them: bounds in instructions, --fail-above 0 "
               "exits 0", st == 0 and "bounds in instructions" in out and "fsm_step" in out,
               out[-2000:] + f"\nstatus {st}")
    base = shutil.copy(a, os.path.join(tmp, "demo-baseline.bt"))
    st, out = make(h, board, f"BOOTARGS={HIST}", f"CI_BASELINE={base}", "ci")
    res.record("ci_exact: make ci CI_BASELINE=(the same build's trace) passes, last line "
               "'make ci: PASS'", st == 0 and last_line(out).startswith("make ci: PASS")
               and read(os.path.join(h.ROOT, "build", "ci", "verdict")) == b"pass 0\n",
               out[-2000:] + f"\nstatus {st}")


def check_regression(h, res, board, tmp):
    st, out = make(h, board, f"APP={APP}", "ci")
    if st != 0:
        res.record("ci_exact: make ci of test/apps/ci_regress passes", False, out[-3000:])
        return
    base = shutil.copy(os.path.join(h.ROOT, "build", "ci", "trace.bt"),
                       os.path.join(tmp, "regress-baseline.bt"))
    base_stats = read(os.path.join(h.ROOT, "build", "ci", "stats.txt")).decode()
    st, out = make(h, board, f"APP={APP}", "APP_CFLAGS=-DCI_EXTRA_LOOP=1",
                   f"CI_BASELINE={base}", "ci")
    _, out_dir = h.run(["make", "-s", f"BOARD={board}", f"APP={APP}", "print-OUT"])
    out_dir = out_dir.strip().splitlines()[-1] if out_dir.strip() else ""
    body, dis = loop_body(h, board, os.path.join(h.ROOT, out_dir, "baretrace.elf"), "ci_mix")
    verdict = read(os.path.join(h.ROOT, "build", "ci", "verdict"))
    diff = (read(os.path.join(h.ROOT, "build", "ci", "diff.txt")) or b"").decode()
    named = re.findall(r"^baretrace: stats --diff: (\S+) grew", out, re.M)
    said = re.search(r"ci_mix grew more than 0%: self \+(\d+) instructions \(\+([\d.]+)%\)", out)
    old_self = re.search(r"^\s*\d+\s+\d+\s+(\d+)\s+\S+\s+\S+\s+ci_mix$", base_stats, re.M)
    pct = f"{int(said.group(1)) * 100 / int(old_self.group(1)):.1f}" if said and old_self else None
    over_rows = [n for n, ln in rows(diff).items() if "[over" in ln]
    res.record("ci_exact: one more loop iteration in ci_mix: make ci fails (verdict gate 3) "
               "naming ci_mix alone, self + the loop body's instructions (objdump) and its %",
               st != 0 and verdict == b"gate 3\n" and named == ["ci_mix"] and
               over_rows == ["ci_mix"] and body is not None and said is not None and
               int(said.group(1)) == body and said.group(2) == pct and
               "ci_mix" in last_line(out) and "exit status 3" in last_line(out),
               out[-2500:] + f"\nstatus {st}; verdict {verdict}; named {named}; rows over "
               f"{over_rows}; loop body {body} instructions; said "
               f"{said.group(0) if said else None}; expected % {pct}\n{dis}")
    res.record("ci_exact: the callers of ci_mix (ci_run, main) are marked [inherited], not over",
               all("[inherited" in rows(diff).get(f, "") for f in ("ci_run", "main")), diff[-2500:])
    # The gate's JUnit file: ci_mix alone failed, with the delta above;
    # every other function of the diff a passing testcase.
    junit = os.path.join(h.ROOT, "build", "ci", "junit-perf.xml")
    cases = {}
    if os.path.exists(junit):
        for tc in ET.parse(junit).getroot().iter("testcase"):
            fail = tc.find("failure")
            cases[tc.get("name")] = None if fail is None else (fail.get("message") or "")
    failed = {n: m for n, m in cases.items() if m is not None}
    res.record("ci_exact: make ci names build/ci/junit-perf.xml last; in it ci_mix alone failed, "
               "its message the self delta in instructions, every row of the diff a testcase",
               "JUnit: build/ci/junit-perf.xml" in last_line(out) and list(failed) == ["ci_mix"]
               and said is not None and f"+{said.group(1)} instructions" in (
                   failed["ci_mix"] + ET.tostring(ET.parse(junit).getroot(), "unicode")
                   if failed else "") and set(rows(diff)) <= set(cases),
               f"last line {last_line(out)!r}; failed {failed}; cases {sorted(cases)}; "
               f"diff rows {sorted(rows(diff))}")
    st, out = make(h, board, f"APP={APP}", "APP_CFLAGS=-DCI_SWAP_CALL=1",
                   f"CI_BASELINE={base}", "ci")
    diff = (read(os.path.join(h.ROOT, "build", "ci", "diff.txt")) or b"").decode()
    table = rows(diff)
    res.record("ci_exact: a call that appears ([added], fails: newly called) and one that "
               "goes ([removed]) are reported",
               st != 0 and "[added]" in table.get("ci_helper_new", "") and
               "[removed]" in table.get("ci_helper_old", "") and
               re.search(r"ci_helper_new grew more than 0%: newly called: 8 calls", out) and
               re.findall(r"^baretrace: stats --diff: (\S+) grew", out, re.M) == ["ci_helper_new"],
               out[-2500:] + f"\nstatus {st}")


def check_host_time(h, res, board, tmp):
    traces = []
    for i in (1, 2):
        run_dir = os.path.join("build", "ci-test", f"host{i}")
        st, out = make(h, board, f"RUN_DIR={run_dir}", f"BOOTARGS={HIST}", "run")
        if st != 0:
            res.record(f"ci_exact: host-time make run {i} passes", False, out[-3000:])
            return
        traces.append(os.path.join(h.ROOT, run_dir, "trace.bt"))
    bt = os.path.join(h.ROOT, "build", "host", "baretrace")
    st, out = h.run([bt, "stats", "--diff", *traces, "--fail-above", "25"], timeout=120)
    res.record("ci_exact: stats --diff of two host-time make runs says host time and make ci, "
               "and --fail-above 25 (docs/host-tool.md) passes",
               st == 0 and "host time" in out and "make ci" in out, out[-3000:] + f"\nstatus {st}")
    st, out = h.run([bt, "stats", "--diff", *traces, "--hist", "--fail-above", "50"], timeout=120)
    res.record("ci_exact: stats --diff --hist --fail-above 50 (README, docs/histograms.md) "
               "passes on them", st == 0 and "host time" in out, out[-3000:] + f"\nstatus {st}")


def check_refusals(h, res, board, tmp):
    ci_dir = os.path.join(h.ROOT, "build", "ci")
    before = read(os.path.join(ci_dir, "verdict"))
    missing = os.path.join(tmp, "no-such-baseline.bt")
    st, out = make(h, board, f"CI_BASELINE={missing}", "ci")
    st2, out2 = make(h, board, "CI_FAIL_ABOVE=five", "ci")
    res.record("ci_exact: a missing CI_BASELINE and CI_FAIL_ABOVE=five are refused as make's "
               "last line, before any build or boot (build/ci untouched)",
               st != 0 and "no such file" in last_line(out) and st2 != 0 and
               "CI_FAIL_ABOVE='five'" in last_line(out2) and "QEMU" not in out + out2 and
               "CC " not in out + out2 and read(os.path.join(ci_dir, "verdict")) == before,
               out + f"\nstatus {st}\n" + out2 + f"\nstatus {st2}")


def check(h, res, board):
    tmp = tempfile.mkdtemp(prefix="ci_exact.")
    try:
        check_refusals(h, res, board, tmp)
        runs = check_repeat(h, res, board, tmp)
        if runs:
            check_no_change(h, res, board, runs, tmp)
        check_regression(h, res, board, tmp)
        check_host_time(h, res, board, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
