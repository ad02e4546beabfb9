"""test/typed_viewers.py: typed arguments in the trace-cmd export, as
Debian's trace-cmd and KernelShark show them.

typed_args.py traces test/apps/typed and derives each call's arguments
and return value from the seed ('want': (function, "name=value, ...",
return text or None)); here the trace-cmd export of that trace must hold
them as events of system "typed" (FUNC with the arguments, FUNC__return
with ret):

- `trace-cmd report` prints every call's arguments and return value by
  name and type, each return right after its funcgraph_exit, and a
  filter on an argument compares it as a number;
- without --elf the export has no typed events (the values stay out);
- KernelShark, under Xvfb, opens the file: the screenshot (saved to
  build/host/typed-kernelshark.png) must show one CPU plot per CPU that
  has events, with event marks from its left end to its right end, and
  the list view's first rows, read by tesseract, the typed events with
  their fields.

Called from typed_args.check; needs the programs tools/setup installs.
"""
import os
import re
import shutil
import subprocess
import tempfile
import time

ENUM_RETURNS = ("ty_mode_of", "ty_sensor_read")  # return an enum


def tc_return(fn, ret):
    """What trace-cmd prints for a return value report shows as ret: an
    enum value with no enumerator's name in hex (__print_symbolic)."""
    return hex(int(ret)) if fn in ENUM_RETURNS and re.fullmatch(r"-?\d+", ret) else ret


def expected_events(want):
    out = []
    for fn, args, ret in want:
        out.append((fn, f"({args})"))
        if ret is not None:
            out.append((fn + "__return", "ret=" + tc_return(fn, ret)))
    return out


def report_lines(text):
    """(cpu, time, event, info) of each event line of trace-cmd report."""
    return re.findall(r"^\s*\S+-\d+\s+\[(\d+)\]\s+([\d.]+):\s+(\w+):\s+(.*?)\s*$", text, re.M)


def check_tracecmd(h, res, tool, bt, elf, want):
    """The export's typed events in trace-cmd report; returns the .dat and
    its event times (s) by CPU, as trace-cmd reads them."""
    dat = os.path.join(h.HOST, "typed.dat")
    rst, out = h.run([tool, "export", "--format", "trace-cmd", bt, "--elf", elf, "-o", dat])
    tst, text = h.run(["trace-cmd", "report", dat]) if rst == 0 else (None, out)
    lines = report_lines(text)
    got = [(ev, info) for _, _, ev, info in lines if ev.startswith("ty_")]
    want_ev = expected_events(want)
    # each return value at its call's exit: right after the funcgraph_exit
    # (-R: each event as it is, no graph plugin joining entry and exit), same time
    _, rtext = h.run(["trace-cmd", "report", "-R", dat])
    rlines = report_lines(rtext)
    placed = [i > 0 and rlines[i - 1][2] == "funcgraph_exit" and rlines[i - 1][1] == t
              for i, (_, t, ev, _) in enumerate(rlines) if ev.endswith("__return")]
    placed = len(placed) == sum(1 for w in want if w[2] is not None) and all(placed)
    res.record("typed: trace-cmd export: trace-cmd report shows each ty_* call's arguments by "
               "name and type (event typed:FUNC) and its return value (FUNC__return, right "
               "after its funcgraph_exit), as the test derives them; no warnings",
               rst == 0 and tst == 0 and got == want_ev and placed and "warning" not in out,
               f"{out}\ngot:\n" + "\n".join(map(str, got)) + "\nwant:\n" +
               "\n".join(map(str, want_ev)) + f"\nplaced {placed}\n" + text[-1500:])

    big = [a for fn, a, _ in want if fn == "ty_sensor_read" and
           int(re.search(r"len=(\d+)", a).group(1)) > 32]
    fst, ftext = h.run(["trace-cmd", "report", "-F", "ty_sensor_read: len > 32", dat])
    res.record("typed: trace-cmd filters on a typed argument as a number "
               "(-F 'ty_sensor_read: len > 32' keeps the calls the test derives)",
               fst == 0 and big and
               [(ev, i) for _, _, ev, i in report_lines(ftext)] ==
               [("ty_sensor_read", f"({a})") for a in big],
               f"want {big}\n{ftext[-1500:]}")

    raw = os.path.join(h.HOST, "typed-raw.dat")
    rst, out = h.run([tool, "export", "--format", "trace-cmd", bt, "-o", raw])
    tst, text = h.run(["trace-cmd", "report", raw]) if rst == 0 else (None, out)
    evs = [ev for _, _, ev, _ in report_lines(text)]
    res.record("typed: trace-cmd export without --elf: no typed events (no types to name "
               "them), the graph as before, no warnings about the string records",
               rst == 0 and tst == 0 and not any(e.startswith("ty_") for e in evs) and
               evs.count("funcgraph_entry") == len(want) and "warning" not in out,
               out + text[-1500:])
    times = {}
    for cpu, t, _, _ in rlines:
        times.setdefault(int(cpu), []).append(float(t))
    return dat, times


def _marks(img, band):
    """Columns with the band's colour in the 8 rows above it: the event
    marks, as runs [(x0, x1)]."""
    width, _, rgb = img
    y0, _, bx0, bx1, col = band
    cols = [any(rgb[3 * (y * width + x):3 * (y * width + x) + 3] == col
                for y in range(y0 - 8, y0 - 1)) for x in range(bx0, bx1)]
    runs, start = [], None
    for i, c in enumerate(cols + [False]):
        if c and start is None:
            start = i
        elif not c and start is not None:
            runs.append((bx0 + start, bx0 + i))
            start = None
    return runs


