"""test/host/e2e_viewers.py: the exports as the viewers users already have
read them, on one synthetic capture (e2e_baretrace.py's encoder) whose
every time and value is known here:

  CPU 0  outer() { leaf(); mid(); }   10000 ticks; then tracepoints
         irq:entry (irq=27 name="uart" delta=-3), sched:tick (ptr, count=7)
  CPU 1  mid() { leaf(); }            100 ticks, 20 ticks after CPU 0's start

Checks: Chrome JSON (tid = CPU + 1, a cat on every event, tracepoint
fields as typed args, --counters), the SVG flame graph's script run in
headless chromium (search and its matched share, zoom, reset, details
line) and --per-cpu panels on their own axis, folded --per-cpu, and the
CTF export read by babeltrace2 (ns times, LTTng-UST function events).

Usage: test/host/e2e_viewers.py BARETRACE [--keep DIR]   (TAP on stdout)
"""
import html
import json
import os
import re
import struct
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import e2e_baretrace as bt

import e2e_wire as wire
import e2e_features
from e2e_baretrace import run
from e2e_wire import FREQ, varint, zigzag, rec, payload, escape

NS_PER_TICK = 16                      # 1e9 / FREQ
TEXT_BASE = 0x40080000
FUNCS = [("outer", 0x140, 0x80), ("leaf", 0x1C0, 0x20), ("mid", 0x1E0, 0x60)]
OUTER, LEAF, MID = range(3)
T0, T1 = FREQ, FREQ + 20              # the blocks' base counter values

# (cpu, site, entry tick, exit tick) and the records' order on each CPU
CALLS = [(0, OUTER, T0, T0 + 10000), (0, LEAF, T0 + 10, T0 + 40), (0, MID, T0 + 50, T0 + 1050),
         (1, MID, T1, T1 + 100), (1, LEAF, T1 + 10, T1 + 50)]
IRQ_TS, TICK_TS, IRQ1_TS = T0 + 10005, T0 + 10010, T1 + 105
PTR = 0x40081234
LONG = b'a"b' * 100 + b"\0z"           # 302 bytes, quotes and a NUL: CPU 1's irq name


def metadata(image_hash):
    b = varint(1) + varint(2) + varint(2) + varint(FREQ) + varint(3) + varint(2)
    b += varint(4) + struct.pack("<I", image_hash) + varint(5) + varint(len(FUNCS))
    b += varint(6) + varint(TEXT_BASE)
    b += varint(7) + varint(1) + wire.string("irq:entry") + bytes([3])
    b += wire.string("irq") + bytes([3]) + wire.string("%u")
    b += wire.string("name") + bytes([10]) + wire.string("")
    b += wire.string("delta") + bytes([8]) + wire.string("%+d")
    b += varint(7) + varint(2) + wire.string("sched:tick") + bytes([2])
    b += wire.string("ptr") + bytes([9]) + wire.string("") + wire.string("count") + bytes([4])
    b += wire.string("")
    b += varint(7) + varint(3) + wire.string('odd"sys:ev') + bytes([0])   # JSON must escape it
    return b


def symdump():
    b = varint(0) + varint(len(FUNCS))
    for name, start, size in FUNCS:
        b += varint(start) + varint(size) + wire.string(name)
    return b


def capture_log():
    cpu0 = varint(T0) + varint(0)
    cpu0 += rec(3, 0, varint(OUTER), varint(0))
    cpu0 += rec(3, 10, varint(LEAF), varint(1))
    cpu0 += rec(2, 30, varint(LEAF), varint(30), bytes([0]))
    cpu0 += rec(3, 10, varint(MID), varint(1))
    cpu0 += rec(2, 1000, varint(MID), varint(1000), bytes([0]))
    cpu0 += rec(2, 8950, varint(OUTER), varint(10000), bytes([0]))
    cpu0 += rec(4, 5, varint(1), varint(zigzag(27)), wire.string("uart"), varint(zigzag(-3)))
    cpu0 += rec(4, 5, varint(2), varint(zigzag(PTR)), varint(zigzag(7)))
    cpu1 = varint(T1) + varint(0)
    cpu1 += rec(3, 0, varint(MID), varint(0))
    cpu1 += rec(3, 10, varint(LEAF), varint(1))
    cpu1 += rec(2, 40, varint(LEAF), varint(40), bytes([0]))
    cpu1 += rec(2, 50, varint(MID), varint(100), bytes([0]))
    cpu1 += rec(4, 5, varint(1), varint(zigzag(33)), wire.string(LONG), varint(zigzag(0)))
    cpu1 += rec(4, 5, varint(3))
    frames = [(2, 0, 0, metadata(0x1234)), (3, 0, 0, symdump()), (1, 0, 0, cpu0),
              (1, 1, 0, cpu1), (4, 0, 0, wire.end_totals([(0, 8, 0, 0, 0, 1), (1, 6, 0, 0, 0, 1)]))]
    return b"".join(escape(payload(*f)) for f in frames)


