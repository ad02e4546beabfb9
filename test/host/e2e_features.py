"""test/host/e2e_features.py: end-to-end checks of the host tool on the
wire format's later sections, run by e2e_baretrace.py (with the encoder
of e2e_wire.py): profile dumps (2.5), argument, stack-trace and trigger
records (2.6), graph exits with no entries (2.7), and the SVG flame
graph. Three synthetic captures, all named by symbol dumps:

  ext.log        function and graph entries with arguments (after the
                 entry as wire.md says, and before it as the target
                 sends them), a trigger and its stack trace, an unknown
                 subtype, a malformed record
  threshold.log  exits only, on two CPUs, across two blocks, one callee
                 seeming to start 2 ticks before its caller
  profile.log    profile dumps: a first dump, a later one in two frames
                 that replaces it, another CPU, an empty frame; and a
                 block of function entries

Goldens are in test/host/golden/; the SVG is parsed as XML and its
widths, nesting and totals are checked against the numbers written.
"""
import json
import os
import shutil
import xml.etree.ElementTree as ET


import e2e_wire as wire
from e2e_baretrace import run, golden
from e2e_wire import FREQ, varint, zigzag, rec, payload, escape

# sites 0-6; _start lets return addresses in main resolve.
FUNCS = [("main", 0x40, 0x100), ("sensor_read", 0x140, 0x80), ("sensor_poll", 0x1C0, 0x40),
         ("filter_apply", 0x200, 0x80), ("filter_step", 0x280, 0x40), ("uart_send", 0x2C0, 0x40),
         ("_start", 0x0, 0x40)]
MAIN, READ, POLL, APPLY, STEP, UART, START = range(7)
US = 16 / 1000                          # microseconds per tick at FREQ


def symdump():
    b = varint(0) + varint(len(FUNCS))
    for name, start, size in FUNCS:
        b += varint(start) + varint(size) + wire.string(name)
    return b


def capture(frames, totals):
    """totals: the END frame's (cpu, produced, overwritten, dropped, discarded, blocks)."""
    head = [(2, 0, 0, wire.metadata(0x1234)), (3, 0, 0, symdump())]
    return (b"".join(escape(payload(*f)) for f in head + frames) +
            escape(payload(4, 0, 0, wire.end_totals(totals))))


def ext_log():
    b = varint(4 * FREQ)
    b += varint(0)  # first event number (wire.md 2.8)
    b += rec(1, 0, varint(MAIN), wire.caller_of(0x10))                 # main(0x1, ..) <- _start
    b += wire.ext_args(0, MAIN, 1, 2, 3)
    b += rec(3, 5, varint(READ), varint(0))                          # sensor_read(...) {
    b += wire.ext_args(0, READ, 0x40081234, -1)                        # after its entry (2.6)
    b += wire.ext_args(3, POLL, 7)                                     # before: the target's order
    b += rec(3, 0, varint(POLL), varint(1))                          #   sensor_poll(0x7);
    b += rec(2, 20, varint(POLL), varint(20), bytes([0]))
    b += wire.ext_trigger(2, READ, 4)                                  # stacktrace
    b += wire.ext_stack(0, 0x150, 0x60)                                # in sensor_read, in main
    b += wire.ext(1, 9, b"\x01\x02")                                   # unknown: skipped
    b += rec(2, 10, varint(READ), varint(36), bytes([1]), varint(zigzag(-22)))
    b += wire.ext_args(1, APPLY, 5)                                    # no entry before it
    b += wire.ext_trigger(1, UART, 2)                                  # traceoff
    b += wire.ext_trigger(0, UART, 42)                                 # an action from the future
    b += wire.ext(0, 1, b"\x05")                                       # args with no count
    b += rec(1, 1, varint(STEP), wire.caller_of(0x210))                # filter_step <- filter_apply
    b += wire.ext_args(0, STEP, 9)
    b += wire.ext_args(1, UART, 16) + rec(1, 0, varint(UART), wire.caller_of(0x1F0))
    return capture([(1, 0, 0, b)], [(0, 19, 0, 0, 0, 1)])  # 19 records but no kind 6


