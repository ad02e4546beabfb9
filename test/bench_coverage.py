"""test/bench_coverage.py: make bench's coverage.json against what the
code it measures must give (boot stage, after the repeat check, on the
figures of its first run). Each bound comes from the instructions and
bytes the build puts there, not from the figure itself:

- a disabled patch site executes 2 NOPs a call, so the workload with its
  sites disabled costs at least 2 instructions a call more than the same
  source built without sites;
- gcov counts every function entry with a load, an add and a store, so
  the gcov build costs at least 3 a call more;
- each of the 12 functions of a copy gets 4 NOPs (16 bytes) of site;
- gcov's counters are 8 bytes an arc, at least one a function (bss).

Once the image has trace=coverage (coverage_in_image), the issue's
targets: after the first hits, at most 1.02x the workload with its sites
disabled; a first hit costs something and the workload's first run more
than the runs after it.
"""
import json
import os

WL_COPY_FUNCTIONS = 12	# test/bench/workload.inc: 11 a round reaches, and init


def check_coverage_figures(res, bench_dir):
    path = os.path.join(bench_dir, "coverage.json")
    try:
        with open(path) as f:
            c = json.load(f)
    except (OSError, ValueError) as e:
        res.record("make bench writes coverage.json", False, str(e))
        return
    calls = c["workload_calls"]
    res.record("coverage.json: disabled sites cost at least their 2 NOPs a call "
               f"({c['disabled_sites_insns']} against {c['no_sites_insns']} without sites, "
               f"{calls} calls)",
               c["disabled_sites_insns"] - c["no_sites_insns"] >= 2 * calls, json.dumps(c))
    res.record(f"coverage.json: gcov's counters cost at least 3 instructions a call "
               f"({c['gcov_insns']})",
               c["gcov_insns"] - c["no_sites_insns"] >= 3 * calls, json.dumps(c))
    res.record(f"coverage.json: image bytes from the link map (sites +{c['sites_text_bytes_added']}"
               f" text, gcov +{c['gcov_text_bytes_added']} text, +{c['gcov_bss_bytes_added']} "
               f"counters, runtime {c['gcov_runtime_image_bytes']})",
               c["sites_text_bytes_added"] >= 16 * WL_COPY_FUNCTIONS
               and c["gcov_text_bytes_added"] > 0
               and c["gcov_bss_bytes_added"] >= 8 * WL_COPY_FUNCTIONS
               and c["gcov_runtime_image_bytes"] > 0, json.dumps(c))
    if not c["coverage_in_image"]:
        return
    res.record(f"coverage.json: trace=coverage after the first hits at most 1.02x the "
               f"workload with disabled sites ({c['coverage_after_insns']} against "
               f"{c['disabled_sites_insns']})",
               c["coverage_after_insns"] <= 1.02 * c["disabled_sites_insns"], json.dumps(c))
    res.record(f"coverage.json: a first hit costs instructions ({c['first_hit_insns']}) and "
               "the first run more than the runs after it",
               c["first_hit_insns"] > 0
               and c["coverage_first_run_insns"] > c["coverage_after_insns"], json.dumps(c))
