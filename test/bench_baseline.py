#!/usr/bin/env python3
"""test/bench_baseline.py: make bench's figures held to a committed
baseline, test/bench/baseline.json (issue 38).

Every figure make bench writes repeats exactly (test/bench_repeat.py), so
any move is a change in the tree, not noise. The boot stage compares a
fresh run with the baseline; a figure fails when it is worse than its
baseline by more than LIMIT_PCT, or better by more than LIMIT_PCT (the
baseline, and the figures the docs quote, must follow the tree: update it
in the commit that made the change, with make bench-baseline), or, for a
count or a setting, when it moved at all. A figure in the baseline that
the run no longer writes fails, and so does a new one the baseline lacks.

Figures: each top-level build/bench/*.json file, its nested objects and
lists flattened to dotted names ("callops.rows.10.overhead_insns");
numbers only (true/false and strings are checks and labels, not figures).

Which way is better, by name; the first rule that matches wins:

  *_per_s, *_per_s_*  higher  a rate (events a second over a line)
  ringsize.*events    higher  what a ring holds of a run
  *lost               lower   events lost
  *insns*             lower   instructions: a cost
  *slowdown*          lower   a slowdown factor
  *bytes*             lower   a size
  *                   equal   a count or a setting (calls, sites,
                              functions, events, frames, rows' relevant
                              and irrelevant tracers, ram_mib): the same
                              work must be measured, so it must not move

A new key that matches none of the cost or rate rules is held equal: the
strictest rule until someone names its direction here.

Not held (EXCLUDED_FILES): build/bench files that make bench does not
write. No make bench figure is excluded for being inexact: under -icount
each repeats byte for byte, and bench_repeat fails the stage if one
stops doing so.

Usage:
  python3 test/bench_baseline.py check DIR [--baseline FILE] [--board B]
  python3 test/bench_baseline.py update DIR [--baseline FILE] [--board B]
                                    [--written-after STAMP]
check exits 1 when a figure fails; update writes FILE (default
test/bench/baseline.json) from DIR's figures (with --written-after, only
from files newer than STAMP: make bench-baseline's own run).
"""
import fnmatch
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASELINE = os.path.join(ROOT, "test", "bench", "baseline.json")
BASELINE_REL = "test/bench/baseline.json"
LIMIT_PCT = 0.5

LOWER, HIGHER, EQUAL = "lower", "higher", "equal"
RULES = [
    ("*_per_s", HIGHER),
    ("*_per_s_*", HIGHER),
    ("ringsize.*events", HIGHER),
    ("*lost", LOWER),
    ("*insns*", LOWER),
    ("*slowdown*", LOWER),
    ("*bytes*", LOWER),
    ("*", EQUAL),
]

# Files in build/bench that make bench does not write, with the reason.
EXCLUDED_FILES = {
    "host.json": "make bench-host's host-tool timings: wall-clock seconds, never exact",
    "anchor.json": "make bench-anchor's Debian kernel figures, not make bench's",
}


def direction(name):
    for pattern, way in RULES:
        if fnmatch.fnmatchcase(name, pattern):
            return way
    return EQUAL