# Threshold calls (site, start, end) in ticks after 3 s; CPU 0 never sees
# main return, so its top calls have no caller in the trace.
CPU0 = [(READ, 100, 1100), (POLL, 120, 400), (POLL, 420, 700),
        (APPLY, 1200, 3200), (STEP, 1250, 1750), (STEP, 1800, 2300), (UART, 1900, 2100),
        (READ, 3300, 4300), (POLL, 3298, 3900)]      # this callee seems to start early
CPU1 = [(APPLY, 200, 900), (STEP, 300, 800)]
# name: (calls, total, self, max) in ticks, merged over CPUs
THRESHOLD_STATS = {"sensor_read": (2, 2000, 838, 1000), "sensor_poll": (3, 1162, 1162, 602),
                   "filter_apply": (2, 2700, 1200, 2000), "filter_step": (3, 1500, 1300, 500),
                   "uart_send": (1, 200, 200, 200)}


def threshold_log():
    t0 = 3 * FREQ
    first = [c for c in CPU0 if c[2] <= 2100]
    rest = [c for c in CPU0 if c[2] > 2100]
    rv = {(APPLY, 1200): 5}
    return capture([(1, 0, 0, wire.exits_only(t0 + 50, first, origin=t0, retvals=rv)),
                    (1, 1, 0, wire.exits_only(t0 + 10, CPU1, origin=t0)),
                    (1, 0, 1, wire.exits_only(t0 + 2100, rest, origin=t0, retvals=rv,
                                            first=len(first)))],
                   [(0, len(CPU0), 0, 0, 0, 2), (1, len(CPU1), 0, 0, 0, 1)])


# (site, calls, total, min, max); CPU 0's second dump replaces its first.
DUMP0_OLD = [(READ, 3, 3000, 500, 1500), (APPLY, 2, 5000, 2000, 3000)]
DUMP0_A = [(MAIN, 1, 90000, 90000, 90000), (READ, 5, 6000, 400, 1500)]
DUMP0_B = [(APPLY, 4, 9000, 1000, 3000), (STEP, 8, 4000, 300, 700)]
DUMP1 = [(READ, 1, 700, 700, 700), (UART, 10, 1000, 50, 400)]
PROFILE = {"main": (1, 90000, 90000, 90000), "filter_apply": (4, 9000, 1000, 3000),
           "sensor_read": (6, 6700, 400, 1500), "filter_step": (8, 4000, 300, 700),
           "uart_send": (10, 1000, 50, 400)}


def profile_log():
    entries = varint(5 * FREQ) + varint(0) + rec(1, 0, varint(READ), wire.caller_of(0x60))
    entries += rec(0, 4, varint(READ)) + rec(1, 4, varint(UART), wire.caller_of(0x210))
    return capture([(5, 0, 0, wire.profile_body(DUMP0_OLD)), (5, 1, 0, wire.profile_body(DUMP1)),
                    (1, 0, 0, entries),
                    (5, 0, 1, wire.profile_body(DUMP0_A)), (5, 0, 2, wire.profile_body(DUMP0_B)),
                    (5, 1, 1, wire.profile_body([]))],
                   [(0, 3, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0)])


def usecs(ticks):
    ns = ticks * 16
    return f"{ns // 1000}.{ns % 1000:03d}"


# ---- checks ------------------------------------------------------------------

def nest_ok(xs):
    for a in xs:
        for b in xs:
            if a is b or a["tid"] != b["tid"]:
                continue
            a0, a1, b0, b1 = a["ts"], a["ts"] + a["dur"], b["ts"], b["ts"] + b["dur"]
            if not (a1 <= b0 or b1 <= a0 or (a0 <= b0 and b1 <= a1) or (b0 <= a0 and a1 <= b1)):
                return False
    return True


SVG = "{http://www.w3.org/2000/svg}"


