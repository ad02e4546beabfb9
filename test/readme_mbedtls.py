"""test/readme_mbedtls.py: the readme stage's checks of docs/applications.md's
mbed TLS section (its commands, the samples of their runs, the -icount
table and the size of the library), called by readme_examples.py."""
import glob
import os
import re
import tempfile

from readme_run import match_output, run_example, same_outputs


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
