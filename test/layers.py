"""test/layers.py: the layers point one way (ARCHITECTURE.md 2).

Between trees: trace/ uses the kernel, never the reverse. No file under
kernel/, drivers/ or boot/ may include a header of trace/ (any of its
folders) or wire/, or name a symbol they define (the kernel offers hooks,
kernel/report/hooks.h, that the trace core registers on).

Inside a tree: trace/LAYERS and kernel/LAYERS list the tree's folders,
lowest first ('.' is the files directly in the tree). A file may include
headers of, and use symbols defined in, only its own folder and the
folders listed before it. Symbols are read from the built objects (nm:
what each object leaves undefined, and which object defines it), so a
call through a macro or an inline counts too; includes from the sources
(a quoted name resolves in the file's own folder first, as the
preprocessor does, then through the tree's folders).
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
    check_tree(h, res, board, "trace", ("trace/base/glob.c", "control.h",
                                        "trace_stop_and_drain"))
    check_tree(h, res, board, "kernel", ("kernel/lib/string.c", "ktest.h", "ktest_check"))
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


def read_layers(path):
    """The folders of a LAYERS file, lowest first."""
    order = []
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                order.append(line.split()[0])
    return order


def folder_of(tree, rel):
    """'trace/ring/ring.c' -> 'ring'; 'kernel/main.c' -> '.'."""
    parts = rel.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == tree else "."


def tree_graph(root, tree, board):
    """(includes, undefined, defined): {file: [(header folder, text)]},
    {source file: set of symbols}, {symbol: source file}."""
    headers = {}
    for p in glob.glob(os.path.join(root, tree, "**", "*.h"), recursive=True):
        rel = os.path.relpath(p, root)
        headers.setdefault(os.path.basename(p), []).append(rel)
    includes = {}
    for p in glob.glob(os.path.join(root, tree, "**", "*.[chS]"), recursive=True):
        rel = os.path.relpath(p, root)
        with open(p, errors="replace") as f:
            code = strip_comments(f.read())
        found = []
        for inc in re.findall(r'#\s*include\s*"([^"]+)"', code):
            if "/" in inc:
                top = inc.split("/")[0]
                if os.path.isdir(os.path.join(root, tree, top)):
                    found.append((top, inc))
                continue
            own = os.path.join(os.path.dirname(rel), inc)
            if os.path.exists(os.path.join(root, own)):
                found.append((folder_of(tree, own), inc))
            elif inc in headers:
                found.append((folder_of(tree, headers[inc][0]), inc))
        includes[rel] = found
    undefined, defined = {}, {}
    objdir = os.path.join(root, "build", board, "obj")
    for o in glob.glob(os.path.join(objdir, tree, "**", "*.o"), recursive=True):
        src = os.path.relpath(o, objdir)[:-2]
        if not os.path.exists(os.path.join(root, src)):
            continue  # left by a file since moved
        out = subprocess.run(["aarch64-linux-gnu-nm", o], capture_output=True, text=True).stdout
        undefined[src] = set()
        for line in out.splitlines():
            f = line.split()
            if len(f) == 2 and f[0] == "U":
                undefined[src].add(f[1])
            elif len(f) == 3 and f[1] in "TDBRCGSV":
                defined[f[2]] = src
    return includes, undefined, defined


def layer_violations(tree, order, includes, undefined, defined):
    """Every arrow that points up, or from or to a folder LAYERS lacks."""
    rank = {d: i for i, d in enumerate(order)}
    found = []

    def arrow(src, dst, what):
        """None if src's folder may use dst, else why not."""
        a = folder_of(tree, src)
        if a not in rank:
            return f"{src}: its folder '{a}' is not in {tree}/LAYERS"
        if dst not in rank:
            return f"{src}: uses folder '{dst}', which is not in {tree}/LAYERS"
        if rank[dst] > rank[a]:
            return f"{src}: {what} ({dst}/ is above {a}/)"
        return None
    for src, incs in sorted(includes.items()):
        for folder, text in incs:
            found.append(arrow(src, folder, f'includes "{text}"'))
    for src, syms in sorted(undefined.items()):
        for sym in sorted(s for s in syms if s in defined):
            found.append(arrow(src, folder_of(tree, defined[sym]),
                               f"uses {sym} of {defined[sym]}"))
    return sorted({f for f in found if f})


def check_tree(h, res, board, tree, planted):
    """The layer order of one tree, and a self-check: 'planted' is
    (lowest-layer file, header of the top layer, symbol of the top layer),
    added to the real graph, which must then give exactly two arrows."""
    order = read_layers(os.path.join(h.ROOT, tree, "LAYERS"))
    includes, undefined, defined = tree_graph(h.ROOT, tree, board)
    dirs = sorted({folder_of(tree, f) for f in includes})
    found = layer_violations(tree, order, includes, undefined, defined)
    res.record(f"layers: {tree}/ follows {tree}/LAYERS ({' < '.join(order)}): no file includes "
               f"or uses a folder above its own ({len(includes)} files, {len(undefined)} "
               f"objects)", len(order) >= 3 and set(dirs) <= set(order) and len(undefined) > 10
               and not found, "\n".join(found) or f"folders {dirs}, LAYERS {order}")
    src, header, sym = planted
    inc2 = {k: list(v) for k, v in includes.items()}
    und2 = {k: set(v) for k, v in undefined.items()}
    top = order[-1]
    inc2.setdefault(src, []).append((top, f"{top}/{header}"))
    und2.setdefault(src, set()).add(sym)
    got = layer_violations(tree, order, inc2, und2, defined)
    res.record(f"layers: the {tree}/ check finds a planted include and call from "
               f"{folder_of(tree, src)}/ up to {top}/",
               len(got) == 2 and all(g.startswith(src + ":") for g in got)
               and any(sym in g for g in got) and any(header in g for g in got),
               "\n".join(got))
