"""test/docs_checks.py: the docs' links and the host tool's man pages, for
the readme stage (readme_examples.py): every relative link
'[text](path#anchor)' of README.md and docs/*.md names a file that exists
and, with an anchor, a heading of it (GitHub's slugs), with a planted page
of broken links that must be caught; 'make install' puts the tool and a
man page per command under PREFIX, each renders with 'man -l' and its
OPTIONS are exactly its command's --help table; README.md stays within
README_MAX_LINES lines (the rest of the manual lives in docs/).
"""
import glob
import os
import re
import shutil
import tempfile


def doc_files(root):
    """README.md and the manual's pages, as paths relative to root."""
    return ["README.md"] + sorted(os.path.relpath(p, root)
                                  for p in glob.glob(os.path.join(root, "docs", "*.md")))


def without_code(text):
    """text with fenced code blocks and inline code spans blanked (links
    and headings inside them are not links and headings)."""
    text = re.sub(r"^```.*?^```$", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def github_slug(heading):
    """The anchor GitHub gives a heading: its rendered text lower-cased,
    every character but letters, digits, '_', '-' and spaces dropped,
    spaces turned into '-' (github-slugger)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)   # [text](url) -> text
    text = text.replace("`", "").replace("*", "").strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def heading_anchors(text):
    """Every anchor of a page's headings; a repeated slug gets -1, -2, ..."""
    anchors, seen = set(), {}
    for m in re.finditer(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", re.sub(r"^```.*?^```$", "", text,
                                                          flags=re.M | re.S), re.M):
        slug = github_slug(m.group(1))
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


LINK_RE = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def broken_links(root, files):
    """'FILE: [..](TARGET): why' for each relative link of files (paths
    relative to root) whose file or heading does not exist."""
    bad, anchors = [], {}
    for name in files:
        with open(os.path.join(root, name)) as f:
            text = f.read()
        for target in LINK_RE.findall(without_code(text)):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):     # http:, https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(name), path)) if path else name
            full = os.path.join(root, dest)
            if not os.path.exists(full):
                bad.append(f"{name}: ({target}): no file {dest}")
                continue
            if anchor:
                if not dest.endswith(".md") or os.path.isdir(full):
                    bad.append(f"{name}: ({target}): an anchor into {dest}, not a page")
                    continue
                if dest not in anchors:
                    with open(full) as f:
                        anchors[dest] = heading_anchors(f.read())
                if anchor not in anchors[dest]:
                    bad.append(f"{name}: ({target}): {dest} has no heading '#{anchor}'")
    return bad


# README.md is the front page: what baretrace is, the two commands, a
# short tour, where each topic lives, adding an app or a board, tests.
# Everything else goes to a page of docs/ (issue 42, item 15).
README_MAX_LINES = 300


def readme_lines(root):
    """The number of lines of root/README.md."""
    with open(os.path.join(root, "README.md")) as f:
        return len(f.read().splitlines())


def check_readme_length(h, res):
    n = readme_lines(h.ROOT)
    res.record(f"readme: README.md has at most {README_MAX_LINES} lines ({n}); longer "
               "prose goes to the topic pages of docs/", n <= README_MAX_LINES,
               f"README.md has {n} lines: move sections to docs/*.md and leave a pointer")


def check_links(h, res, files):
    bad = broken_links(h.ROOT, files)
    res.record(f"readme: every relative link of the {len(files)} pages (README.md, docs/*.md) "
               "names an existing file and heading", not bad, "\n".join(bad))
    # The check itself: a planted page with one good link of each kind and
    # three broken ones; exactly the broken ones must be named.
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "docs"))
        with open(os.path.join(d, "docs", "a.md"), "w") as f:
            f.write("# A page\n\n## Two words: `code` --here\n\n```\n# not a heading\n```\n"
                    "[ok](#two-words-code---here) [ok](../README.md#top-one)\n"
                    "[bad](#not-a-heading) [bad](b.md) [bad](../README.md#nowhere)\n"
                    "`[not a link](nowhere.md)`\n")
        with open(os.path.join(d, "README.md"), "w") as f:
            f.write("# Top one\n\n[ok](docs/a.md#a-page) [site](https://example.org/x.md)\n")
        got = broken_links(d, ["README.md", "docs/a.md"])
    want = ["#not-a-heading", "b.md", "../README.md#nowhere"]
    res.record("readme: the link check names a missing file, a missing heading and a "
               "heading inside a code block, and nothing else (planted pages)",
               len(got) == 3 and all(f"({w})" in g for w, g in zip(want, got)),
               "\n".join(got))