def flatten(value, prefix, out):
    """Numbers of a JSON value under dotted names into out."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return out
    if isinstance(value, (int, float)):
        out[prefix] = value
    elif isinstance(value, dict):
        for k, v in value.items():
            flatten(v, f"{prefix}.{k}", out)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            flatten(v, f"{prefix}.{i}", out)
    return out


def read_figures(bench_dir, written_after=None):
    """{"tracers.function_event_insns": 53.05, ...} from DIR's *.json;
    with written_after (a time), only files written since: build/bench
    keeps files of earlier runs that this run may no longer write."""
    figures = {}
    for name in sorted(os.listdir(bench_dir)):
        path = os.path.join(bench_dir, name)
        if not name.endswith(".json") or name in EXCLUDED_FILES or not os.path.isfile(path):
            continue
        if written_after is not None and os.path.getmtime(path) < written_after:
            print(f"{path}: left out, older than this make bench", file=sys.stderr)
            continue
        with open(path) as f:
            flatten(json.load(f), name[:-len(".json")], figures)
    return figures


def tool_versions(board):
    """The compiler and QEMU that made the figures (first line of each
    --version): a baseline from another toolchain differs for that
    reason alone, and the check says so."""
    def first_line(cmd):
        try:
            out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True,
                                 timeout=60).stdout
        except (OSError, subprocess.SubprocessError):
            return "unknown"
        return out.strip().splitlines()[0] if out.strip() else "unknown"
    cc = first_line(["make", "-s", "--no-print-directory", f"BOARD={board}", "print-CC"])
    qemu = first_line(["make", "-s", "--no-print-directory", f"BOARD={board}", "print-QEMU_BIN"])
    return {"cc": first_line([cc, "--version"]) if cc != "unknown" else cc,
            "qemu": first_line([qemu if qemu != "unknown" else "qemu-system-aarch64",
                                "--version"])}


def write_baseline(bench_dir, board, path=BASELINE, versions=None, written_after=None):
    figures = read_figures(bench_dir, written_after)
    if not figures:
        raise ValueError(f"no make bench figures in {bench_dir}: the baseline stays as it was")
    files = {}
    for name, value in figures.items():
        file, key = name.split(".", 1)
        files.setdefault(file + ".json", {})[key] = value
    doc = {"about": "make bench's figures, held by the boot stage (test/bench_baseline.py, "
                    "docs/tests.md); write it with make bench-baseline, never by hand",
           "board": board,
           "made_with": versions if versions is not None else tool_versions(board),
           "files": files}
    with open(path, "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True)
        f.write("\n")
    return len(figures)


def read_baseline(path=BASELINE):
    with open(path) as f:
        doc = json.load(f)
    figures = {}
    for file, keys in doc["files"].items():
        for key, value in keys.items():
            figures[file[:-len(".json")] + "." + key] = value
    return doc, figures


def set_by(path=BASELINE):
    """The commit that set the baseline: a file cannot hold its own
    commit's hash, so git log says which commit last wrote it."""
    where = os.path.dirname(os.path.abspath(path))
    try:
        log = subprocess.run(["git", "log", "-1", "--format=%h %s", "--", path], cwd=where,
                             capture_output=True, text=True, timeout=60)
        dirty = subprocess.run(["git", "diff", "--quiet", "HEAD", "--", path], cwd=where,
                               capture_output=True, timeout=60).returncode
    except (OSError, subprocess.SubprocessError):
        return "uncommitted"
    commit = log.stdout.strip()
    if log.returncode != 0 or not commit:
        return "uncommitted"
    if len(commit) > 80:
        commit = commit[:77] + "..."
    return f"uncommitted (last committed in {commit})" if dirty else commit


def pct(base, new):
    if base == new:
        return 0.0
    if base == 0:
        return float("inf") if new > base else float("-inf")
    return (new - base) * 100.0 / abs(base)


def compare(baseline, fresh, limit=LIMIT_PCT):
    """Findings [(kind, name, base, new)] of fresh's figures against
    baseline's; kind is worse, improved, changed, missing or new. Figures
    within limit percent (or, held equal, unchanged) give none."""
    findings = []
    for name in sorted(set(baseline) | set(fresh)):
        if name not in fresh:
            findings.append(("missing", name, baseline[name], None))
            continue
        if name not in baseline:
            findings.append(("new", name, None, fresh[name]))
            continue
        base, new = baseline[name], fresh[name]
        way = direction(name)
        if way == EQUAL:
            if new != base:
                findings.append(("changed", name, base, new))
            continue
        # |new - base| beyond limit % of |base|; written without a
        # division so that a zero baseline (lost: 0) holds exactly.
        if abs(new - base) * 100.0 <= limit * abs(base):
            continue
        better = new < base if way == LOWER else new > base
        findings.append(("improved" if better else "worse", name, base, new))
    return findings


