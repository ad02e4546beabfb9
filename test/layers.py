"""test/layers.py: the layers point one way (ARCHITECTURE.md 2).

Between trees: trace/ uses the kernel, never the reverse. No file under
kernel/, drivers/ or boot/ may include a header of trace/ (any of its
folders) or wire/, or name a symbol they define (the kernel offers hooks,
kernel/report/hooks.h, that the trace core registers on).

Inside a tree: trace/LAYERS, kernel/LAYERS and tools/baretrace/LAYERS
list the tree's folders, lowest first ('.' is the files directly in the
tree; an entry may also be a sub-folder, or a file that sits lower than
its folder). A file may include headers of, and use symbols defined in,
only its own entry and the entries listed before it. Symbols are read
from the built objects (nm: what each object leaves undefined, and which
object defines it), so a call through a macro or an inline counts too;
the host tool's objects are compiled here, one per source. Includes come
from the sources (a quoted name resolves in the file's own folder first,
as the preprocessor does, then through the tree's folders). In the host
tool no source files may call each other in a circle either.
"""
import glob
import os
import re
import subprocess
import tempfile

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
    check_host_tool(h, res)
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


def folder_of(tree, rel, order=()):
    """'trace/ring/ring.c' -> 'ring'; 'kernel/main.c' -> '.'. With the
    tree's LAYERS entries: the longest entry that holds the file, or is
    it ('tools/baretrace/output/stats/hist.c' -> 'output/stats')."""
    if not rel.startswith(tree + "/"):
        return "."
    inner = rel[len(tree) + 1:]
    if inner in order:
        return inner
    d = os.path.dirname(inner)
    while d:
        if d in order:
            return d
        d = os.path.dirname(d)
    return inner.split("/")[0] if "/" in inner else "."