def svg_checks(tap, path, label, words, totals=None, cpus=None):
    """Widths exact, frames inside their callers, a title on each, totals
    per function as given ({name: (calls, ticks)}), warm module colours.
    With cpus (--per-cpu) each CPU is a panel (data-panel) whose root is
    its "CPU n" frame, on an axis of its own: the same rules per panel."""
    try:
        doc = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        tap.ok(False, f"svg {label}: parses as XML", e)
        return
    title = doc.find(SVG + "title").text or ""
    tap.ok(all(w in title for w in words), f"svg {label}: the title says {words}", title)
    groups = [g for g in doc.iter(SVG + "g")]
    frames = []
    for g in groups:
        r, t = g.find(SVG + "rect"), g.find(SVG + "title")
        if r is not None and t is not None and "data-ticks" in r.attrib:
            frames.append((r, t.text or ""))
    roots = {r.get("data-panel"): r for r, _ in frames if r.get("data-depth") == "0"}
    panels = sorted({r.get("data-panel") for r, _ in frames}, key=str)
    if not tap.ok(len(roots) == len(panels) == (len(cpus) if cpus else 1)
                  and len(frames) == len(groups) > 1,
                  f"svg {label}: one root per panel, every frame a <g> with a <title> and a <rect>",
                  f"{len(roots)} roots, {len(panels)} panels, {len(frames)} frames, "
                  f"{len(groups)} groups"):
        return
    W = float(next(iter(roots.values())).get("width"))
    T = {p: int(r.get("data-ticks")) for p, r in roots.items()}
    bad = [r.attrib for r, _ in frames
           if abs(float(r.get("width")) - W * int(r.get("data-ticks")) /
                  T[r.get("data-panel")]) > 0.01]
    tap.ok(not bad and all(float(r.get("width")) == W for r in roots.values()),
           f"svg {label}: every width is root width * ticks / its panel root's ticks", bad[:3])
    bad = []
    for r, _ in frames:
        d = int(r.get("data-depth"))
        if d == 0:
            continue
        x, w, y = float(r.get("x")), float(r.get("width")), float(r.get("y"))
        mid = x + w / 2
        par = [p for p, _ in frames if int(p.get("data-depth")) == d - 1 and
               p.get("data-panel") == r.get("data-panel") and
               float(p.get("x")) - 0.01 <= mid <= float(p.get("x")) + float(p.get("width")) + 0.01]
        if len(par) != 1 or not (float(par[0].get("x")) - 0.01 <= x and
                                 x + w <= float(par[0].get("x")) + float(par[0].get("width")) + 0.01
                                 and y < float(par[0].get("y"))):
            bad.append((r.attrib, [p.attrib for p in par]))
    tap.ok(not bad, f"svg {label}: each frame lies within one caller, on top of it", bad[:2])
    tap.ok(all(t.startswith(r.get("data-name") + ":") for r, t in frames),
           f"svg {label}: each title names its frame", [t for _, t in frames][:4])
    if totals is not None:
        got = {}
        for r, _ in frames:
            n, c = r.get("data-name"), int(r.get("data-calls"))
            if c:
                gc, gt = got.get(n, (0, 0))
                got[n] = (gc + c, gt + int(r.get("data-ticks")))
        tap.ok(got == totals, f"svg {label}: calls and ticks per function as written", got)
    if cpus is not None:
        names = [roots[p].get("data-name") for p in sorted(roots, key=int)]
        tap.ok(names == cpus, f"svg {label}: a panel per CPU, its root the CPU's frame", names)
    fills, warm = {}, True
    for r, _ in frames:
        n = r.get("data-name").lstrip("_")
        if n == "all" or n.startswith("CPU "):
            continue
        fills.setdefault(n.split("_")[0], set()).add(r.get("fill"))
        rgb = [int(v) for v in r.get("fill")[4:-1].split(",")]
        warm &= rgb[0] >= rgb[1] >= rgb[2]
    tap.ok(all(len(f) == 1 for f in fills.values()) and warm,
           f"svg {label}: one warm colour per module", fills)


