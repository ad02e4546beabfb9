"""test/layers.py: the layers point one way (ARCHITECTURE.md 2): trace/
uses the kernel, never the reverse. No file under kernel/, drivers/ or
boot/ may include a header of trace/ (any of its folders) or wire/, or
name a symbol they define (the kernel offers hooks, kernel/report/hooks.h, that
the trace core registers on).
"""
import glob
import os
import re
import subprocess

LOWER = ("kernel", "drivers", "boot")
UPPER = ("trace", "wire")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def violations(sources, trace_symbols, trace_headers):
    """sources: {path: text}. Returns a list of 'path: what' strings."""
    found = []
    for path, text in sorted(sources.items()):
        code = strip_comments(text)
        for inc in re.findall(r'#\s*include\s*"([^"]+)"', code):
            if os.path.basename(inc) in trace_headers:
                found.append(f"{path}: includes {trace_headers[os.path.basename(inc)]}")
        words = set(re.findall(r"\b[A-Za-z_]\w*\b", code))
        for sym in sorted(words & trace_symbols):
            found.append(f"{path}: names {sym} (trace/)")
    return found


def trace_symbols(root, board):
    """Global symbols the trace core's objects define (nm)."""
    objs = [o for d in UPPER for o in glob.glob(os.path.join(root, "build", board, "obj", d,
                                                              "**", "*.o"), recursive=True)]
    out = subprocess.run(["aarch64-linux-gnu-nm", "--defined-only", "-g"] + objs,
                         capture_output=True, text=True).stdout
    return {l.split()[-1] for l in out.splitlines() if len(l.split()) == 3}


def check(h, res, board):
    st, out = h.run(["make", "-s", f"BOARD={board}"], timeout=1800)  # may build newlib first
    syms = trace_symbols(h.ROOT, board)
    headers = {os.path.basename(p): os.path.relpath(p, h.ROOT) for d in UPPER
               for p in glob.glob(os.path.join(h.ROOT, d, "**", "*.h"), recursive=True)}
    sources = {}
    for d in LOWER:
        for p in glob.glob(os.path.join(h.ROOT, d, "**", "*.[chS]"), recursive=True):
            with open(p, errors="replace") as f:
                sources[os.path.relpath(p, h.ROOT)] = f.read()
    found = violations(sources, syms, headers)
    res.record("layers: no file under kernel/, drivers/ or boot/ includes a trace/ header or "
               f"names a trace/ symbol ({len(syms)} symbols, {len(sources)} files)",
               st == 0 and len(syms) > 50 and len(sources) > 20 and not found,
               "\n".join(found) or out)
    # The check itself can fail: a kernel file as it was before the hooks.
    bad = {"kernel/report/crash.c": '#include "tracer.h"\nvoid f(void) { if (trace_active())'
                             ' trace_dump(); /* trace_init */ }\n'}
    got = violations(bad, syms, headers)
    res.record("layers: the check finds an included trace/ header and named trace/ symbols",
               got == ["kernel/report/crash.c: includes trace/tracers/tracer.h",
                       "kernel/report/crash.c: names trace_active (trace/)",
                       "kernel/report/crash.c: names trace_dump (trace/)"], "\n".join(got))