def tree_graph(root, tree, board, order=(), objects=None, nm="aarch64-linux-gnu-nm"):
    """(includes, undefined, defined): {file: [(header folder, text)]},
    {source file: set of symbols}, {symbol: source file}. objects:
    {source file: its object}; by default the board's build."""
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
            near = os.path.normpath(os.path.join(os.path.dirname(rel), inc))
            if "/" in inc and os.path.exists(os.path.join(root, near)):
                if near.startswith(tree + "/"):	# else outside the tree (wire/)
                    found.append((folder_of(tree, near, order), inc))
                continue
            if "/" in inc:
                top = inc.split("/")[0]
                if os.path.isdir(os.path.join(root, tree, top)):
                    found.append((top, inc))
                continue
            own = os.path.join(os.path.dirname(rel), inc)
            if os.path.exists(os.path.join(root, own)):
                found.append((folder_of(tree, own, order), inc))
            elif inc in headers:
                found.append((folder_of(tree, headers[inc][0], order), inc))
        includes[rel] = found
    undefined, defined = {}, {}
    if objects is None:
        objdir = os.path.join(root, "build", board, "obj")
        objects = {os.path.relpath(o, objdir)[:-2]: o for o in
                   glob.glob(os.path.join(objdir, tree, "**", "*.o"), recursive=True)}
    for src, o in sorted(objects.items()):
        if not os.path.exists(os.path.join(root, src)):
            continue  # left by a file since moved
        out = subprocess.run([nm, o], capture_output=True, text=True).stdout
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
        a = folder_of(tree, src, order)
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
            found.append(arrow(src, folder_of(tree, defined[sym], order),
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


HOST_TREE = "tools/baretrace"


def host_objects(root, tree, outdir):
    """Each C source of the host tool compiled on its own (gcc -c, the
    Makefile's include folders): ({source: object}, errors)."""
    srcs = sorted(os.path.relpath(p, root) for p in
                  glob.glob(os.path.join(root, tree, "**", "*.c"), recursive=True))
    objects, errors, running = {}, [], []

    def reap(job):
        src, obj, proc = job
        out = proc.communicate()[0]
        if proc.returncode == 0:
            objects[src] = obj
        else:
            errors.append(f"{src}: gcc -c failed\n{out}")
    for src in srcs:
        obj = os.path.join(outdir, src.replace("/", "_") + ".o")
        cmd = ["gcc", "-c", "-O0", "-w", "-Ikernel/report", "-Ikernel/lib", "-o", obj, src]
        running.append((src, obj, subprocess.Popen(cmd, cwd=root, stdout=subprocess.PIPE,
                                                    stderr=subprocess.STDOUT, text=True)))
        if len(running) >= 2:	# the machine is shared: two at a time
            reap(running.pop(0))
    for job in running:
        reap(job)
    return objects, errors


def call_circles(undefined, defined):
    """Sets of two or more source files that call each other in a loop
    (strongly connected parts of 'uses a symbol defined in')."""
    edges = {src: sorted({defined[s] for s in syms if s in defined} - {src})
             for src, syms in undefined.items()}
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found)


def check_host_tool(h, res):
    """tools/baretrace/LAYERS: no arrow up, no circle of source files;
    and both checks fail on a planted arrow up and a planted circle."""
    tree = HOST_TREE
    order = read_layers(os.path.join(h.ROOT, tree, "LAYERS"))
    with tempfile.TemporaryDirectory() as tmp:
        objects, errors = host_objects(h.ROOT, tree, tmp)
        includes, undefined, defined = tree_graph(h.ROOT, tree, None, order, objects, "nm")
    entries = sorted({folder_of(tree, f, order) for f in includes})
    found = layer_violations(tree, order, includes, undefined, defined)
    res.record(f"layers: {tree}/ follows {tree}/LAYERS ({' < '.join(order)}): no file includes "
               f"or uses an entry above its own ({len(includes)} files, {len(undefined)} objects)",
               not errors and len(order) >= 8 and set(entries) <= set(order)
               and len(undefined) > 50 and not found,
               "\n".join(errors + found) or f"entries {entries}, LAYERS {order}")
    circles = call_circles(undefined, defined)
    res.record(f"layers: no source files of {tree}/ call each other in a circle "
               f"({len(undefined)} objects)", not errors and len(undefined) > 50 and not circles,
               "\n".join(" <-> ".join(c) for c in circles))
    sizes = {os.path.relpath(p, h.ROOT): sum(1 for _ in open(p, errors="replace"))
             for p in glob.glob(os.path.join(h.ROOT, tree, "**", "*.[ch]"), recursive=True)}
    big = sorted(f"{f}: {n} lines" for f, n in sizes.items() if n > 400)
    res.record(f"no file of {tree}/ is over 400 lines ({len(sizes)} files, the largest "
               f"{max(sizes.values(), default=0)})", len(sizes) > 50 and not big, "\n".join(big))
    # The checks can fail: a decoder file that includes an export's header
    # and calls an exporter, and that calls the decoder that calls it.
    low = f"{tree}/decode/books.c"
    inc2 = {k: list(v) for k, v in includes.items()}
    und2 = {k: set(v) for k, v in undefined.items()}
    inc2[low].append(("output/export", "../output/export/export.h"))
    und2[low].add("bt_export_chrome")
    got = layer_violations(tree, order, inc2, und2, defined)
    res.record(f"layers: the {tree}/ check finds a planted include and call from decode/ up "
               "to output/export/",
               len(got) == 2 and all(g.startswith(low + ":") for g in got)
               and any("export.h" in g for g in got) and any("bt_export_chrome" in g for g in got),
               "\n".join(got))
    und3 = {k: set(v) for k, v in undefined.items()}
    und3[low].add("bt_dec_frame")
    got = call_circles(und3, defined)
    res.record(f"layers: the {tree}/ circle check finds a planted call back from books.c "
               "to the decoder that calls it",
               got == [[f"{tree}/decode/books.c", f"{tree}/decode/decode.c"]], repr(got))


if __name__ == "__main__":
    # The host tool's checks alone (no target build): python3 test/layers.py
    import sys
    import harness
    results = harness.Results(verbose=False)
    check_host_tool(harness, results)
    results.finish()
    sys.exit(1 if results.failed else 0)
