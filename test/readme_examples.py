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

Also checked: (readme_make.py) every 'make ...' command the docs show
names a target the Makefile has and variables the build uses, the cheap
ones of their tables run and boot cleanly; (readme_mbedtls.py) the mbed
TLS section's runs, samples, -icount table and sizes; (docs_checks.py)
every relative link '[text](path#anchor)' names a file that exists and,
with an anchor, a heading of it (GitHub's slugs), with a planted broken
link that must be caught; (readme_make.py) 'make help' names every
.PHONY target and every ?= variable of the Makefile; 'make TRACE= run'
leaves no trace file of the run before it; a bad TRACE_FILTER glob is refused by name.
"""
import os
import re
import shutil
import tempfile

from docs_checks import (check_figures, check_install, check_links, check_readme_length,
                         doc_files)
from readme_asking import check_hist, check_probe, check_typed
from readme_probes import (check_probe_boot, check_probe_boot_return, check_probe_return,
                           check_probe_two)
from readme_make import check_help, check_make_commands
from readme_mbedtls import check_mbedtls
from readme_run import match_output, run_dir_file, run_example, same_outputs

EXAMPLE_RE = re.compile(r"^<!-- (example|output): ([\w-]+) -->\n```[\w]*\n(.*?)^```$",
                        re.M | re.S)
RUN_FILES = ("trace.bt", "trace.txt", "trace.json", "trace.folded")


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


CHECKS = {"demo": check_demo, "report-filters": check_report_filters, "version": check_version,
          "filter": check_filter, "status": check_status, "hello": check_hello,
          "firmware": check_firmware, "coverage": check_coverage, "typed": check_typed,
          "probe": check_probe, "hist": check_hist, "mbedtls": check_mbedtls,
          "probe-two": check_probe_two, "probe-return": check_probe_return,
          "probe-boot-return": check_probe_boot_return, "probe-boot": check_probe_boot}


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