def us(ticks):
    """Chrome's microseconds for a counter value."""
    return ticks * NS_PER_TICK / 1000


def load_events(tap, path, label):
    """The traceEvents of a JSON export, or [] with a failed test."""
    try:
        return json.load(open(path))["traceEvents"]
    except (OSError, ValueError, KeyError) as e:
        tap.ok(False, f"{label}: the export parses as JSON", e)
        return []


def chrome_checks(tap, tool, tmp, trace):
    js = os.path.join(tmp, "v.json")
    rc, _, err = run([tool, "export", "--format=chrome-json", "-o", js, trace])
    ev = load_events(tap, js, "chrome") if rc == 0 else []
    tap.ok(rc == 0 and ev, "chrome: export", err)
    names = {e["tid"]: e["args"]["name"] for e in ev if e["name"] == "thread_name"}
    tap.ok(names == {1: "CPU 0", 2: "CPU 1"}, "chrome: thread_name 'CPU n' on tid n + 1", names)
    tap.ok(all(isinstance(e.get("cat"), str) and e["cat"] for e in ev),
           "chrome: every event has a cat", [e for e in ev if not e.get("cat")][:3])
    xs = sorted((e["tid"], e["name"], e["ts"], e["dur"], e["cat"]) for e in ev if e["ph"] == "X")
    want = sorted((cpu + 1, FUNCS[site][0], us(a), us(b - a), "graph")
                  for cpu, site, a, b in CALLS)
    tap.ok(len(xs) == len(want) and all(x[:2] == w[:2] and abs(x[2] - w[2]) < 1e-6 and
                                        abs(x[3] - w[3]) < 1e-6 and x[4] == w[4]
                                        for x, w in zip(xs, want)),
           "chrome: each call a 'graph' X event on tid CPU + 1 with its times", xs)
    tps = {e["name"] + ("" if e["tid"] == 1 else "@1"): e for e in ev if e["ph"] == "i"}
    irq, tick = tps.get("irq:entry", {}), tps.get("sched:tick", {})
    typed = irq.get("args") == {"irq": 27, "name": "uart", "delta": -3} and \
        tick.get("args") == {"ptr": hex(PTR), "count": 7} and \
        all(type(v) is int for v in (irq["args"]["irq"], irq["args"]["delta"],
                                     tick["args"]["count"]))
    tap.ok(typed, "chrome: tracepoint fields are typed args (numbers, strings, pointers in hex)",
           [irq, tick])
    tap.ok(irq.get("cat") == "tracepoint,irq" and tick.get("cat") == "tracepoint,sched"
           and irq.get("tid") == 1 and abs(irq.get("ts", 0) - us(IRQ_TS)) < 1e-6,
           "chrome: a tracepoint's cat names its system; its tid and time", irq)
    long = tps.get("irq:entry@1", {})
    tap.ok(long.get("args") == {"irq": 33, "name": LONG.decode().replace("\0", "?"), "delta": 0}
           and long.get("tid") == 2,
           "chrome: a 302-byte string field with quotes and a NUL comes whole (NUL as '?')",
           long)
    odd = tps.get('odd"sys:ev@1', {})
    tap.ok(odd.get("cat") == 'tracepoint,odd"sys' and odd.get("args") == {},
           "chrome: a system name with a quote is escaped in cat", odd)
    tap.ok(not [e for e in ev if e["ph"] == "C"], "chrome: no counters unless asked")
    rc, _, err = run([tool, "export", "--format=chrome-json", "--counters", "-o", js, trace])
    ev = load_events(tap, js, "chrome --counters") if rc == 0 else []
    cs = [(e["name"], e["cat"], round(e["ts"], 3), e["args"]) for e in ev if e["ph"] == "C"]
    want = [("irq:entry.irq", "counter", us(IRQ_TS), {"irq": 27}),
            ("irq:entry.delta", "counter", us(IRQ_TS), {"delta": -3}),
            ("sched:tick.count", "counter", us(TICK_TS), {"count": 7}),
            ("irq:entry.irq", "counter", us(IRQ1_TS), {"irq": 33}),
            ("irq:entry.delta", "counter", us(IRQ1_TS), {"delta": 0})]
    tap.ok(rc == 0 and cs == want,
           "chrome --counters: a counter event per integer field (no strings, no pointers)", cs)
    rc, _, err = run([tool, "export", "--format=svg", "--counters", "-o", js, trace])
    tap.ok(rc == 2 and "--counters goes with chrome-json" in err, "--counters with svg: exit 2",
           err)


