"""test/bench_repeat.py: every 'make bench' figure repeats exactly (boot
stage, QEMU virt). tools/bench boots under -icount shift=0,sleep=off;
with plain shift=0 an idle vCPU's wait lasted host time, and two runs
differed (demo events 4519 and 4522, callops overhead 43.02 and 43.01).
Runs tools/bench twice, as 'make bench' does, into two folders and
compares every JSON file byte for byte; then holds the first run's
figures to test/bench/baseline.json (test/bench_baseline.py).
"""
import filecmp
import os

import bench_baseline
from bench_coverage import check_coverage_figures
from harness import ROOT, make_dir, run


def check_bench_repeats(res, board="qemu-virt"):
    st, out = run(["make", f"BOARD={board}", "APP=test/bench"])
    if st != 0:
        res.record("build APP=test/bench", False, out)
        return
    bench = os.path.join(make_dir(board, "test/bench"), "Image")
    demo = os.path.join(make_dir(board, "examples/demo"), "Image")
    dirs = [os.path.join(ROOT, "build", "bench-repeat", n) for n in ("a", "b")]
    for d in dirs:
        st, out = run(["tools/bench", bench, demo, d, "--machine", "virt", "--cpu",
                       "cortex-a72", "--smp", "4", "--mem", "512M"], timeout=900)
        if st != 0:
            res.record("tools/bench runs (for the repeat check)", False, out[-3000:])
            return
    names = sorted(n for n in os.listdir(dirs[0]) if n.endswith(".json"))
    same, differ, missing = filecmp.cmpfiles(dirs[0], dirs[1], names, shallow=False)
    res.record(f"make bench repeats exactly: {len(same)} JSON files identical in two runs "
               "(ringsize.json among them)",
               not differ and not missing and "ringsize.json" in same and len(same) >= 7,
               f"differ: {differ}, missing: {missing}")
    check_coverage_figures(res, dirs[0])
    check_probe_figures(res, dirs[0])
    # Every figure against the committed baseline (issue 38): a figure
    # more than 0.5 % worse, or better, or a count that moved, fails.
    bench_baseline.check(res, dirs[0], board)


def check_probe_figures(res, bench_dir):
    """probe.json (test/bench/probe.c): a hit costs at least an exception's
    entry and exit (the frame alone is 31 stores and 31 loads), and each
    fetch adds to it."""
    import json
    try:
        with open(os.path.join(bench_dir, "probe.json")) as f:
            p = json.load(f)
    except (OSError, ValueError) as e:
        res.record("make bench writes probe.json", False, str(e))
        return
    res.record(f"probe.json: a hit {p['hit_insns']} insns, two registers {p['hit_two_regs_insns']},"
               f" and a word {p['hit_two_regs_one_word_insns']}: each more than the one before, "
               "the first above an exception's 62 frame moves",
               62 < p["hit_insns"] < p["hit_two_regs_insns"] < p["hit_two_regs_one_word_insns"],
               json.dumps(p))
    # A return probe's hit: the site's call to its ops and the return
    # through fgraph_return's C path (which alone saves and restores 9
    # registers and calls fgraph_exit) are well above 62; $retval adds.
    res.record(f"probe.json: a return probe's hit {p.get('return_hit_insns')} insns, with "
               f"$retval {p.get('return_hit_retval_insns')}: above 62, the fetch adds",
               "return_hit_insns" in p and
               62 < p["return_hit_insns"] < p["return_hit_retval_insns"], json.dumps(p))
