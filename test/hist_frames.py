"""test/hist_frames.py: the duration histograms (frame type 10, docs/wire.md
2.12) of a whole run, read from the .bt file by this file itself, not by
the host tool, and checked against what the run did: the 'histwork'
scenario (test/target/scenario_hist.c) on every CPU, traced by
function_graph and trace_hist= on the same function under -icount
shift=0 (exact times). Per CPU, the counts equal the calls the scenario
says it made, and the buckets hold exactly the durations the graph
tracer recorded for the same calls (kind-2 records, test/graph_times.py).
Then `baretrace hist` (text and --json) must show the same numbers.
"""
import collections
import json
import os
import re

from bt_frames import frames, varint
from coverage_frames import site_names
from graph_times import graph_time_skews
from doc_costs import check_doc_costs
from harness import HOST, boot, make_var, parse_ktap, run


def bucket(ticks):
    """The histogram bucket of a duration (trace/tracers/hist.h)."""
    return min(ticks.bit_length(), 63)


def hist_dumps(fr):
    """{cpu: {site: (sum, {bucket: calls})}}: each CPU's latest dump."""
    out = {}
    for t, cpu, b in fr:
        if t != 10 or not b or b[0] != 0:
            continue
        part, j = varint(b, 1)
        count, j = b[j], j + 1
        if part == 0:
            out[cpu] = {}
        for _ in range(count):
            site, total, bk, j = hist_row(b, j)
            out.setdefault(cpu, {})[site] = (total, bk)
    return out


def hist_row(b, j):
    """One row of a type-10 body at b[j]: (site or key, sum, {bucket:
    count}, where the next row starts) (docs/wire.md 2.12)."""
    ident, j = varint(b, j)
    total, j = varint(b, j)
    used, j = varint(b, j)
    bk = {}
    for _ in range(used):
        bb = b[j]
        bk[bb], j = varint(b, j + 1)
    return ident, total, bk, j


def check_hist_frames(res, board, image_dir):
    st, out = run(["make", "-s", f"BOARD={board}", "build/host/baretrace"])
    if st != 0:
        res.record("hist: the host tool builds", False, out)
        return
    # Both ops on hs_work: the histograms' C path, the same calls timed
    # by both. Then function_graph one level up (hs_work_call) and the
    # histograms alone on hs_work: their entry and return in assembly;
    # the graph durations hold the same calls and a call's worth more.
    check_run(res, board, image_dir, "hs_work", "")
    check_run(res, board, image_dir, "hs_work_call", " (hist alone: the assembly path)")


