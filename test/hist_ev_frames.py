"""test/hist_ev_frames.py: the tracepoint field histograms (frame type 10
kind 1, docs/wire.md 2.12) of a whole run, read from the .bt file by this
file itself and checked against what the run did: the 'histev' scenario
(test/target/scenario_hist.c) fires histev:hit on every CPU, recorded
(trace_event=) and histogrammed by key (trace_hist=...:keys=key) at once.
Per CPU and key, the counts and sums equal both the scenario's own
formula and the events the same run recorded. Then `baretrace hist`
(text and --json) must show the same numbers; a bad spec at boot is
refused before main() with a clear message. Run on TCG and on
multi-threaded TCG (every CPU fires at once). Last, the histograms of
both kinds in a crash report (the scenarios followed by a crash) and in
a break-key report (timer:tick's count per CPU while two CPUs spin).
"""
import collections
import json
import os
import re

from bt_frames import frames, varint
from coverage_frames import frames as raw_frames, raw_boot
from harness import HOST, input_boot_cmd, make_var, run
from hist_frames import hist_dumps, hist_row

SPEC = "histev:hit:val:keys=key"


def bucket(v):
    """The bucket of a value (trace/tracers/hist.h)."""
    return min(v.bit_length(), 63)


def ev_dumps(fr):
    """{cpu: (other, {key: (sum, {bucket: hits})})}: each CPU's latest
    dump of spec 0."""
    out = {}
    for t, cpu, b in fr:
        if t != 10 or not b or b[0] != 1:
            continue
        j = 1
        part, j = varint(b, j)
        spec, j = varint(b, j)
        _event, j = varint(b, j)
        _field, j = varint(b, j)
        _keyf, j = varint(b, j)
        other, j = varint(b, j)
        count, j = b[j], j + 1
        if spec != 0:
            continue
        if part == 0:
            out[cpu] = (other, {})
        for _ in range(count):
            key, total, bk, j = hist_row(b, j)
            out[cpu][1][key] = (total, bk)
    return out


def formula(ncpus):
    """What the scenario fires: {cpu: {key: (sum, {bucket: hits})}}."""
    want = {}
    for c in range(ncpus):
        keys = {}
        for i in range(40 + 20 * c):
            v = (c + 1) * i * i
            s, bk = keys.setdefault(i % 3, [0, collections.Counter()])
            keys[i % 3][0] = s + v
            bk[bucket(v)] += 1
        want[c] = {k: (s, dict(bk)) for k, (s, bk) in keys.items()}
    return want


def recorded(tool, bt):
    """The same from the events the run recorded (`baretrace report`)."""
    st, txt = run([tool, "report", bt])
    got = {}
    for cpu, key, val in re.findall(r"^\[(\d+)\] [\d.]+: histev:hit: key=(\d+) val=(\d+) ",
                                    txt, re.M):
        keys = got.setdefault(int(cpu), {})
        s, bk = keys.setdefault(int(key), [0, collections.Counter()])
        keys[int(key)][0] = s + int(val)
        bk[bucket(int(val))] += 1
    return st, {c: {k: (s, dict(bk)) for k, (s, bk) in ks.items()} for c, ks in got.items()}


def qemu(board, image_dir, bootargs, bt, flags=""):
    cmd = ["tools/qemu-run", "--image", os.path.join(image_dir, "Image"),
           "--machine", make_var(board, "QEMU_MACHINE"), "--cpu", make_var(board, "QEMU_CPU"),
           "--smp", make_var(board, "QEMU_SMP"), "--mem", make_var(board, "QEMU_MEM"),
           "--capture", bt, "--bootargs", bootargs]
    if flags:
        cmd += ["--qemu-flags", flags]
    if os.path.exists(bt):
        os.remove(bt)
    st, out = run(cmd, timeout=120)
    return st, out.replace("\r", "")


def check_hist_ev_frames(res, board, image_dir):
    st, out = run(["make", "-s", f"BOARD={board}", "build/host/baretrace"])
    if st != 0:
        res.record("hist events: the host tool builds", False, out)
        return
    check_run(res, board, image_dir, "")
    check_run(res, board, image_dir, "-accel tcg,thread=multi")
    check_refused(res, board, image_dir)
    check_crash(res, board, image_dir)
    check_break_key(res, image_dir)