def ext_checks(tap, tool, tmp, update):
    log, trace = os.path.join(tmp, "ext.log"), os.path.join(tmp, "ext.bt")
    with open(log, "wb") as f:
        f.write(ext_log())
    rc, _, err = run([tool, "capture", "--file", log, "-o", trace])
    tap.ok(rc == 0, "ext: capture", err)
    rc, rep, err = run([tool, "report", trace])
    tap.ok(rc == 0 and "malformed" in err and "subtype 1" in err,
           "ext: report warns of the malformed arguments record", err)
    golden(tap, "report_ext.txt", rep, update)
    js = os.path.join(tmp, "ext.json")
    rc, _, err = run([tool, "export", "--format=chrome-json", "-o", js, trace])
    ev = json.load(open(js))["traceEvents"] if rc == 0 else []
    inst = {e["name"]: e for e in ev if e["ph"] == "i"}
    xs = {e["name"]: e for e in ev if e["ph"] == "X"}
    st = inst.get("<stack trace>", {})
    tap.ok(st.get("cat") == "stacktrace" and st.get("args") == {"frames": ["sensor_read", "main"]},
           "ext chrome: a stack trace is an instant with its frames", st)
    tr = inst.get("trigger stacktrace on sensor_read", {})
    tap.ok(tr.get("args") == {"action": "stacktrace", "func": "sensor_read"} and
           "trigger traceoff on uart_send" in inst and "trigger action#42 on uart_send" in inst,
           "ext chrome: fired triggers are instants", sorted(inst))
    tap.ok(xs.get("sensor_read", {}).get("args") == {"retval": -22, "args": ["0x40081234",
                                                                         "0xffffffffffffffff"]}
           and xs.get("sensor_poll", {}).get("args") == {"args": ["0x7"]}
           and inst.get("main", {}).get("args") == {"caller": "_start", "args": ["0x1", "0x2", "0x3"]}
           and inst.get("uart_send", {}).get("args") == {"caller": "sensor_poll", "args": ["0x10"]}
           and inst.get("args of filter_apply", {}).get("args") == {"args": ["0x5"]},
           "ext chrome: arguments go with their call", [xs, inst.get("main")])
    ctf = os.path.join(tmp, "ext-ctf")
    rc, _, err = run([tool, "export", "--format=ctf", "-o", ctf, trace])
    tap.ok(rc == 0, "ext: export ctf", err)
    count = [l for l in rep.splitlines() if l.startswith("# ") and l.endswith(" events")]
    reported = int(count[0].split()[1]) if count else -1
    tap.ok(reported == 17, "ext: 17 events: records and known extensions, not the skipped ones",
           rep)
    if shutil.which("babeltrace2"):
        rc, out, err = run(["babeltrace2", ctf])
        lines = out.splitlines()
        tap.ok(rc == 0 and len(lines) == reported,
               f"ext: babeltrace2 reads {len(lines)} events, report counts {reported}", err + out)
        tap.ok(any("stack_trace" in l and 'frames = "sensor_read <- main"' in l for l in lines)
               and any("trigger" in l and 'action = "traceoff"' in l for l in lines)
               and any("func_args" in l and 'func = "main"' in l and "nargs = 3" in l
                       for l in lines), "ext: babeltrace2 shows stack traces, triggers, args", out)