def check_run(res, board, image_dir, graph_func, what):
    bt = os.path.join(HOST, "hist.bt")
    elf = os.path.join(image_dir, "baretrace.elf")
    if os.path.exists(bt):
        os.remove(bt)
    cmd = ["tools/qemu-run", "--image", os.path.join(image_dir, "Image"),
           "--machine", make_var(board, "QEMU_MACHINE"), "--cpu", make_var(board, "QEMU_CPU"),
           "--smp", make_var(board, "QEMU_SMP"), "--mem", make_var(board, "QEMU_MEM"),
           "--qemu-flags", "-icount shift=0", "--capture", bt, "--bootargs",
           f"panic=poweroff trace=function_graph trace_filter={graph_func} "
           "trace_hist=hs_work -- histwork"]
    st, out = run(cmd, timeout=120)
    out = out.replace("\r", "")
    made = {int(c): int(n) for c, n in re.findall(r"^histwork: cpu (\d+) made (\d+) calls$",
                                                  out, re.M)}
    ncpus = int(make_var(board, "QEMU_SMP"))
    ok = st == 0 and len(made) == ncpus and os.path.exists(bt)
    res.record(f"hist{what}: histwork under function_graph and trace_hist= ends, every CPU says "
               "its calls", ok, out[-2000:])
    if not ok:
        return
    fr = frames(bt)
    names = {n: s for s, n in site_names([(t, c, 0, b) for t, c, b in fr]).items()}
    site, gsite = names.get("hs_work"), names.get(graph_func)
    dumps = hist_dumps(fr)
    pairs, err = graph_time_skews(bt)
    graph = collections.defaultdict(collections.Counter)
    graph_sum = collections.Counter()
    for cpu, s, dur, _ in pairs:
        if s == gsite:
            graph[cpu][bucket(dur)] += 1
            graph_sum[cpu] += dur
    got = {c: dumps.get(c, {}).get(site, (0, {})) for c in range(ncpus)}
    counts = {c: sum(got[c][1].values()) for c in got}
    res.record(f"hist{what}: per CPU, the histogram's count is the calls the CPU made",
               site is not None and counts == made, f"hist {counts}, made {made}")
    want = {c: dict(graph[c]) for c in range(ncpus)}
    have = {c: got[c][1] for c in range(ncpus)}
    res.record(f"hist{what}: per CPU, the buckets hold the durations function_graph recorded for "
               "the same calls (-icount: exact)", not err and want == have,
               f"graph {want}\nhist  {have}\n{err or ''}")
    res.record(f"hist{what}: each CPU's sum of durations is within the graph tracer's (the graph "
               "frame holds the hist frame, or the other way round: 16 ticks a call at -icount; at most 64)",
               all(abs(got[c][0] - graph_sum[c]) <= 64 * made[c] for c in range(ncpus)),
               f"hist sums {[got[c][0] for c in range(ncpus)]}, graph {dict(graph_sum)}")
    size = sum(len(b) for t, _, b in fr if t == 10)
    res.record(f"hist{what}: the histograms take a few hundred bytes of the line",
               0 < size < 600, f"{size} bytes of type-10 bodies")

    tool = os.path.join(HOST, "baretrace")
    st, js = run([tool, "hist", bt, "--elf", elf, "--json"])
    try:
        doc = json.loads(js[js.index("{"):])
        fn = [f for f in doc["functions"] if f["function"] == "hs_work"][0]
        per = {p["cpu"]: {b["bucket"]: b["count"] for b in p["buckets"]} for p in fn["per_cpu"]}
        ok = st == 0 and fn["calls"] == sum(made.values()) and per == have
    except (ValueError, KeyError, IndexError) as e:
        ok, js = False, f"{js}\n{e}"
    res.record(f"hist{what}: `baretrace hist --json` shows the frames' numbers", ok, js[-2000:])
    st, txt = run([tool, "hist", bt, "--elf", elf, "--per-cpu"])
    total = sum(made.values())
    res.record(f"hist{what}: `baretrace hist` prints bars per function and per CPU",
               st == 0 and re.search(rf"^hs_work: {total} calls on {ncpus} CPUs, average ", txt, re.M)
               and re.search(rf"^hs_work on CPU {ncpus - 1}: {made[ncpus - 1]} calls", txt, re.M)
               and re.search(r"^ +\d+ -> \d+ +\d+ -> \d+ : \d+ +\|\*+ *\|$", txt, re.M),
               txt[-3000:])


def check_hist_icount(res, board, image_dir):
    """The hist suite under -icount shift=0: exact times, and the cost of
    a hit in instructions (the PMU counts them only there), the field
    histograms' (hist_ev_) included, and args_cost's (trace_args): the
    docs' figures from these tests are the ones printed here. Not the
    tests where CPUs 1-3 run smp_start work for long: under -icount a
    busy secondary CPU took no timer tick for 2 s of virtual time and the
    lockup detector ended the run (seen with hist_clear_while_other_cpus_hit
    then hist_per_cpu_...; both pass on TCG and multi-threaded TCG)."""
    st, out = boot(board, image_dir, "icount", "panic=poweroff -- ktest hist_cost hist_counts "
                   "hist_refuses hist_clear_then hist_ev_ args_cost", timeout=180)
    parse_ktap("ktap[icount hist]", out, res)
    m = re.search(r"^# hist cost in instructions per call: .*$", out, re.M)
    res.record("hist under -icount: the cost of a hit is measured, not skipped",
               st == 0 and m is not None and "SKIP" not in out, out[-1500:])
    if m:
        print("# " + m.group(0).lstrip("# "), flush=True)
    m = re.search(r"^# hist_ev cost in instructions per hit .*$", out, re.M)
    res.record("hist events under -icount: the cost of a field histogram's hit is measured",
               st == 0 and m is not None, out[-1500:])
    if m:
        print("# " + m.group(0).lstrip("# "), flush=True)
    check_doc_costs(res, ["hist_ev_cost", "args_cost"], out)