def check_run(res, board, image_dir, flags):
    what = f" ({flags})" if flags else ""
    bt = os.path.join(HOST, "hist_ev.bt")
    st, out = qemu(board, image_dir, f"panic=poweroff trace_event=histev:hit trace_hist={SPEC} "
                   "-- histev", bt, flags)
    ncpus = int(make_var(board, "QEMU_SMP"))
    fired = {int(c): int(n) for c, n in re.findall(r"^histev: cpu (\d+) fired (\d+)$", out, re.M)}
    want = formula(ncpus)
    ok = (st == 0 and os.path.exists(bt) and
          fired == {c: sum(sum(b.values()) for _, b in want[c].values()) for c in want})
    res.record(f"hist events{what}: histev ends, every CPU fired what the formula says", ok,
               out[-2000:])
    if not ok:
        return
    dumps = ev_dumps(frames(bt))
    have = {c: dumps.get(c, (0, {}))[1] for c in range(ncpus)}
    other = sum(dumps.get(c, (0, {}))[0] for c in range(ncpus))
    res.record(f"hist events{what}: per CPU and key, the counts, buckets and sums are the "
               "values the scenario fired", have == want and other == 0,
               f"frames {have}\nwant   {want}\nother {other}")
    tool = os.path.join(HOST, "baretrace")
    rst, rec = recorded(tool, bt)
    res.record(f"hist events{what}: they equal the events the same run recorded",
               rst == 0 and rec == have, f"recorded {rec}\nframes   {have}")
    st, js = run([tool, "hist", bt, "--json"])
    try:
        doc = json.loads(js[js.index("{"):])
        ev = doc["events"][0]
        keys = {k["key"]: (k["hits"], k["sum"]) for k in ev["keys"]}
        per = {(p["cpu"], k["key"]): {b["bucket"]: b["count"] for b in p["buckets"]}
               for k in ev["keys"] for p in k["per_cpu"]}
        tot = {k: (sum(sum(want[c][k][1].values()) for c in want),
                   sum(want[c][k][0] for c in want)) for k in range(3)}
        ok = (st == 0 and ev["event"] == "histev:hit" and ev["field"] == "val" and
              ev["key"] == "key" and ev["other"] == 0 and keys == tot and
              per == {(c, k): want[c][k][1] for c in want for k in want[c]})
    except (ValueError, KeyError, IndexError) as e:
        ok, js = False, f"{js}\n{e}"
    res.record(f"hist events{what}: `baretrace hist --json` shows the frames' numbers", ok,
               js[-2000:])
    st, txt = run([tool, "hist", bt, "--per-cpu"])
    hits0 = sum(sum(want[c][0][1].values()) for c in want)
    res.record(f"hist events{what}: `baretrace hist` prints bars per key and per CPU",
               st == 0 and re.search(r"^histev:hit: val per key$", txt, re.M)
               and re.search(rf"^key = 0: {hits0} hits on {ncpus} CPUs, average ", txt, re.M)
               and re.search(rf"^key = 2 on CPU {ncpus - 1}: ", txt, re.M)
               and re.search(r"^ +\d+ -> \d+ : \d+ +\|\*+ *\|$", txt, re.M), txt[-3000:])


def check_refused(res, board, image_dir):
    bt = os.path.join(HOST, "hist_ev_bad.bt")
    for spec, msg in [("histev:hit:nope", "hist: histev:hit has no field 'nope'; its fields: "
                       "key val delta tag small"),
                      ("histev:hit:val:keys=tag", "hist: the key field 'tag' of histev:hit is a "
                       "string; it must be an unsigned number"),
                      ("nosys:hit:val", "hist: no event 'nosys:hit'")]:
        st, out = qemu(board, image_dir, f"panic=poweroff trace_hist={spec} -- histev", bt)
        res.record(f"hist events: trace_hist={spec} is refused before main() with a clear "
                   "message", msg in out and "not applied" in out and "histev: cpu" not in out
                   and st != 0, out[-1500:])


