"""test/readme_examples.py: the examples of README.md and of the manual in
docs/*.md, run as written (stage "readme" of test/run.py), so the docs and
behaviour cannot drift apart.

Markers in README.md and docs/*.md (HTML comments, invisible when rendered):
  <!-- example: NAME -->   before a code block of shell commands; the
                           stage runs it with bash in the tree's root
  <!-- output: NAME -->    before a code block of what example NAME prints:
                           its lines must appear in this order, lines
                           without '...' between them on consecutive
                           lines; '...' inside a line is any text, NNN any
                           number, a line of '...' alone any lines
Every marked example needs a checker in CHECKS below and every checker an
example (a renamed or dropped example fails the stage); a name is used in
one file only.
  <!-- same output: NAME -->  before a second sample of example NAME's
                           output on another page, matched against the
                           same run (its checker says how exactly)
  <!-- icount runs: NAME -->  before a block with one command whose
                           [TRACE ARGS] each row of the table after it
                           fills (docs/applications.md; check_icount_table)
  <!-- boot line: MAKE -> ELF -->  before a block with a boot line: its
                           "(N KiB)" must be the size of ELF as MAKE
                           builds it

Also checked here: every 'make ...' command the docs show names a
target the Makefile has and variables the build uses, the cheap ones of
their tables run and boot cleanly; (docs_checks.py) every relative link
'[text](path#anchor)' names a file that exists and, with an anchor, a
heading of it (GitHub's slugs), with a planted broken link that must be
caught; 'make help' names every .PHONY target and every ?= variable of
the Makefile; 'make TRACE= run' leaves no trace file of the run before
it; a bad TRACE_FILTER glob is refused by name.
"""
import glob
import os
import re
import shlex
import shutil
import tempfile

from docs_checks import (check_figures, check_install, check_links, check_readme_length,
                         doc_files)
from readme_asking import check_hist, check_probe, check_typed
from readme_probes import (check_probe_boot, check_probe_boot_return, check_probe_return,
                           check_probe_two)
from readme_run import match_output, run_dir_file, run_example

EXAMPLE_RE = re.compile(r"^<!-- (example|output): ([\w-]+) -->\n```[\w]*\n(.*?)^```$",
                        re.M | re.S)
RUN_FILES = ("trace.bt", "trace.txt", "trace.json", "trace.folded")
# Targets of a README table command that the stage runs (cheap, boot and
# end on their own); the others are only checked against the Makefile.
RUNNABLE_TARGETS = {"run", "run-direct", "all", "help", "host-tools"}


def parse_readme(text):
    """{name: code} for the examples and for their outputs."""
    examples, outputs = {}, {}
    for kind, name, body in EXAMPLE_RE.findall(text):
        (examples if kind == "example" else outputs)[name] = body
    return examples, outputs


def traced_pipeline_functions(h):
    """The pipeline_* functions named in build/run/trace.txt."""
    try:
        with open(run_dir_file(h, "trace.txt"), errors="replace") as f:
            return set(re.findall(r"\b(pipeline_\w+)\(\)", f.read()))
    except FileNotFoundError:
        return set()


# ---- the examples -------------------------------------------------------------