def threshold_checks(tap, tool, tmp, update):
    log, trace = os.path.join(tmp, "threshold.log"), os.path.join(tmp, "threshold.bt")
    with open(log, "wb") as f:
        f.write(threshold_log())
    rc, _, err = run([tool, "capture", "--file", log, "-o", trace])
    tap.ok(rc == 0, "threshold: capture", err)
    rc, out, err = run([tool, "report", trace])
    tap.ok(rc == 0 and err == "", "threshold: report exits 0 quietly", err)
    golden(tap, "report_threshold.txt", out, update)
    rc, out, err = run([tool, "stats", trace])
    golden(tap, "stats_threshold.txt", out, update)
    rows = {l.split()[-1]: l.split()[:-1] for l in out.splitlines() if not l.startswith("#")}
    want = {n: [str(c), usecs(t), usecs(s), usecs(t // c), usecs(m)]
            for n, (c, t, s, m) in THRESHOLD_STATS.items()}
    tap.ok(rows == want, "threshold stats: calls, total, self by containment, avg, max", rows)
    rc, out, err = run([tool, "stats", trace, "--per-cpu"])
    golden(tap, "stats_threshold_percpu.txt", out, update)
    folded = os.path.join(tmp, "threshold.folded")
    rc, _, err = run([tool, "export", "--format=folded", "-o", folded, trace])
    golden(tap, "folded_threshold.txt", open(folded).read() if rc == 0 else err, update)
    js = os.path.join(tmp, "threshold.json")
    rc, _, err = run([tool, "export", "--format=chrome-json", "-o", js, trace])
    xs = [e for e in json.load(open(js))["traceEvents"] if e["ph"] == "X"] if rc == 0 else []
    tap.ok(len(xs) == 11 and nest_ok(xs), "threshold chrome: 11 slices that nest", xs)
    late = [e for e in xs if e["name"] == "sensor_read" and e["ts"] > 3000050]
    tap.ok(len(late) == 1 and abs(late[0]["ts"] - (3000000 + 3298 * US)) < 1e-6,
           "threshold chrome: a caller widened to hold a callee that seems to start early", late)
    svg = os.path.join(tmp, "threshold.svg")
    totals = {n: (c, t) for n, (c, t, _, _) in THRESHOLD_STATS.items()}
    rc, _, err = run([tool, "export", "--format=svg", "-o", svg, trace])
    tap.ok(rc == 0, "threshold: export svg", err)
    svg_checks(tap, svg, "threshold", ["inclusive time"], totals)
    rc, _, err = run([tool, "export", "--format=svg", "--per-cpu", "-o", svg, trace])
    svg_checks(tap, svg, "threshold --per-cpu", ["inclusive time"], totals, ["CPU 0", "CPU 1"])


def profile_checks(tap, tool, tmp, update):
    log, trace = os.path.join(tmp, "profile.log"), os.path.join(tmp, "profile.bt")
    with open(log, "wb") as f:
        f.write(profile_log())
    rc, _, err = run([tool, "capture", "--file", log, "-o", trace])
    tap.ok(rc == 0, "profile: capture stores profile frames", err)
    rc, out, err = run([tool, "report", trace])
    tap.ok(rc == 0 and out.count("# profile dump: ") == 5, "profile: report notes each frame", out)
    golden(tap, "report_profile.txt", out, update)
    rc, out, err = run([tool, "stats", trace])
    golden(tap, "stats_profile.txt", out, update)
    rows = {l.split()[-1]: l.split()[:-1] for l in out.splitlines()
            if not l.startswith("#") and len(l.split()) == 7}
    want = {n: [str(c), usecs(t), "-", usecs(t // c), usecs(lo), usecs(hi)]
            for n, (c, t, lo, hi) in PROFILE.items()}
    tap.ok(rows == want, "profile stats: exactly the calls, total, min and max written", rows)
    rc, out, err = run([tool, "stats", "--per-cpu", trace])
    golden(tap, "stats_profile_percpu.txt", out, update)
    svg = os.path.join(tmp, "profile.svg")
    rc, _, err = run([tool, "export", "--format=svg", "-o", svg, trace])
    svg_checks(tap, svg, "profile", ["profile dumps"], {n: (c, t) for n, (c, t, _, _) in
                                                        PROFILE.items()})


def svg_more(tap, tool, tmp, trace, entries, elf):
    """The SVG of the first e2e trace (graph records) and of entries only."""
    svg = os.path.join(tmp, "graph.svg")
    rc, _, err = run([tool, "export", "--format=svg", "-o", svg, trace, "--elf", elf])
    tap.ok(rc == 0, "svg of graph records: exit 0", err)
    svg_checks(tap, svg, "graph", ["inclusive time"],
               {"outer": (1, 6763), "mid": (2, 726 + 70000), "leaf": (2, 730)})
    rc, _, err = run([tool, "export", "--format=svg", "-o", svg, entries])
    tap.ok(rc == 0, "svg of entries only: exit 0", err)
    svg_checks(tap, svg, "entries", ["call counts"], {"outer": (3, 3), "leaf": (5, 5)})
    rc, _, err = run([tool, "export", "--format=ctf", "--per-cpu", "-o", svg, trace])
    tap.ok(rc == 2 and "--per-cpu goes with" in err, "--per-cpu with ctf: exit 2", err)


def checks(tap, tool, tmp, update, trace, entries, elf):
    ext_checks(tap, tool, tmp, update)
    threshold_checks(tap, tool, tmp, update)
    profile_checks(tap, tool, tmp, update)
    svg_more(tap, tool, tmp, trace, entries, elf)


def seeds():
    return {"ext.raw": ext_log(), "threshold.raw": threshold_log(), "profile.raw": profile_log()}
