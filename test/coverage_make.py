"""test/coverage_make.py: `make coverage` as a user runs it (target stage,
qemu-virt): the KTAP suites booted under trace=coverage, the capture
turned into lcov data and genhtml's report in build/coverage/.

The expected figures are not the host tool's: the totals and the
per-folder counts come from the target's own summary on the console
(its bitmap and the link map), the functions that must be reached from
the KTAP lines (every test's ktest_fn_NAME ran, skipped or not), and
the .info is read back by Debian's `lcov --summary` and rendered by
genhtml, whose pages headless chromium loads.
"""
import os
import re
import sys
import tempfile

from harness import ROOT, ktap_failures, run

sys.path.insert(0, os.path.join(ROOT, "test", "host"))
from e2e_coverage import info_files, lcov_summary  # noqa: E402

DIR = os.path.join(ROOT, "build", "coverage")


class Tap:
    """e2e_coverage's checks take a TAP writer; here they record results."""
    def __init__(self, res, prefix):
        self.res, self.prefix = res, prefix

    def ok(self, cond, name, detail=""):
        self.res.record(f"{self.prefix}: {name}", bool(cond), detail)
        return bool(cond)


def target_summary(out):
    """(reached, patchable, {folder: (reached, patchable)}) from the
    target's 'coverage:' lines."""
    m = re.search(r"^coverage: (\d+) of (\d+) functions reached \((\d+) patchable\)", out, re.M)
    folders = {f: (int(r), int(p)) for f, r, _, p in
               re.findall(r"^coverage:\s+(\S+)\s+(\d+) of\s+(\d+) reached,\s+(\d+) patchable",
                          out, re.M)}
    return (int(m.group(1)), int(m.group(3)), folders) if m else (None, None, folders)


def per_folder(files):
    """{top folder: (reached, functions)} of the .info, by source path."""
    got = {}
    for sf, (fnf, fnh, _, _) in files.items():
        rel = os.path.relpath(sf, ROOT)
        top = "app" if rel.startswith("test/target/") else rel.split("/")[0]
        r, n = got.get(top, (0, 0))
        got[top] = (r + fnh, n + fnf)
    return got


def check_make_coverage(res):
    st, out = run(["make", "coverage"], timeout=900)
    out = out.replace("\r", "")
    res.record("make coverage: the KTAP suites pass under trace=coverage, exit 0", st == 0
               and bool(re.search(r"^# ktest: \d+ tests, 0 failed$", out, re.M)),
               out[-3000:] + ktap_failures(out))
    reached, patchable, folders = target_summary(out)
    info = os.path.join(DIR, "coverage.info")
    have = reached is not None and os.path.exists(info)
    res.record("make coverage: the target's summary and build/coverage/coverage.info", have,
               out[-3000:] + ktap_failures(out))
    if not have:
        return
    # The suites' own tracers lose most events (overwrite rounds, clears,
    # buffer changes) and some checks read blocks off the rings
    # themselves: all of it lost on the target, by its own totals. QEMU's
    # line loses nothing, so every event the target says it sent is
    # decoded: 0 lost on the wire (the suites' reads counted as sent
    # showed as thousands lost on the wire).
    from end_of_run import books
    ok, why, fig = books(out)
    res.record("make coverage: the books balance with 0 lost on the wire (QEMU's line loses "
               "nothing; the suites' own losses are the target's)", ok, f"{why} {fig}")
    res.record("make coverage: the coverage summary says the trace's other losses change "
               "nothing (every trace's last coverage set whole)",
               "every trace's last coverage set is whole" in out, out[-2000:])
    files = info_files(info)
    fnf = sum(v[0] for v in files.values())
    fnh = sum(v[1] for v in files.values())
    res.record(f"coverage.info: {fnh} of {fnf} functions, as the target counted "
               f"({reached} of {patchable})", (fnh, fnf) == (reached, patchable))
    res.record(f"lcov --summary agrees: {reached} of {patchable} functions",
               lcov_summary(info) == (patchable, reached), str(lcov_summary(info)))
    mine = per_folder(files)
    res.record("coverage.info per folder equals the target's (kernel, drivers, app)",
               all(mine.get(f) == v for f, v in folders.items()) and folders,
               f"target {folders}; .info {mine}")
    hits = {}
    for _, _, fns, _ in files.values():
        hits.update(fns)
    ran = re.findall(r"^(?:not )?ok \d+ (\w+)", out, re.M)
    unreached = [n for n in ran if not hits.get("ktest_fn_" + n)]
    res.record(f"every KTAP test's function is reached ({len(ran)} tests)",
               ran and not unreached, f"not reached: {unreached[:20]}")
    res.record("a function no test calls is not (test_coverage.c's cv_not_called)",
               hits.get("cv_not_called") == 0, str(hits.get("cv_not_called")))
    check_html(res, info)


def check_html(res, info):
    from e2e_coverage import check_pages
    with tempfile.TemporaryDirectory(prefix="bt-covhtml-") as tmp:
        check_pages(Tap(res, "make coverage's HTML in chromium"), DIR, info, tmp)