def check_filter(h, res, board, code, output):
    """TRACE_FILTER='pipeline_* !pipeline_poll': '!' leaves pipeline_poll
    out and keeps every other pipeline_ function the plain glob traces."""
    st, base_out = h.run(["make", f"BOARD={board}", "TRACE_FILTER=pipeline_*", "run"],
                         timeout=180)
    base = traced_pipeline_functions(h)
    res.record("readme: make TRACE_FILTER='pipeline_*' run traces pipeline_poll (the baseline)",
               st == 0 and "pipeline_poll" in base and len(base) > 1,
               f"status {st}, traced {sorted(base)}\n" + base_out[-2000:])
    st, out = run_example(h, code)
    got = traced_pipeline_functions(h)
    res.record("readme: example 'filter' (TRACE_FILTER='pipeline_* !pipeline_poll'): "
               "every pipeline_ function but pipeline_poll traced, no unknown parameter",
               st == 0 and got == base - {"pipeline_poll"} and
               "unknown kernel parameter" not in out and
               "trace_filter=pipeline_*,!pipeline_poll" in out,
               f"status {st}, traced {sorted(got)}, baseline {sorted(base)}\n" + out[-3000:])
    # The stale-file check: this traced run left every output; a run
    # without tracing must take them away, not show the old trace.
    before = [n for n in RUN_FILES if os.path.exists(run_dir_file(h, n))]
    st, out = h.run(["make", f"BOARD={board}", "TRACE=", "run"], timeout=180)
    left = [n for n in RUN_FILES if os.path.exists(run_dir_file(h, n))]
    res.record("readme: make TRACE= run leaves no trace file of the run before it",
               st == 0 and before == list(RUN_FILES) and not left,
               f"status {st}; before {before}; still there after: {left}\n" + out[-1500:])
    # A bad glob in the list is refused, named, and fails the run.
    st, out = h.run(["make", f"BOARD={board}", "TRACE_FILTER=pipeline_[ !pipeline_poll",
                     "run"], timeout=180)
    out = h.strip_frames(out)
    res.record("readme: TRACE_FILTER with a bad glob is refused by name and fails the run",
               st not in (0, None) and
               re.search(r"^trace: invalid glob 'pipeline_\[' ", out, re.M) and
               re.search(r"^bootargs: invalid value in 'trace_filter=pipeline_\[,!pipeline_poll'.*"
                         r"not applied", out, re.M) and "unknown kernel parameter" not in out,
               f"status {st}\n" + out[-3000:])


def check_status(h, res, board, code, output):
    """make run's status when main() returns 3: printed and kept."""
    st, out = run_example(h, code)
    miss = match_output(output or "", out)
    try:
        with open(run_dir_file(h, "status")) as f:
            saved = f.read().strip()
    except FileNotFoundError:
        saved = None
    res.record("readme: example 'status' prints what the README shows "
               "(main() returns 3: make run says 3, build/run/status holds 'exit 3')",
               output is not None and miss is None and saved == "exit 3",
               f"missing line {miss!r}; build/run/status {saved!r}\n" + out[-3000:])
    st, out = run_example(h, f"make BOARD={board} APP=test/apps/exit TRACE= "
                             "BOOTARGS='-- 0' run")
    saved = None
    if os.path.exists(run_dir_file(h, "status")):
        with open(run_dir_file(h, "status")) as f:
            saved = f.read().strip()
    res.record("readme: main() returning 0: make run exits 0, build/run/status holds 'exit 0'",
               st == 0 and saved == "exit 0" and "make run: exit status" not in out,
               f"status {st}, build/run/status {saved!r}\n" + out[-1500:])


def check_hello(h, res, board, code, output):
    """The application example: it must build without a warning (app code
    is built with -Wall -Wextra, without -Werror)."""
    app = os.path.join(h.ROOT, "examples", "hello")
    kept = None
    if os.path.exists(app):     # someone's own examples/hello: keep it
        kept = tempfile.mkdtemp(prefix="hello-kept-", dir=os.path.join(h.ROOT, "build"))
        shutil.move(app, kept)
    try:
        st, out = run_example(h, code)
        miss = match_output(output or "", out)
        res.record("readme: example 'hello' builds without warnings, boots and prints what "
                   "the README shows", st == 0 and output is not None and miss is None
                   and "warning:" not in out,
                   f"status {st}; missing line {miss!r}\n" + out[-3000:])
    finally:
        shutil.rmtree(app, ignore_errors=True)
        shutil.rmtree(os.path.join(h.ROOT, "build", board, "app-examples-hello"),
                      ignore_errors=True)
        if kept:
            shutil.move(os.path.join(kept, "hello"), app)
            os.rmdir(kept)


def check_firmware(h, res, board, code, output):
    st, out = run_example(h, code)
    miss = match_output(output or "", out)
    res.record("readme: example 'firmware' (an existing tree with its app.mk) builds, "
               "names what it skips, and prints and traces what docs/applications.md shows",
               st == 0 and output is not None and miss is None,
               f"status {st}; missing line {miss!r}\n" + out[-3000:])