# Run inside the SVG after its own script: drives the UI as a user would
# (prompt answered, buttons and frames clicked) and writes what it saw.
PROBE = """<script type="text/ecmascript"><![CDATA[
(function () {
    var out = {}, ui = window.baretrace_flame;
    function frame(name, depth, panel) {
        return ui.frames.filter(function (f) {
            return f.name === name && f.depth === depth && (panel === undefined || f.panel === panel);
        })[0];
    }
    function click(el) { el.dispatchEvent(new MouseEvent("click", { bubbles: true })); }
    function widths() {
        return ui.frames.map(function (f) {
            return [f.name, f.depth, f.panel, +f.r.getAttribute("width"),
                    f.g.style.display === "none"];
        });
    }
    out.initial = document.getElementById("matched").textContent;   /* ?s=mid */
    ui.search("");
    window.prompt = function () { return "leaf"; };
    click(document.getElementById("search"));
    out.matched = document.getElementById("matched").textContent;
    out.highlighted = ui.frames.filter(function (f) {
        return f.r.getAttribute("fill") === "rgb(230,0,230)";
    }).map(function (f) { return f.name; });
    click(document.getElementById("search"));
    out.cleared = document.getElementById("matched").textContent;
    out.regex = ui.search("^m");
    out.nested = ui.search("mid|leaf");
    out.substring = ui.search("(");
    ui.search("");
    out.before = widths();
    var z = frame(ZOOM_NAME, ZOOM_DEPTH, ZOOM_PANEL);
    click(z.g);
    out.zoomed = widths();
    out.unzoom_shown = document.getElementById("unzoom").style.visibility;
    click(document.getElementById("unzoom"));
    out.reset = widths();
    z.g.dispatchEvent(new MouseEvent("mouseover"));
    out.details = document.getElementById("details").textContent;
    out.title = z.title;
    var t = document.createElementNS("http://www.w3.org/2000/svg", "text");
    t.setAttribute("id", "probe");
    t.textContent = JSON.stringify(out);
    document.documentElement.appendChild(t);
})();
]]></script>
"""