def report_frames(out, start, end):
    """(type, cpu, body) of the frames between the two markers of a report."""
    a = out.find(start)
    b = out.find(end, a)
    return [(t, c, body) for t, c, _, body in raw_frames(out[a:b])] if 0 <= a < b else []


def sets(out, kind):
    """The type-10 frames of one kind after the crash report, split into
    the sends they came in (each send begins with CPU 0's part 0)."""
    a = out.find(b"==== end of crash report")
    out_sets = []
    for t, c, _, b in raw_frames(out[a:]) if a >= 0 else []:
        if t != 10 or not b or b[0] != kind:
            continue
        if c == 0 and varint(b, 1)[0] == 0:
            out_sets.append([])
        if out_sets:
            out_sets[-1].append((t, c, b))
    return out_sets


def check_crash(res, board, image_dir):
    """A crash after the scenario: the crash hook sends the histograms
    (a first set), and the end of the run, which follows here
    (panic=poweroff), a second; with panic=reset only the first would
    reach the host. Both must hold what the scenario did."""
    ncpus = int(make_var(board, "QEMU_SMP"))
    st, out = raw_boot(board, image_dir, f"panic=poweroff trace_hist={SPEC} -- histev crash")
    got = [{c: d[1] for c, d in ev_dumps(x).items()} for x in sets(out, 1)]
    res.record("hist events: the crash sends the field histograms (then the end of the run "
               "again), the hits fired before the crash", st == 139 and len(got) == 2 and
               all(g == formula(ncpus) for g in got),
               f"status {st}, sets {got}\n" + out[-1500:].decode(errors="replace"))
    st, out = raw_boot(board, image_dir, "panic=poweroff trace_hist=hs_work -- histwork crash")
    text = out.decode(errors="replace").replace("\r", "")
    made = {int(c): int(n) for c, n in re.findall(r"^histwork: cpu (\d+) made (\d+) calls$",
                                                  text, re.M)}
    got = [{c: sum(sum(bk.values()) for _, bk in d.values()) for c, d in hist_dumps(x).items()}
           for x in sets(out, 0)]
    res.record("hist: the crash sends the duration histograms (then the end of the run again), "
               "the calls made before the crash", st == 139 and len(made) == ncpus and
               len(got) == 2 and all(g == made for g in got),
               f"status {st}, made {made}, sets {got}\n" + text[-1500:])


def check_break_key(res, image_dir):
    """Ctrl-\\ twice while CPUs 0 and 1 spin: the break report carries each
    CPU's timer:tick counts keyed by the CPU, a CPU only its own; the run
    goes on and its end sends totals at least as large."""
    cmd = ["tools/qemu-run", "--image", os.path.join(image_dir, "Image"), "--smp", "4",
           "--bootargs", "panic=poweroff trace_hist=timer:tick:count:keys=cpu -- spin 3"]
    st, out = input_boot_cmd(cmd, "spin: CPUs 0 and 1 spin", b"\x1c\x1c", raw=True)
    at = ev_dumps(report_frames(out, b"==== baretrace break on CPU", b"==== end of break report"))
    end = out.find(b"==== end of break report")
    last = ev_dumps([(t, c, b) for t, c, _, b in raw_frames(out[end:])]) if end > 0 else {}
    own = all(set(d[1]) <= {c} for c, d in at.items())
    hits = {c: sum(sum(bk.values()) for _, bk in d[1].values()) for c, d in at.items()}
    after = {c: sum(sum(bk.values()) for _, bk in d[1].values()) for c, d in last.items()}
    res.record("hist events: the break report sends the field histograms (timer:tick per CPU, "
               "each CPU only its own key), and the end of the run larger totals",
               st == 0 and len(at) == 4 and own and hits.get(0, 0) > 0 and
               all(after.get(c, 0) >= n for c, n in hits.items()),
               f"status {st}, at the break {hits}, at the end {after}, keys "
               f"{ {c: sorted(d[1]) for c, d in at.items()} }\n" + out[-1500:].decode(errors="replace"))