def check_coverage(h, res, board, code, output):
    """docs/coverage.md's make coverage (test/coverage_make.py checks its
    figures against the target's and lcov's; here, what the page shows)."""
    st, out = run_example(h, code, timeout=900)
    miss = match_output(output or "", out)
    # The failed cases last: the report shows a detail's last lines only.
    res.record("readme: example 'coverage' (docs/coverage.md) exits 0 and prints what the "
               "page shows", st == 0 and output is not None and miss is None,
               f"status {st}; missing line {miss!r}\n" + out[-3000:] + h.ktap_failures(out))
    # docs/coverage.md's sample of the same output, with its exact
    # counts, and the lcov summary line it quotes.
    with open(os.path.join(h.ROOT, "docs", "coverage.md")) as f:
        text = f.read()
    blocks = same_outputs(h.ROOT, "coverage")
    miss = next((f"{name}: {m}" for name, block in blocks
                 for m in [match_output(block, out)] if m is not None), None)
    if not any(name == "docs/coverage.md" for name, _ in blocks):
        miss = "(no '<!-- same output: coverage -->' block in docs/coverage.md)"
    lcov = re.search(r"# functions\.\.: ([\d.]+)% \((\d+) of (\d+) functions\)", text)
    got = re.search(r"^coverage: (\d+) of (\d+) functions reached", out, re.M)
    want = got and f"{100 * int(got[1]) / int(got[2]):.1f}"
    res.record("readme: the make coverage samples "
               f"({', '.join(n for n, _ in blocks)}: tests, functions reached per folder, "
               "source files) and docs/coverage.md's lcov --summary figure are what make "
               "coverage gives",
               miss is None and lcov is not None and got is not None and
               (lcov[1], lcov[2], lcov[3]) == (want, got[1], got[2]),
               f"missing line {miss!r}; lcov line {lcov and lcov.groups()}; run {got and got.groups()}")


def same_outputs(root, name):
    """[(page, block)] of every '<!-- same output: NAME -->' block of
    README.md and docs/*.md: a second sample of example NAME's output,
    on another page, matched against the same run."""
    found = []
    for page in doc_files(root):
        with open(os.path.join(root, page)) as f:
            text = f.read()
        found += [(page, b) for b in re.findall(
            rf"^<!-- same output: {re.escape(name)} -->\n```\n(.*?)^```$", text, re.M | re.S)]
    return found


# The counts of docs/applications.md's mbed TLS runs. They run under ICOUNT=1, so every
# figure repeats: the samples are held to them exactly, times included
# (under host time the frames, wire bytes and data blocks follow how
# fast each CPU ran: 5.5 % apart on a loaded host).
MBEDTLS_EXACT = {"sites": r"^trace: (\d+) sites ready$",
                 "suites": r"^  Executed (\d+) test suites$",
                 "events": r"^trace: (\d+) events, \d+ lost,",
                 "lost": r"^trace: \d+ events, (\d+) lost,",
                 "functions": r"^# (\d+) functions, from graph records",
                 "bootargs": r'^bootargs: (".*")$',
                 "counter ticks": r"^mbedtls: self-test took (\d+) counter ticks",
                 "frames": r"^trace: \d+ events, \d+ lost, (\d+) frames,",
                 "wire bytes": r"^trace: .* (\d+) wire bytes,",
                 "data blocks": r"^trace: .* (\d+) data blocks$"}
REPORT_ROW_RE = re.compile(r"^ +(\d+) +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+  (\w+)$", re.M)


def mbedtls_figures(text):
    """({name: [figures]}, {function: calls}) of a run's output (two
    runs: a figure may appear in both) or a page's sample of it; a
    figure the text lacks is left out."""
    return {k: found for k, rx in MBEDTLS_EXACT.items()
            for found in [re.findall(rx, text, re.M)] if found}, {
        fn: calls for calls, fn in REPORT_ROW_RE.findall(text)}


def mbedtls_sample_problems(block, out):
    """What of a page's sample of the mbed TLS example's runs the runs do not
    give: lines (every number as shown), then the figures compared."""
    miss = match_output(block, out)
    if miss is not None:
        return [f"no line {miss!r}"]
    (said, said_calls), (got, got_calls) = mbedtls_figures(block), mbedtls_figures(out)
    bad = [f"{k}: page {v}, run {got.get(k)}" for k, vs in said.items() for v in vs
           if v not in got.get(k, [])]
    bad += [f"{fn} calls: page {n}, run {got_calls.get(fn)}" for fn, n in said_calls.items()
            if got_calls.get(fn) != n]
    return bad