# ---- make install and the man pages ------------------------------------------

def help_table(text):
    """The option names of a command's --help table (Options, Filters)."""
    names, on = set(), False
    for line in text.splitlines():
        if re.match(r"^(Options|Filters \(FILTERS\)):$", line):
            on = True
        elif on and not line.strip():
            on = False
        elif on and line.startswith("  -"):
            names |= set(re.findall(r"(?:^|, )(--?[\w-]+)", line[2:].split("  ")[0]))
    return names


def page_options(text):
    """The option names a rendered page's OPTIONS section tags."""
    body = re.split(r"^OPTIONS$", text, flags=re.M)[-1] if "\nOPTIONS\n" in text else ""
    body = re.split(r"^[A-Z][A-Z ]+$", body, flags=re.M)[0]
    names = set()
    for line in body.splitlines():
        if re.match(r"^ {7}-", line) or re.match(r"^-", line):
            names |= set(re.findall(r"(?:^|, )(--?[\w-]+)", line.strip().split("  ")[0]))
    return names


def deroff(text):
    """A man page's roff source as plain text, for a machine with no man."""
    text = re.sub(r'^\.(?:TH|SH) "?([^"\n]*)"?.*$', r"\1", text, flags=re.M)  # titles
    text = re.sub(r"^\.\S+.*$", "", text, flags=re.M)          # other requests
    text = re.sub(r"\\f[BIRP]|\\&", "", text)
    return text.replace("\\-", "-").replace("\\e", "\\")


def render_man(h, page):
    """(status, text, how) of a page as man -l renders it (plain text)."""
    if not shutil.which("man"):
        with open(page) as f:
            return 0, deroff(f.read()), "roff source (no man on this machine)"
    env = dict(os.environ, LC_ALL="C", MANWIDTH="200", MANPAGER="cat", PAGER="cat")
    st, out = h.run(["man", "-l", page], env=env)
    return st, re.sub(r".\x08", "", out), "man -l"