def describe(finding, setter):
    kind, name, base, new = finding
    way = direction(name)
    if kind == "missing":
        return (f"missing: {name} baseline {base} is no longer written by make bench "
                f"(baseline set by {setter}): update {BASELINE_REL} (make bench-baseline) "
                "in the same commit")
    if kind == "new":
        return (f"new: {name} = {new} is not in {BASELINE_REL} (set by {setter}): add it to "
                "the baseline (make bench-baseline) in the same commit")
    delta = f"{pct(base, new):+.2f} %" if base != 0 else "from 0"
    if kind == "improved":
        return (f"improved: {name} baseline {base} now {new} ({delta}, {way} is better; "
                f"baseline set by {setter}): "
                f"update {BASELINE_REL} (make bench-baseline) in the same commit")
    if kind == "changed":
        return (f"changed: {name} baseline {base} now {new} ({delta}; a count or setting, "
                f"held equal; baseline set by {setter}): update {BASELINE_REL} "
                "(make bench-baseline) in the same commit if the change is meant")
    return (f"worse: {name} baseline {base} now {new} ({delta}, {way} is better, "
            f"limit {LIMIT_PCT} %; baseline set by {setter})")


def check(res, bench_dir, board, path=BASELINE):
    """The gate, as records of res (test/harness.py's Results): one per
    failing figure, then one summary that passes when none failed."""
    try:
        doc, baseline = read_baseline(path)
    except (OSError, ValueError, KeyError) as e:
        res.record(f"make bench's figures have a baseline ({path})", False,
                   f"{e}\nwrite one with make bench-baseline")
        return False
    setter = set_by(path)
    if doc.get("board") != board:
        res.record(f"{BASELINE_REL} holds {board}'s figures", False,
                   f"it holds {doc.get('board')}'s (set by {setter})")
        return False
    fresh = read_figures(bench_dir)
    findings = compare(baseline, fresh)
    for f in findings:
        res.record(describe(f, setter), False)
    counts = {k: sum(1 for f in findings if f[0] == k)
              for k in ("worse", "improved", "changed", "missing", "new")}
    detail = ""
    if findings and doc.get("made_with"):
        now = tool_versions(board)
        if now != doc["made_with"]:
            detail = (f"the baseline was made with {doc['made_with']}, this run with {now}: "
                      "another compiler or QEMU moves figures by itself")
    shown = BASELINE_REL if os.path.abspath(path) == BASELINE else path
    res.record(f"make bench's {len(fresh)} figures against {shown} (set by {setter}): "
               f"none worse or better than {LIMIT_PCT} %, no count changed, none missing or new"
               + ("" if not findings else
                  " (" + ", ".join(f"{n} {k}" for k, n in counts.items() if n) + ")"),
               not findings, detail)
    return not findings


class PrintResults:
    """res.record for the command line: one line per record."""
    def __init__(self):
        self.failed = 0

    def record(self, name, ok, detail=""):
        print(f"{'ok' if ok else 'FAIL'}: {name}")
        for line in detail.strip().splitlines():
            print(f"  {line}")
        self.failed += 0 if ok else 1


def main(argv):
    args = argv[1:]
    if len(args) < 2 or args[0] not in ("check", "update"):
        print(__doc__)
        return 2
    opts = {"--baseline": BASELINE, "--board": "qemu-virt", "--written-after": None}
    rest = args[2:]
    while rest:
        if rest[0] not in opts or len(rest) < 2:
            print(f"unknown option {rest[0]}\n{__doc__}")
            return 2
        opts[rest[0]] = rest[1]
        rest = rest[2:]
    if args[0] == "update":
        stamp = opts["--written-after"]
        try:
            n = write_baseline(args[1], opts["--board"], opts["--baseline"],
                               written_after=os.path.getmtime(stamp) if stamp else None)
        except (OSError, ValueError) as e:
            print(f"bench_baseline: {e}")
            return 1
        print(f"{opts['--baseline']}: {n} figures of {opts['--board']} from {args[1]}; "
              "commit it with the change that moved them")
        return 0
    res = PrintResults()
    check(res, args[1], opts["--board"], opts["--baseline"])
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
