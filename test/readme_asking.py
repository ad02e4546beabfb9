"""test/readme_asking.py: the checks of the "Asking the target" examples
on the demo: typed arguments (docs/arguments.md), a probe
(docs/probes.md), histograms (docs/histograms.md). Each
compares what the trace shows with what the demo printed about its own
run: its samples, the range of its filtered values, its final state."""
import json
import os
import re
import shutil

from readme_run import match_output, run_dir_file, run_example


def demo_said(out):
    """What the demo printed about its own run: samples, the filtered
    values' range in milli-degrees, the machine's final state."""
    n = re.search(r"^demo: samples=(\d+)", out, re.M)
    rng = re.search(r"^demo: filtered min=(\d+)\.(\d{3}) max=(\d+)\.(\d{3})", out, re.M)
    fin = re.search(r"^demo: fsm final=(\w+)", out, re.M)
    if not (n and rng and fin):
        return None
    lo, hi = int(rng[1]) * 1000 + int(rng[2]), int(rng[3]) * 1000 + int(rng[4])
    return int(n[1]), lo, hi, fin[1]


def run_trace_text(h):
    try:
        with open(run_dir_file(h, "trace.txt"), errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return ""


def check_typed(h, res, board, code, output):
    """docs/arguments.md's typed arguments: one line per fsm_step call, the values
    the demo filtered (its own min and max) and its last state by name."""
    st, out = run_example(h, code)
    miss = match_output(output or "", out)
    said = demo_said(out)
    calls = re.findall(r"fsm_step\(m=0x[0-9a-f]+, value=(-?\d+)\); /\* = (FSM_\w+) \*/",
                       run_trace_text(h))
    vals = [int(v) for v, _ in calls]
    res.record("readme: example 'typed' prints what docs/arguments.md shows; every fsm_step call "
               "typed, its values within the range the demo printed, the last return its "
               "final state by name",
               st == 0 and output is not None and miss is None and said is not None and
               len(calls) == said[0] and min(vals) >= said[1] and max(vals) <= said[2] and
               said[2] in vals and calls[-1][1] == "FSM_" + said[3].upper(),
               f"status {st}; missing line {miss!r}; demo said {said}; "
               f"{len(calls)} calls, values {vals[:5]}..., last {calls[-1:]}\n" + out[-3000:])
    check_typed_exports(h, res, board, calls)


def check_typed_exports(h, res, board, calls):
    """The same calls, typed alike, in make run's Chrome JSON and in the
    CTF export as babeltrace2 reads it."""
    want = [(int(v), r) for v, r in calls]
    try:
        with open(run_dir_file(h, "trace.json")) as f:
            doc = json.load(f)
        evs = doc["traceEvents"] if isinstance(doc, dict) else doc
        chrome = [(e["args"].get("value"), e["args"].get("retval")) for e in evs
                  if e.get("name") == "fsm_step" and e.get("ph") == "X"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        chrome = repr(e)
    res.record("readme: example 'typed': make run's Chrome JSON has every fsm_step call with "
               "value as a number and retval by name, as report shows them",
               bool(want) and chrome == want, f"report {want[:4]}...; chrome {chrome[:4]}...")
    ctf = os.path.join(h.HOST, "readme-typed-ctf")
    shutil.rmtree(ctf, ignore_errors=True)
    elf = os.path.join(h.make_dir(board, "examples/demo"), "baretrace.elf")
    st, out = h.run([os.path.join(h.HOST, "baretrace"), "export", "--format=ctf", "-o", ctf,
                     run_dir_file(h, "trace.bt"), "--elf", elf])
    bst, text = h.run(["babeltrace2", ctf], timeout=120) if st == 0 else (st, out)
    args = [int(v) for v in re.findall(r'func = "fsm_step", nargs = 2, .*typed = '
                                       r'"m=0x[0-9a-f]+, value=(-?\d+)"', text)]
    rets = re.findall(r'func = "fsm_step", .*retval_typed = "(\w+)"', text)
    res.record("readme: example 'typed': the CTF export, read by babeltrace2, has every "
               "fsm_step call's typed arguments and return value, as report shows them",
               st == 0 and bst == 0 and bool(want) and list(zip(args, rets)) == want,
               f"export {st}, babeltrace2 {bst}; {len(args)} args, {len(rets)} returns\n"
               + text[-1500:])
    dat = os.path.join(h.HOST, "readme-typed.dat")
    st, out = h.run([os.path.join(h.HOST, "baretrace"), "export", "--format=trace-cmd", "-o",
                     dat, run_dir_file(h, "trace.bt"), "--elf", elf])
    tst, text = h.run(["trace-cmd", "report", dat], timeout=120) if st == 0 else (st, out)
    args = [int(v) for v in re.findall(r" fsm_step: +\(m=0x[0-9a-f]+, value=(-?\d+)\)$",
                                       text, re.M)]
    rets = re.findall(r" fsm_step__return: +ret=(\w+)$", text, re.M)
    res.record("readme: example 'typed': the trace-cmd export, read by trace-cmd report, has "
               "every fsm_step call's typed arguments and return value, as report shows them",
               st == 0 and tst == 0 and bool(want) and list(zip(args, rets)) == want,
               f"export {st}, trace-cmd {tst}; {len(args)} args, {len(rets)} returns\n"
               + text[-1500:])


def check_probe(h, res, board, code, output):
    """docs/probes.md's probe: one hit per fsm_step call; the state fetched
    through x0 changes as often as the demo counted transitions."""
    st, out = run_example(h, code)
    miss = match_output(output or "", out)
    said = demo_said(out)
    trans = re.search(r"transitions=(\d+)", out)
    hits = [(int(a), int(b)) for a, b in
            re.findall(r"probe st: state=(\d+) value=(-?\d+)$", run_trace_text(h), re.M)]
    changes = sum(1 for a, b in zip(hits, hits[1:]) if a[0] != b[0])
    names = ["idle", "warming", "measuring", "alarm", "cooldown"]
    final_now = said is not None and hits and names[hits[-1][0]] != said[3]
    res.record("readme: example 'probe' prints what docs/probes.md shows; a hit per fsm_step "
               "call, the values the demo filtered, the state changing as often as the demo "
               "counted transitions",
               st == 0 and output is not None and miss is None and said is not None and
               trans is not None and len(hits) == said[0] and
               min(v for _, v in hits) == said[1] and max(v for _, v in hits) == said[2] and
               changes + final_now == int(trans[1]),
               f"status {st}; missing line {miss!r}; demo said {said}, {trans and trans[0]}; "
               f"{len(hits)} hits, {changes} changes\n" + out[-3000:])


def check_hist(h, res, board, code, output):
    """docs/histograms.md's histograms: each function's calls equal the samples the
    demo made, on the console and in baretrace hist --json."""
    st, out = run_example(h, code)
    miss = match_output(output or "", out)
    said = demo_said(out)
    hst, js = h.run([os.path.join(h.HOST, "baretrace"), "hist", "--json",
                     run_dir_file(h, "trace.bt"), "--elf",
                     os.path.join(h.make_dir(board, "examples/demo"), "baretrace.elf")])
    try:
        calls = {f["function"]: f["calls"] for f in json.loads(js)["functions"]}
    except (ValueError, KeyError, TypeError):
        calls = None
    res.record("readme: example 'hist' prints what docs/histograms.md shows; fsm_step and "
               "filter_apply each counted once per sample the demo made (console and "
               "baretrace hist --json)",
               st == 0 and output is not None and miss is None and said is not None and
               hst == 0 and calls == {"fsm_step": said[0], "filter_apply": said[0]},
               f"status {st}; missing line {miss!r}; demo said {said}; hist --json "
               f"status {hst}: {calls}\n" + out[-3000:])
