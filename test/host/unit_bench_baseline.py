#!/usr/bin/env python3
"""test/host/unit_bench_baseline.py: the bench gate's comparison
(test/bench_baseline.py) on planted figures: a cost 0.6 % worse fails and
0.4 % worse passes, a rate falls the other way, an improvement beyond
0.5 % fails and asks for the baseline, a count may not move at all, a
figure missing from the run or new in it fails, and the baseline names
the commit that wrote it. Every expected value is written here, not
computed by the module.

Usage: test/host/unit_bench_baseline.py
Prints TAP; exit status 0 when every check passed.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import bench_baseline as gate  # noqa: E402

from e2e_baretrace import Tap  # noqa: E402


class Records:
    def __init__(self):
        self.rows = []

    def record(self, name, ok, detail=""):
        self.rows.append((name, ok, detail))

    def failing(self):
        return [n for n, ok, _ in self.rows if not ok]


BASE_FILES = {
    "tracers.json": {"function_event_insns": 100.0, "workload_calls": 111952,
                     "workload_lost": 0, "slowdown_function": 2.5},
    "export.json": {"events_per_s_at_115200": 2000, "events": 4522},
    "callops.json": {"hit_counts_ok": True,
                     "rows": [{"mode": "callops", "relevant": 1, "insns_per_call": 56.0}]},
}


def bench_dir(tmp, name, files):
    d = os.path.join(tmp, name)
    os.makedirs(d)
    for file, doc in files.items():
        with open(os.path.join(d, file), "w") as f:
            json.dump(doc, f)
    return d


def planted(tmp, name, file, key, value):
    files = json.loads(json.dumps(BASE_FILES))
    if value is None:
        del files[file][key]
    else:
        files[file][key] = value
    return bench_dir(tmp, name, files)


def run_check(baseline, d, board="qemu-virt"):
    res = Records()
    ok = gate.check(res, d, board, baseline)
    return ok, res


def main():
    tap = Tap()
    tmp = tempfile.mkdtemp(prefix="bench-gate-")
    base_dir = bench_dir(tmp, "base", dict(BASE_FILES, **{"host.json": {"report_s": 1.5}}))
    baseline = os.path.join(tmp, "baseline.json")
    n = gate.write_baseline(base_dir, "qemu-virt", baseline, versions={"cc": "x", "qemu": "y"})
    with open(baseline) as f:
        doc = json.load(f)
    tap.ok(n == 8 and doc["board"] == "qemu-virt" and doc["files"] == {
        "tracers.json": {"function_event_insns": 100.0, "workload_calls": 111952,
                         "workload_lost": 0, "slowdown_function": 2.5},
        "export.json": {"events_per_s_at_115200": 2000, "events": 4522},
        "callops.json": {"rows.0.relevant": 1, "rows.0.insns_per_call": 56.0}},
        "the baseline: numbers only, nested rows as dotted names, the board, host.json left out",
        json.dumps(doc, indent=1))

    try:
        gate.write_baseline(base_dir, "qemu-virt", baseline + ".later", versions={},
                            written_after=os.path.getmtime(baseline) + 3600)
        refused = False
    except ValueError:
        refused = True
    tap.ok(refused and not os.path.exists(baseline + ".later"),
           "files older than the run (make bench-baseline's stamp) are left out; none left "
           "writes no baseline", refused)

    ok, res = run_check(baseline, base_dir)
    tap.ok(ok and len(res.rows) == 1 and res.rows[0][1], "the same figures pass: one summary",
           res.rows)
    tap.ok("set by uncommitted" in res.rows[0][0],
           "a baseline outside git is set by 'uncommitted'", res.rows)

    cases = [
        # (what, file, key, value, passes, the failing line's words)
        ("a cost 0.6 % worse fails", "tracers.json", "function_event_insns", 100.6, False,
         ["worse: tracers.function_event_insns baseline 100.0 now 100.6 (+0.60 %",
          "set by uncommitted"]),
        ("a cost 0.4 % worse passes", "tracers.json", "function_event_insns", 100.4, True, []),
        ("a cost 0.5 % worse passes (more than 0.5 % fails)", "tracers.json",
         "function_event_insns", 100.5, True, []),
        ("a cost 0.4 % better passes", "tracers.json", "function_event_insns", 99.6, True, []),
        ("a cost 0.6 % better fails and asks for the baseline", "tracers.json",
         "function_event_insns", 99.4, False,
         ["improved: tracers.function_event_insns baseline 100.0 now 99.4",
          "update test/bench/baseline.json (make bench-baseline) in the same commit"]),
        ("a slowdown 2.5 -> 2.52 (+0.8 %) fails", "tracers.json", "slowdown_function", 2.52,
         False, ["worse: tracers.slowdown_function baseline 2.5 now 2.52"]),
        ("a rate 0.6 % lower fails", "export.json", "events_per_s_at_115200", 1988, False,
         ["worse: export.events_per_s_at_115200 baseline 2000 now 1988 (-0.60 %"]),
        ("a rate 0.6 % higher is an improvement", "export.json", "events_per_s_at_115200",
         2012, False, ["improved: export.events_per_s_at_115200 baseline 2000 now 2012"]),
        ("a rate 0.4 % lower passes", "export.json", "events_per_s_at_115200", 1992, True, []),
        ("a count moved by one fails (held equal)", "export.json", "events", 4523, False,
         ["changed: export.events baseline 4522 now 4523"]),
        ("lost 0 -> 1 is worse", "tracers.json", "workload_lost", 1, False,
         ["worse: tracers.workload_lost baseline 0 now 1"]),
        ("a figure missing from the run fails", "tracers.json", "function_event_insns", None,
         False, ["missing: tracers.function_event_insns baseline 100.0"]),
        ("a new figure fails until it is in the baseline", "tracers.json", "high_site_insns",
         40.0, False, ["new: tracers.high_site_insns = 40.0", "add it to the baseline"]),
    ]
    for i, (what, file, key, value, passes, words) in enumerate(cases):
        ok, res = run_check(baseline, planted(tmp, f"c{i}", file, key, value))
        lines = res.failing()
        if passes:
            good = ok and not lines
        else:
            # one line for the figure, and the failing summary
            good = (not ok and len(lines) == 2 and all(w in lines[0] for w in words)
                    and lines[1].startswith("make bench's "))
        tap.ok(good, what, "\n".join(n for n, _, _ in res.rows))

    d = bench_dir(tmp, "nested", dict(BASE_FILES, **{"callops.json": {
        "rows": [{"mode": "callops", "relevant": 1, "insns_per_call": 57.0}]}}))
    ok, res = run_check(baseline, d)
    tap.ok(not ok and any(n.startswith("worse: callops.rows.0.insns_per_call baseline 56.0 "
                                       "now 57.0") for n in res.failing()),
           "a nested row's figure is held by its dotted name", res.rows)

    d = bench_dir(tmp, "mbedtls", dict(BASE_FILES, **{"mbedtls.json": {"handshake_insns": 1}}))
    ok, res = run_check(baseline, d)
    tap.ok(not ok and any("new: mbedtls.handshake_insns" in n for n in res.failing()),
           "a new file's figures are new figures", res.rows)

    ok, res = run_check(baseline, base_dir, board="rpi4")
    tap.ok(not ok and res.failing() == ["test/bench/baseline.json holds rpi4's figures"],
           "another board's figures are not held to qemu-virt's baseline", res.rows)

    for name, way in [("tracers.function_event_insns", "lower"),
                      ("callops.enable_insns_per_site", "lower"),
                      ("export.events_per_s_at_921600", "higher"),
                      ("ringsize.function_64k_events", "higher"),
                      ("ringsize.function_64k_lost", "lower"),
                      ("coverage.gcov_text_bytes_added", "lower"),
                      ("coverage.gcov_slowdown", "lower"),
                      ("callops.sites", "equal"),
                      ("export.events", "equal"),
                      ("mbedtls.some_new_count", "equal")]:
        tap.ok(gate.direction(name) == way,
               f"{name}: " + ("held equal" if way == "equal" else f"{way} is better"),
               gate.direction(name))

    # The commit that set the baseline, from git log in a repository of
    # its own; then changed and not committed.
    repo = os.path.join(tmp, "repo")
    os.makedirs(repo)
    git = ["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"]
    path = os.path.join(repo, "baseline.json")
    with open(path, "w") as f:
        f.write("{}\n")
    try:
        subprocess.run(git[:3] + ["init", "-q"], check=True)
        subprocess.run(git + ["add", "baseline.json"], check=True)
        subprocess.run(git + ["commit", "-q", "-m", "bench: new baseline"], check=True)
        head = subprocess.run(git[:3] + ["rev-parse", "--short", "HEAD"], check=True,
                              capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError) as e:
        head = f"git failed: {e}"
    tap.ok(gate.set_by(path) == f"{head} bench: new baseline",
           "set by: git log's short hash and subject", gate.set_by(path))
    with open(path, "w") as f:
        f.write("{ }\n")
    tap.ok(gate.set_by(path) == f"uncommitted (last committed in {head} bench: new baseline)",
           "set by: a changed, uncommitted baseline says so", gate.set_by(path))

    shutil.rmtree(tmp, ignore_errors=True)
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