# Glyphs tesseract mixes up at this size, each class written as one
# character on both sides (seen: s16 read as 516, '\x0a' as "\x@a"):
# what is compared stays the names and values, not the glyphs' shapes.
_GLYPHS = str.maketrans({"5": "s", "@": "0", "o": "0", "1": "l", "i": "l", "|": "l",
                         '"': "'", "`": "'", "\u2018": "'", "\u2019": "'", "\u201c": "'",
                         "\u201d": "'", "{": "(", "[": "(", "}": ")", "]": ")"})


def _norm(s):
    return re.sub(r"[\s_]", "", s).lower().translate(_GLYPHS)


def _row_seen(lines, ev, info):
    """Whether a line of the OCR text shows event ev with info. A long
    hex number (an address) counts as any long hex number: tesseract
    misreads its digits (0x4028dfb0 as 0x4028dfba) and the trace-cmd
    check has compared the addresses already; names and the other values
    must be read as they are, the names to a character (_fields_match)."""
    def norm(x):
        return re.sub(r"0x[0-9a-z]{6,}", "0x#", _norm(x))
    e, i = norm(ev), norm(info)
    for line in lines:
        n = norm(line)
        k = n.find(e)
        if k < 0:
            continue
        rest = n[k + len(e):]
        if rest.startswith("return") and not e.endswith("return"):
            continue        # FUNC__return's line, not FUNC's
        if rest.startswith(i) or _fields_match(rest, i):
            return True
    return False


def _one_edit(a, b):
    """Whether a and b differ by at most one inserted, dropped or changed
    character."""
    if abs(len(a) - len(b)) > 1:
        return False
    i = 0
    while i < min(len(a), len(b)) and a[i] == b[i]:
        i += 1
    return a[i + 1:] == b[i + 1:] or a[i:] == b[i + 1:] or a[i + 1:] == b[i:]


def _fields_match(seen, want):
    """NAME=VALUE fields (normalised) read as wanted: every value exactly,
    each name within one character (tesseract has read 'len' as 'Llen')."""
    pair = re.compile(r"([a-z0-9]+)=([^,()]*)")
    w = pair.findall(want)
    s = pair.findall(seen[:len(want) + 8])[:len(w)]
    return bool(w) and len(s) == len(w) and all(
        sv == wv and _one_edit(sn, wn) for (sn, sv), (wn, wv) in zip(s, w))


def check_kernelshark(h, res, dat, want, times):
    """KernelShark opens the export: CPU plots and the typed fields."""
    import xshot
    tools = ["kernelshark", "Xvfb", "xdotool", "xwd", "tesseract"]
    missing = [t for t in tools if not shutil.which(t)]
    if missing:
        res.record("typed: KernelShark check's programs are installed (tools/setup "
                   "installs them)", False, f"missing: {' '.join(missing)}")
        return
    shot = os.path.join(h.HOST, "typed-kernelshark.png")
    started = time.monotonic()
    img, log = xshot.kernelshark(dat, lambda i: len(xshot.bands(i)) == len(times))
    text = ""
    if img:
        xshot.write_png(shot, img)
        width, height, _ = img
        # the list view, right of its first columns, twice the size for tesseract
        with tempfile.TemporaryDirectory(prefix="bt-ocr-") as tmp:
            ppm = os.path.join(tmp, "list.ppm")
            xshot.write_ppm(ppm, xshot.scale(xshot.crop(img, width // 5, height // 4,
                                                       width, height), 2))
            text = subprocess.run(["tesseract", ppm, "-"], capture_output=True,
                                  text=True, timeout=120).stdout
    took = time.monotonic() - started

    # One plot per CPU with events, in CPU order; its marks where its
    # events' times put them on the time axis (first to last event).
    bands = xshot.bands(img) if img else []
    marks = [_marks(img, b) for b in bands]
    t0 = min(min(v) for v in times.values())
    t1 = max(max(v) for v in times.values())
    placed = []
    for (_, _, bx0, bx1, _), runs, cpu in zip(bands, marks, sorted(times)):
        xs = [bx0 + (t - t0) / (t1 - t0) * (bx1 - bx0) for t in times[cpu]]
        placed.append((
            # no mark where there is no event
            all(any(x0 - 3 <= x <= x1 + 3 for x in xs) for x0, x1 in runs) and
            # a mark at each event (the right edge's last pixels may stay blank)
            all(any(x0 - 3 <= x <= x1 + 3 for x0, x1 in runs) for x in xs if x < bx1 - 4) and
            len(runs) >= 5))
    res.record(f"typed: KernelShark opens the trace-cmd export: a CPU plot for each of the "
               f"{len(times)} CPU(s) with events, its event marks where the events' times put "
               f"them (screenshot {os.path.relpath(shot, h.ROOT)})",
               img is not None and len(bands) == len(times) and all(placed),
               f"took {took:.1f} s; bands {[b[:4] for b in bands]}; placed {placed}; "
               f"marks {marks}; times {times}\n{log[-1500:]}")

    # The first rows: the first calls' typed events, fields and values as derived.
    lines = text.splitlines()
    rows = []
    for ev, info in expected_events(want)[:8]:
        if len(info) <= 60:  # longer runs past the window's edge
            rows.append(("typed/" + ev, info))
    found = [(ev, info) for ev, info in rows if _row_seen(lines, ev, info)]
    res.record("typed: KernelShark's list view shows the typed events (typed/FUNC, "
               "typed/FUNC__return) with the arguments and return values the test derives "
               "(read by tesseract)",
               img is not None and len(rows) >= 4 and found == rows,
               f"OCR:\n{text[:3000]}\nwant {rows}\nfound {found}\n"
               f"missing {[r for r in rows if r not in found]}")