def check_install(h, res, board):
    """make install PREFIX DESTDIR puts the tool and one man page per
    command (and baretrace(1)) in place; each renders, and its OPTIONS
    are exactly the options of its command's --help table."""
    dest = tempfile.mkdtemp(prefix="install-", dir=os.path.join(h.ROOT, "build"))
    try:
        st, out = h.run(["make", f"BOARD={board}", "install", "PREFIX=/opt/bt",
                         f"DESTDIR={dest}"], timeout=300)
        tool = os.path.join(dest, "opt/bt/bin/baretrace")
        man1 = os.path.join(dest, "opt/bt/share/man/man1")
        ok = st == 0 and os.access(tool, os.X_OK)
        _, overview = h.run([tool, "--help"]) if ok else (None, "")
        commands = list(dict.fromkeys(re.findall(r"^  ([a-z][\w-]*) ", overview, re.M)))
        want = sorted(["baretrace.1"] + [f"baretrace-{c}.1" for c in commands])
        got = sorted(os.listdir(man1)) if os.path.isdir(man1) else []
        res.record(f"readme: make install PREFIX=/opt/bt DESTDIR=... installs bin/baretrace "
                   f"and share/man/man1's {len(want)} pages (baretrace and each command "
                   f"its --help names: {', '.join(commands)})",
                   ok and len(commands) >= 5 and got == want,
                   f"status {st}; tool {os.path.exists(tool)}; pages {got}, want {want}\n" + out)
        with open(os.path.join(h.ROOT, "docs", "host-tool.md")) as f:
            m = re.search(r"`baretrace-COMMAND\.1` for each command \(([^)]*)\)", f.read())
        listed = re.findall(r"`([\w-]+)`", m.group(1)) if m else []
        res.record("readme: docs/host-tool.md's man-page list names every command --help names",
                   sorted(listed) == sorted(commands) and commands,
                   f"page lists {listed}; --help names {commands}")
        for page in got:
            cmd = page[len("baretrace-"):-2] if page != "baretrace.1" else None
            st, text, how = render_man(h, os.path.join(man1, page))
            _, help_out = h.run([tool, cmd, "--help"] if cmd else [tool, "help", "--man"])
            title = page[:-2].upper()
            want = help_table(help_out) if cmd else {"-h", "--help", "--version"}
            got_opts = page_options(text)
            res.record(f"readme: {page} renders ({how}) and its OPTIONS are the {len(want)} "
                       f"options of baretrace {cmd + ' --help' if cmd else 'help --man'}",
                       st == 0 and title in text and "NAME" in text and "SYNOPSIS" in text
                       and want and got_opts == want,
                       f"status {st}; only in --help: {sorted(want - got_opts)}; only in the "
                       f"page: {sorted(got_opts - want)}\n" + text[-3000:])
    finally:
        shutil.rmtree(dest, ignore_errors=True)


# ---- figures from make bench (tools/docs-figures) -----------------------------

def docs_figures(root):
    """tools/docs-figures as a module (it has no .py)."""
    import importlib.machinery
    import importlib.util
    loader = importlib.machinery.SourceFileLoader("docs_figures",
                                                  os.path.join(root, "tools", "docs-figures"))
    spec = importlib.util.spec_from_loader("docs_figures", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod


def check_figures(h, res, board):
    """Every span of README.md and docs/*.md holds what its source gives:
    test/bench/baseline.json when the tree has it (held to fresh runs by
    the boot stage), else a make bench run made here (about 15 s once the
    bench image is built). Then a planted stale span must be caught."""
    df = docs_figures(h.ROOT)
    how = "test/bench/baseline.json"
    if not os.path.exists(df.BASELINE):
        st, out = h.run(["make", f"BOARD={board}", "bench"], timeout=900)
        how = "a make bench run"
        if st != 0:
            res.record("readme: make bench runs (the docs' figures are checked against it)",
                       False, out[-3000:])
            return
    st, out = h.run(["tools/docs-figures", "check"])
    n = re.search(r"check: (\d+) spans", out)
    res.record(f"readme: the {n.group(1) if n else '?'} figures README.md and docs/*.md quote "
               f"from make bench and make bench-host are what {how} and docs/bench-host.json "
               "give (tools/docs-figures check; make docs writes them)",
               st == 0 and n and int(n.group(1)) > 0, out)
    # The check itself: a copy of README with one span's text changed and
    # one marker broken must fail, naming that span and that marker.
    figs, _ = df.load_figures()
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(h.ROOT, "README.md")) as f:
            text = f.read()
        m = df.SPAN_RE.search(text)
        planted = (text[:m.start("text")] + "999.99" + text[m.end("text"):] +
                   "\n<!-- fig tracers.function_event_insns->1<!-- /fig -->\n") if m else text
        path = os.path.join(d, "README.md")
        with open(path, "w") as f:
            f.write(planted)
        problems, _ = df.process(path, figs, write=False, shown="README.md")
        line = text.count("\n", 0, m.start()) + 1 if m else 0
    res.record("readme: the figures check fails on a planted stale span and a broken marker, "
               "naming each (a copy of README.md)",
               m is not None and len(problems) == 2 and
               problems[0].startswith(f"README.md:{line}: {m.group('src').strip()}: the page "
                                      "says '999.99'") and "not of the form" in problems[1],
               "\n".join(problems))