def icount_rows(text):
    """(command with [TRACE ARGS], [(label, args, insns, slowdown, events)])
    of the '<!-- icount runs: NAME -->' block and the table after it."""
    m = re.search(r"^<!-- icount runs: [\w-]+ -->\n```\n(.*?)^```$\n+((?:^\|.*\n)+)",
                  text, re.M | re.S)
    if not m:
        return None, []
    rows = []
    for line in m.group(2).splitlines()[2:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 5:
            ev = re.match(r"([\d,]+), (\d+) lost", cells[4])
            rows.append((cells[0], cells[1].strip("`"), int(cells[2].replace(",", "")),
                         cells[3].rstrip("×x"), ev and (ev[1].replace(",", ""), ev[2])))
    return m.group(1).replace("\\\n", " "), rows


def check_icount_table(h, res, page, runs=2):
    """A page's table of -icount runs: its first rows (the cheap ones) run
    as the page's command gives them; instructions within 0.1 % (a build
    repeats them exactly, but the image's data moves with the checkout's
    path, which assert strings hold, and with it the alignment of what
    the self-test copies: two checkouts of one commit ran 1,294,159,416
    and 1,293,817,999, 0.026 % apart), the slowdown over the first row
    to the page's decimals, events and lost exactly."""
    with open(os.path.join(h.ROOT, page)) as f:
        cmd, rows = icount_rows(f.read())
    bad, base = [], None
    if cmd is None or len(rows) < runs:
        bad.append(f"no '<!-- icount runs: NAME -->' block with {runs} rows after it")
    for label, args, insns, slowdown, events in rows[:runs] if not bad else []:
        with tempfile.TemporaryDirectory() as d:
            line = cmd.replace("[TRACE ARGS]", args).replace("t.bt", os.path.join(d, "t.bt"))
            st, out = h.run(["bash", "-c", line], timeout=300)
        out = h.strip_frames(out)
        got = re.search(r"^mbedtls: self-test took (\d+) counter ticks", out, re.M)
        ev = re.search(r"^trace: (\d+) events, (\d+) lost,", out, re.M)
        if st != 0 or not got:
            bad.append(f"{label}: status {st}, no self-test time\n" + out[-1500:])
            continue
        n = int(got[1])
        base = base or n
        decimals = len(slowdown.partition(".")[2])
        want_slow = f"{n / base:.{decimals}f}" if decimals else f"{n / base:.0f}"
        if abs(n - insns) > insns / 1000:
            bad.append(f"{label}: page {insns:,} instructions, run {n:,}")
        if want_slow != slowdown:
            bad.append(f"{label}: page {slowdown}x, run {want_slow}x")
        if events and (not ev or (ev[1], ev[2]) != events):
            bad.append(f"{label}: page {events} events, lost; run {ev and ev.groups()}")
    res.record(f"readme: {page}'s -icount table: its first {runs} rows' instructions, "
               "slowdown and events are what those runs give", not bad, "\n".join(bad))
    return rows[:runs]


BOOT_LINE_MARK_RE = re.compile(r"^<!-- boot line: (make [^>]*?) -> (\S+) -->\n```\n(.*?)^```$",
                               re.M | re.S)
IMAGE_KIB_RE = re.compile(r"^baretrace: [\w-]+, entered at EL\d, image at 0x[0-9a-f]+ "
                          r"\((\d+) KiB\)", re.M)


def elf_image_kib(h, elf):
    """The "(N KiB)" of an image's boot line, from its ELF: kernel/main.c
    prints (_end - _text) / 1024, both link-time symbols, so no boot is
    needed."""
    st, out = h.run(["aarch64-linux-gnu-nm", elf])
    syms = dict((s, int(a, 16)) for a, _, s in (l.split() for l in out.splitlines()
                                                 if len(l.split()) == 3))
    if st != 0 or "_text" not in syms or "_end" not in syms:
        return None
    return (syms["_end"] - syms["_text"]) // 1024


def check_boot_lines(h, res, board, texts):
    """Every '<!-- boot line: MAKE -> ELF -->' block of the docs: its boot
    line's image size is what MAKE builds (ELF's _end - _text; the boards'
    builds are no-ops in a make test that ran their stages before)."""
    bad, n = [], 0
    for page, text in texts.items():
        for make, elf, block in BOOT_LINE_MARK_RE.findall(text):
            said = IMAGE_KIB_RE.search(block)
            n += 1
            st, out = h.run(make.split() + ([f"BOARD={board}"] if "BOARD=" not in make else []),
                            timeout=600)
            got = elf_image_kib(h, os.path.join(h.ROOT, elf)) if st == 0 else None
            if not said or got is None or int(said[1]) != got:
                bad.append(f"{page}: {make} -> {elf}: page {said and said[1]} KiB, "
                           f"the image {got} KiB (status {st})" + ("" if st == 0 else out[-1500:]))
    marked_lines = sum(len(IMAGE_KIB_RE.findall(b)) for t in texts.values()
                       for _, _, b in BOOT_LINE_MARK_RE.findall(t))
    all_lines = sum(len(IMAGE_KIB_RE.findall(t)) for p, t in texts.items() if p != "README.md")
    if marked_lines != all_lines:
        bad.append(f"{all_lines - marked_lines} boot line(s) of docs/*.md outside a "
                   "'<!-- boot line: MAKE -> ELF -->' block")
    res.record(f"readme: the image size of the {n} boot lines docs/*.md quote is the size of "
               "the image they name (README's is example 'demo''s)", n and not bad,
               "\n".join(bad))


def boot_figures(text):
    """(image KiB, CPUs, ring KiB per CPU) a boot's lines give."""
    img = re.search(r"^baretrace: qemu-virt, .*image at 0x[0-9a-f]+ \((\d+) KiB\)", text, re.M)
    cpus = re.search(r"^smp: (\d+) CPUs online$", text, re.M)
    ring = re.search(r"^trace: function_graph tracer on, (\d+) KiB per CPU,", text, re.M)
    return tuple(int(m.group(1)) if m else None for m in (img, cpus, ring))


def check_demo(h, res, board, code, output):
    """README's make run and its first host-tool commands: the output
    block's lines (numbers there are one run's host-time samples) and,
    exactly, its boot line's image size, CPUs and ring size."""
    st, out = run_example(h, code)
    miss = match_output(output or "", out, loose=True)
    said, got = boot_figures(output or ""), boot_figures(out)
    res.record("readme: example 'demo' (make run, report, stats, graph) prints what README "
               "shows, and its boot lines' image size, CPUs and ring size "
               f"(KiB, CPUs, KiB per CPU: README {said}, the run {got})",
               st == 0 and output is not None and miss is None and None not in got
               and said == got, f"status {st}; missing line {miss!r}\n" + out[-3000:])


def check_report_filters(h, res, board, code, output):
    """docs/host-tool.md's report filters, on the trace 'demo' left."""
    env = dict(os.environ, PATH=h.HOST + os.pathsep + os.environ.get("PATH", ""))
    st, out = h.run(["bash", "-c", code], env=env)
    # An interrupt that came inside the first filter_apply call (a tick,
    # in host time: as the host's speed falls) adds its ==========> ...
    # <========== block between the lines the page shows one after the
    # other: the page's form is the call's own lines.
    out = re.sub(r"^.*==========>.*\n(?:.*\n)*?.*<==========.*\n", "", out, flags=re.M)
    miss = match_output(output or "", out, loose=True)
    res.record("readme: example 'report-filters' (docs/host-tool.md: -F --cpu, --depth "
               "--min-duration on make run's trace) prints lines of the page's form",
               st == 0 and output is not None and miss is None,
               f"status {st}; missing line {miss!r}\n" + out[-3000:])


def check_version(h, res, board, code, output):
    """--version as the page shows it: the formats come from the tool,
    so a new wire format version fails here until the page says it."""
    st, out = run_example(h, code)
    miss = match_output(output or "", out)
    res.record("readme: example 'version' (docs/host-tool.md) prints the version and the "
               "trace file and wire format versions the page shows",
               st == 0 and output is not None and miss is None,
               f"status {st}; missing line {miss!r}\n" + out)


MBEDTLS_SIZE_RE = re.compile(r"\((\d+) library files; (\d+) `mbedtls_` functions end up in "
                             r"the image")


def mbedtls_sizes(h, board):
    """(library files, mbedtls_ functions) of the tree's examples/mbedtls:
    the .c files of the source's library/ (app.mk builds every one), and
    the distinct names of the ELF's FUNC symbols starting mbedtls_, a GCC
    clone (name.isra.0, .constprop.0, ...) counted with its function."""
    with open(os.path.join(h.ROOT, "build", "third-party", "mbedtls.dir")) as f:
        src = os.path.join(h.ROOT, f.read().strip())
    files = len(glob.glob(os.path.join(src, "library", "*.c")))
    elf = os.path.join(h.ROOT, "build", board, "app-examples-mbedtls", "baretrace.elf")
    st, out = h.run(["aarch64-linux-gnu-readelf", "-sW", elf])
    names = {f[7].split(".")[0] for f in (ln.split() for ln in out.splitlines())
             if len(f) >= 8 and f[3] == "FUNC" and f[7].startswith("mbedtls_")}
    return files, (len(names) if st == 0 else None)


def mbedtls_size_problems(text, sizes):
    """What of docs/applications.md's '(N library files; M `mbedtls_`
    functions end up in the image' the tree does not give."""
    m = MBEDTLS_SIZE_RE.search(text.replace("\n", " "))
    if not m:
        return ["no '(N library files; M `mbedtls_` functions end up in the image'"]
    return [f"{what}: page {said}, tree {got}" for what, said, got in
            zip(("library files", "functions"), map(int, m.groups()), sizes) if said != got]


def check_mbedtls(h, res, board, code, output):
    """docs/applications.md's mbed TLS commands: the self-tests pass
    untraced and traced, and the traced run keeps the events the section
    quotes."""
    st, out = h.run(["tools/fetch-source", "mbedtls", "--check"])
    if st != 0:
        h.run(["tools/fetch-source", "mbedtls"], timeout=600)
    st, out = run_example(h, code, timeout=600)
    miss = match_output(output or "", out)
    with open(os.path.join(h.ROOT, "docs", "applications.md")) as f:
        page = f.read().replace("\n", " ")
    prose = re.search(r"three levels deep: ([\d,]+) events, none lost", page)
    got = re.search(r"^trace: (\d+) events, 0 lost,", out, re.M)
    res.record("readme: example 'mbedtls' passes untraced and with trace_max_depth=3, keeping "
               f"the events docs/applications.md quotes ({prose and prose.group(1)}; the run: "
               f"{got and got.group(1)}), none lost",
               st == 0 and output is not None and miss is None and prose is not None and
               got is not None and prose.group(1).replace(",", "") == got.group(1),
               f"status {st}; missing line {miss!r}\n" + out[-3000:])
    # docs/applications.md's -icount table, and the slowdown its prose
    # quotes from it.
    rows = check_icount_table(h, res, "docs/applications.md")
    said = re.search(r"three levels deep makes it ([\d.]+)x slower", page)
    res.record("readme: docs/applications.md's mbed TLS slowdown at three levels is its "
               f"table's checked one (prose {said and said[1]}, the table "
               f"{rows[1][3] if rows[1:] else None})",
               said is not None and rows[1:] and said[1] == rows[1][3], "")
    # docs/applications.md's size of the library, from the image the run built.
    with open(os.path.join(h.ROOT, "docs", "applications.md")) as f:
        page = f.read()
    sizes = mbedtls_sizes(h, board)
    bad = mbedtls_size_problems(page, sizes)
    planted = mbedtls_size_problems(page.replace(f"; {sizes[1]} `mbedtls_`",
                                                 f"; {sizes[1] + 10} `mbedtls_`"), sizes)
    res.record(f"readme: docs/applications.md's mbed TLS size is the tree's ({sizes[0]} library "
               f"files, {sizes[1]} mbedtls_ functions in the image); a planted 10 more "
               "functions fails", not bad and len(planted) == 1 and
               planted[0].startswith("functions:"), "\n".join(bad + planted))
    # docs/applications.md's samples of the same two runs; a sample's
    # stats rows are also looked up, after the run's output, in the whole
    # table of its trace (the run prints only the top rows).
    _, table = h.run([os.path.join(h.HOST, "baretrace"), "stats",
                      os.path.join(h.ROOT, "build", "run", "trace.bt")])
    blocks = same_outputs(h.ROOT, "mbedtls")
    bad = [f"{page}, sample {i + 1}: {p}" for i, (page, block) in enumerate(blocks)
           for p in mbedtls_sample_problems(block, out + "\n" + table)]
    res.record(f"readme: the {len(blocks)} samples of the mbed TLS runs in "
               f"{', '.join(sorted(set(p for p, _ in blocks)))} are what the runs print "
               "(ICOUNT=1 runs: every line and figure exactly, times included)",
               st == 0 and blocks and not bad, "\n".join(bad))
    # The check itself: the traced sample with one wire byte fewer, and
    # with one site more, must each fail, naming the line.
    traced = next((b for _, b in blocks if "wire bytes" in b), "")
    caught = [mbedtls_sample_problems(re.sub(rx, lambda m: f"{int(m[1]) + d}{tail}", traced,
                                             count=1), out + "\n" + table)
              for rx, d, tail in ((r"(\d+) wire bytes", -1, " wire bytes"),
                                  (r"(\d+) sites ready", 1, " sites ready"))]
    res.record("readme: the mbed TLS sample check fails a planted stale sample (one wire byte "
               "fewer; one site more), naming the line", len(caught) == 2 and
               all(len(c) == 1 for c in caught) and "wire bytes" in caught[0][0] and
               "sites ready" in caught[1][0], "\n".join(map(str, caught)))


CHECKS = {"demo": check_demo, "report-filters": check_report_filters, "version": check_version,
          "filter": check_filter, "status": check_status, "hello": check_hello,
          "firmware": check_firmware, "coverage": check_coverage, "typed": check_typed,
          "probe": check_probe, "hist": check_hist, "mbedtls": check_mbedtls,
          "probe-two": check_probe_two, "probe-return": check_probe_return,
          "probe-boot-return": check_probe_boot_return, "probe-boot": check_probe_boot}


# ---- make commands and make help ---------------------------------------------

def makefiles(root):
    return [os.path.join(root, "Makefile")] + sorted(
        glob.glob(os.path.join(root, "mk", "*.mk"))) + sorted(
        glob.glob(os.path.join(root, "board", "**", "*.mk"), recursive=True))


def make_targets(root):
    targets = set()
    for path in makefiles(root):
        for line in open(path):
            m = re.match(r"^([A-Za-z][\w./$()%-]*(?:\s+[A-Za-z][\w./$()%-]*)*)\s*:(?!=)", line)
            if m:
                targets.update(m.group(1).split())
            m = re.match(r"^\.PHONY\s*:(.*)", line)
            if m:
                targets.update(m.group(1).split())
    return targets


def readme_make_commands(text):
    """Every 'make ...' of the docs: inline code and code-block lines."""
    cmds = [m.group(1) for m in re.finditer(r"`(make [^`]+)`", text)]
    # (an output block shows what make prints, not commands)
    text = re.sub(r"^<!-- output: [\w-]+ -->\n```\w*\n.*?^```$", "", text, flags=re.M | re.S)
    for block in re.findall(r"^```\w*\n(.*?)^```$", text, re.M | re.S):
        for line in re.sub(r"\\\n", " ", block).splitlines():
            line = re.sub(r"^\$ ", "", line.strip())
            if line.startswith("make "):
                cmds.append(first_command(line))
    return cmds


def first_command(line):
    """A shell line up to its first ';' outside quotes ('a;b' inside
    BOOTARGS's single quotes is one probe list, not two commands)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == ";":
            return line[:i]
    return line


def table_make_commands(text):
    """The commands of the docs' tables, each once, in order."""
    cmds = [m.group(1) for line in text.splitlines() if line.startswith("|")
            for m in re.finditer(r"`(make [^`]+)`", line)]
    return list(dict.fromkeys(cmds))


def command_words(cmd):
    """(targets, variables) of one make command line; None if unparsable."""
    try:
        words = shlex.split(cmd.replace("\n", " "), comments=True)[1:]
    except ValueError:
        return None
    targets = [w for w in words if "=" not in w and re.fullmatch(r"[a-z][\w-]*", w)]
    variables = [w.split("=")[0] for w in words if re.match(r"[A-Z_][A-Z0-9_]*=", w)]
    return targets, variables


def check_make_commands(h, res, board, text):
    targets = make_targets(h.ROOT)
    used = "".join(open(p).read() for p in makefiles(h.ROOT))
    used += "".join(open(p, errors="replace").read()
                    for p in glob.glob(os.path.join(h.ROOT, "tools", "*")) if os.path.isfile(p))
    bad = []
    cmds = readme_make_commands(text)
    for cmd in cmds:
        words = command_words(cmd)
        if words is None:
            bad.append(f"{cmd!r}: does not parse as a shell command")
            continue
        for t in words[0]:
            if t not in targets and not t.startswith("print-"):
                bad.append(f"{cmd!r}: no target '{t}' in the Makefile")
        for v in words[1]:
            if not re.search(rf"\b{v}\b", used):
                bad.append(f"{cmd!r}: variable {v} is used by neither the Makefile nor tools/")
    res.record(f"readme: the {len(cmds)} make commands of README.md and docs/*.md name existing "
               "targets and used variables", cmds and not bad, "\n".join(bad))
    for cmd in table_make_commands(text):
        targets_, variables = command_words(cmd)
        if not set(targets_ or ["all"]) <= RUNNABLE_TARGETS or "BOARD" in variables:
            continue
        words = shlex.split(cmd)
        st, out = h.run(words[:1] + [f"BOARD={board}"] + words[1:], timeout=240)
        out = h.strip_frames(out)
        res.record(f"readme: table command `{cmd}` exits 0 with no refused boot argument",
                   st == 0 and "unknown kernel parameter" not in out and
                   "invalid value" not in out, f"status {st}\n" + out[-2500:])


def check_help(h, res, board):
    phony, variables = set(), set()
    for path in makefiles(h.ROOT):
        if os.sep + "board" + os.sep in path:
            continue    # a board's own settings (board.mk), not make's interface
        with open(path) as f:
            text = f.read()
        for line in text.splitlines():
            m = re.match(r"^\.PHONY\s*:(.*)", line)
            if m:
                phony.update(m.group(1).split())
            m = re.match(r"^(?:export\s+)?([A-Za-z_]\w*)\s*\?=", line)
            if m:
                variables.add(m.group(1))
    st, out = h.run(["make", "-s", f"BOARD={board}", "help"])
    missing = [t for t in sorted(phony) if not re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", out)]
    missing += [v for v in sorted(variables) if not re.search(rf"\b{v}=", out)]
    res.record(f"readme: make help names all {len(phony)} .PHONY targets and "
               f"{len(variables)} ?= variables of the Makefile and mk/*.mk",
               st == 0 and phony and variables and not missing,
               f"status {st}; missing from make help: {missing}\n" + out)


# ---- the files, and the links between them ------------------------------------

def stage_readme(h, res, board):
    if board != "qemu-virt":
        return      # the docs' examples boot qemu-virt
    files = doc_files(h.ROOT)
    texts = {}
    for name in files:
        with open(os.path.join(h.ROOT, name)) as f:
            texts[name] = f.read()
    examples, outputs, where, twice = {}, {}, {}, []
    for name, text in texts.items():
        ex, out = parse_readme(text)
        for n in ex:
            if n in where:
                twice.append(f"{n} ({where[n]}, {name})")
            where[n] = name
        examples.update(ex)
        outputs.update(out)
    res.record("readme: every marked example of README.md and docs/*.md has a check, "
               "every check an example, each name in one file",
               set(examples) == set(CHECKS) and set(outputs) <= set(examples) and not twice,
               f"examples {sorted(examples)}, outputs {sorted(outputs)}, "
               f"checks {sorted(CHECKS)}; in two files: {twice}")
    check_readme_length(h, res)
    check_links(h, res, files)
    check_help(h, res, board)
    check_figures(h, res, board)
    st, out = h.run(["make", f"BOARD={board}", "all", "host-tools"], timeout=600)
    if st != 0:
        res.record("readme: build the demo and the host tools", False, out)
        return
    for name, check in CHECKS.items():
        if name in examples:
            check(h, res, board, examples[name], outputs.get(name))
    check_make_commands(h, res, board, "\n".join(texts.values()))
    check_boot_lines(h, res, board, texts)
    check_install(h, res, board)