def in_chromium(tap, svg, tmp, label, zoom):
    """Runs PROBE in svg under headless chromium; returns what it saw."""
    probe = PROBE.replace("ZOOM_NAME", json.dumps(zoom[0])).replace(
        "ZOOM_DEPTH", str(zoom[1])).replace("ZOOM_PANEL", json.dumps(zoom[2]))
    text = open(svg).read()
    probed = os.path.join(tmp, label + "-probe.svg")
    with open(probed, "w") as f:
        f.write(text.replace("</svg>", probe + "</svg>"))
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not tap.ok(exe, f"svg {label}: chromium is installed (tools/setup installs it)"):
        return None
    try:
        p = subprocess.run([exe, "--headless=new", "--disable-gpu", "--no-sandbox",
                            "--user-data-dir=" + os.path.join(tmp, "chromium-profile"),
                            "--dump-dom", "file://" + probed + "?s=mid"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        dom = p.stdout.decode(errors="replace")
    except subprocess.TimeoutExpired:
        dom = ""
    m = re.search(r'<text id="probe">(.*?)</text>', dom, re.S)
    if not tap.ok(m, f"svg {label}: the script runs in chromium", dom[-2000:]):
        return None
    return json.loads(html.unescape(m.group(1))), dom


def svg_checks(tap, tool, tmp, trace):
    svg = os.path.join(tmp, "v.svg")
    rc, _, err = run([tool, "export", "--format=svg", "-o", svg, trace])
    tap.ok(rc == 0, "svg: export", err)
    doc = ET.parse(svg).getroot()
    scripts = doc.findall(e2e_features.SVG + "script")
    tap.ok(len(scripts) == 1 and "baretrace_flame" in (scripts[0].text or "")
           and "src" not in scripts[0].attrib and "href" not in str(scripts[0].attrib),
           "svg: one inline <script>, nothing loaded from outside", [s.attrib for s in scripts])
    e2e_features.svg_checks(tap, svg, "viewers", ["inclusive time"],
                            {"outer": (1, 10000), "mid": (2, 1100), "leaf": (2, 70)})
    total = 10000 + 100                 # outer on CPU 0, mid on CPU 1: the root's ticks
    got = in_chromium(tap, svg, tmp, "merged", ("mid", 1, None))
    if got:
        r, _ = got
        share = 100 * (30 + 40) / total
        tap.ok(r["initial"] == f"Matched: {100 * 1100 / total:.2f}% (2 frames of /mid/)",
               "svg chromium: ?s=mid in the URL searches at load", r["initial"])
        tap.ok(r["matched"] == f"Matched: {share:.2f}% (2 frames of /leaf/)" and
               r["highlighted"] == ["leaf", "leaf"] and r["cleared"] == " ",
               "svg chromium: Search finds leaf, highlights its 2 frames, gives its share; "
               "clicking again clears", r)
        tap.ok(abs(r["regex"] - 100 * 1100 / total) < 1e-9 and
               abs(r["nested"] - 100 * (1100 + 30) / total) < 1e-9 and r["substring"] == 0,
               "svg chromium: a regex; a frame under a matched frame counted once; "
               "a term that is no regex as a substring", r)
        W = 1200 - 2 * 10
        shown = {(n, d): w for n, d, _, w, hid in r["zoomed"] if not hid}
        tap.ok(len(shown) == 3 and abs(shown[("mid", 1)] - W) < 0.01 and
               abs(shown[("leaf", 2)] - W * 40 / 100) < 0.01 and
               abs(shown[("all", 0)] - W) < 0.01 and
               r["unzoom_shown"] == "visible",
               "svg chromium: a click on CPU 1's mid zooms: it and its caller fill the width, "
               "its leaf 40 % of it, outer hidden", r["zoomed"])
        tap.ok(r["reset"] == r["before"] and r["before"] != r["zoomed"],
               "svg chromium: Reset Zoom restores every frame", r["reset"])
        tap.ok(r["details"] == r["title"] and r["title"].startswith("mid: 1 call, 1.600 us"),
               "svg chromium: hovering shows the frame on the details line", r["details"])

    rc, _, err = run([tool, "export", "--format=svg", "--per-cpu", "-o", svg, trace])
    tap.ok(rc == 0, "svg --per-cpu: export", err)
    e2e_features.svg_checks(tap, svg, "viewers --per-cpu", ["inclusive time"],
                            {"outer": (1, 10000), "mid": (2, 1100), "leaf": (2, 70)},
                            ["CPU 0", "CPU 1"])
    rects = [r for r in ET.parse(svg).getroot().iter(e2e_features.SVG + "rect")
             if r.get("data-panel") == "1"]
    mid = [float(r.get("width")) for r in rects if r.get("data-name") == "mid"]
    tap.ok(mid == [1180.0], "svg --per-cpu: CPU 1's 100 ticks fill CPU 1's full width", mid)
    got = in_chromium(tap, svg, tmp, "per-cpu", ("leaf", 2, "1"))
    if got:
        r, _ = got
        zoomed = {(n, d, p): (w, hid) for n, d, p, w, hid in r["zoomed"]}
        tap.ok(r["matched"].startswith(f"Matched: {100 * 70 / total:.2f}%") and
               abs(zoomed[("leaf", 2, "1")][0] - 1180) < 0.01 and
               abs(zoomed[("outer", 1, "0")][0] - 1180 * 10000 / 10000) < 0.01 and
               not zoomed[("outer", 1, "0")][1] and r["reset"] == r["before"],
               "svg --per-cpu chromium: search over all CPUs; a zoom in CPU 1 leaves CPU 0 be",
               r)


def folded_checks(tap, tool, tmp, trace):
    folded = os.path.join(tmp, "v.folded")
    rc, _, err = run([tool, "export", "--format=folded", "--per-cpu", "-o", folded, trace])
    got = open(folded).read().splitlines() if rc == 0 else [err]
    # A space would end the stack for some readers: the CPU frame is CPU_n.
    want = [f"CPU_0;outer {(10000 - 30 - 1000) * NS_PER_TICK}", f"CPU_0;outer;leaf {30 * 16}",
            f"CPU_0;outer;mid {1000 * 16}", f"CPU_1;mid {60 * 16}", f"CPU_1;mid;leaf {40 * 16}"]
    tap.ok(got == want, "folded --per-cpu: 'CPU_n' first, self time in ns", got)


def ctf_checks(tap, tool, tmp, trace):
    ctf = os.path.join(tmp, "v-ctf")
    rc, _, err = run([tool, "export", "--format=ctf", "-o", ctf, trace])
    tap.ok(rc == 0, "ctf: export", err)
    if not tap.ok(shutil.which("babeltrace2"), "ctf: babeltrace2 is installed (tools/setup)"):
        return
    rc, out, err = run(["babeltrace2", "--clock-seconds", ctf])
    seen = []
    for line in out.splitlines():
        m = re.match(r"\[(\d+)\.(\d{9})\] \S+ (.+?): \{ cpu_id = (\d+) \}, "
                     r"\{ vpid = 1, vtid = (\d+), procname = \"baretrace\" \}, \{ (.*) \}$", line)
        if not m:
            seen.append(("unparsed", line))
            continue
        ns = int(m.group(1)) * 10**9 + int(m.group(2))
        fields = dict(f.split(" = ", 1) for f in m.group(6).split(", "))
        seen.append((ns, m.group(3), int(m.group(4)), int(m.group(5)), fields))
    want = []
    for cpu, site, a, b in CALLS:
        addr = hex(TEXT_BASE + FUNCS[site][1]).upper().replace("X", "x")
        want.append((a * NS_PER_TICK, "lttng_ust_cyg_profile:func_entry", cpu, cpu + 1,
                     {"addr": addr, "call_site": "0x0", "func": f'"{FUNCS[site][0]}"'}))
        want.append((b * NS_PER_TICK, "lttng_ust_cyg_profile:func_exit", cpu, cpu + 1,
                     {"addr": addr, "call_site": "0x0", "func": f'"{FUNCS[site][0]}"',
                      "duration_ns": str((b - a) * NS_PER_TICK)}))
    want.append((IRQ_TS * NS_PER_TICK, "irq:entry", 0, 1,
                 {"irq": "27", "name": '"uart"', "delta": "-3"}))
    want.append((TICK_TS * NS_PER_TICK, "sched:tick", 0, 1, {"ptr": "0x40081234", "count": "7"}))
    want.append((IRQ1_TS * NS_PER_TICK, "irq:entry", 1, 2, {"irq": "33", "delta": "0"}))
    want.append(((IRQ1_TS + 5) * NS_PER_TICK, 'odd"sys:ev', 1, 2, {}))
    got = sorted(seen, key=lambda e: (-1, "", 0) if e[0] == "unparsed" else e[:3])
    want.sort(key=lambda e: e[:3])
    bad = [(w, g) for w, g in zip(want + [None] * (len(got) - len(want)), got)
           if w is None or g[0] == "unparsed" or g[:4] != w[:4]
           or any(g[4].get(k) != v for k, v in w[4].items())]
    tap.ok(rc == 0 and len(got) == len(want) and not bad,
           "ctf babeltrace2: every event at its ns time on its CPU (vtid CPU + 1); graph "
           "records as lttng_ust_cyg_profile:func_entry/func_exit with addr, call_site, "
           "duration in ns; tracepoints with their fields",
           "\n".join(f"want {w}\ngot  {g}" for w, g in bad[:4]) + f"\n{len(got)} events\n" + err)
    rc, meta, err = run(["babeltrace2", "--output-format=ctf-metadata", ctf])
    tap.ok(rc == 0 and "freq = 1000000000;" in meta and "62500000 Hz" in meta,
           "ctf: the clock counts ns and names the counter's frequency", meta[-1500:] + err)


def checks(tap, tool, tmp):
    log, trace = os.path.join(tmp, "viewers.log"), os.path.join(tmp, "viewers.bt")
    with open(log, "wb") as f:
        f.write(capture_log())
    rc, _, err = run([tool, "capture", "--file", log, "-o", trace])
    tap.ok(rc == 0, "viewers: capture", err)
    chrome_checks(tap, tool, tmp, trace)
    svg_checks(tap, tool, tmp, trace)
    folded_checks(tap, tool, tmp, trace)
    ctf_checks(tap, tool, tmp, trace)


def main():
    return bt.tap_main(checks, __doc__, "bt-viewers-")


if __name__ == "__main__":
    sys.exit(main())
