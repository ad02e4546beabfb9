#!/usr/bin/env python3
"""test/host/e2e_help.py: the host tool's help and man pages by convention
(issue 42, items 10-12):

  overview   `--help`, `help` and a bare `baretrace`: a synopsis and the
             command list (every command, args-spec included) on one
             screen, 24 lines of 80 columns, pointing to `help CMD`,
             `CMD --help` and `man baretrace-CMD`;
  commands   `CMD --help`, `-h`, `help CMD`: the synopsis, an options
             table, exit status and examples, within 80 columns;
  parsers    every option a command's parser takes (tried one by one:
             each option-like string in the tool's sources) is a row of
             its table, and every row is taken;
  errors     a usage error (unknown option, missing value, bad value) on
             every command: one line and "Try 'baretrace CMD --help'.",
             status 2, nothing on stdout; `help nosuchcmd` likewise, with
             "did you mean" or the whole list of commands;
  man        tools/mkman's pages: NAME, SYNOPSIS, DESCRIPTION, OPTIONS,
             EXIT STATUS, EXAMPLES, SEE ALSO on each, `man --warnings`
             silent, lexgrog reads NAME, the same options as --help's
             table, capture's sentence on stdin finished;
  default -o capture without -o writes trace.bt, names it in the summary,
             and keeps the one before as trace.bt.old.

Usage: test/host/e2e_help.py BARETRACE [--keep DIR]
Prints TAP; exit status 0 when every check passed.
"""
import glob
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_wire as wire  # noqa: E402
from e2e_baretrace import run, tap_main  # noqa: E402
from e2e_outcome import log  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# What main.c dispatches (issue 42: the unknown-command list left out args-spec).
COMMANDS = ["capture", "report", "stats", "export", "graph", "coverage", "ktap", "hist",
            "args-spec", "goto"]
SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "EXAMPLES", "SEE ALSO"]


def wide(text):
    return [l for l in text.splitlines() if len(l) > 80]


def overview(tap, tool):
    for how in (["--help"], ["help"], ["-h"]):
        rc, out, err = run([tool] + how)
        listed = re.findall(r"^  ([a-z][\w-]*) +\S", out, re.M)
        tap.ok(rc == 0 and err == "" and out.startswith("usage: baretrace ") and
               len(out.splitlines()) <= 24 and not wide(out) and listed == COMMANDS and
               "help COMMAND" in out and "COMMAND --help" in out and
               "man baretrace-COMMAND" in out,
               f"baretrace {' '.join(how)}: synopsis and the {len(COMMANDS)} commands with "
               f"a summary each, {len(out.splitlines())} lines (<= 24) of <= 80 columns, "
               "pointing to help COMMAND, COMMAND --help, man baretrace-COMMAND",
               f"exit {rc}; listed {listed}; wide {wide(out)}\n{out}{err}")
    rc, out, err = run([tool])
    _, want, _ = run([tool, "--help"])
    tap.ok(rc == 2 and out == "" and err == want,
           "a bare 'baretrace': the overview, on stderr, status 2", f"exit {rc}\n{out}{err}")


def table(text):
    """The option names of --help's Options and Filters tables."""
    names, on = set(), False
    for line in text.splitlines():
        if re.match(r"^(Options|Filters \(FILTERS\)):$", line):
            on = True
        elif on and not line.strip():
            on = False
        elif on and line.startswith("  -"):
            cell = line[2:].split("  ")[0]
            names |= {n for n in re.findall(r"(?:^|, )(--?[\w-]+)", cell)}
    return names


def command_help(tap, tool):
    helps = {}
    for cmd in COMMANDS:
        outs = [run([tool] + how) for how in ([cmd, "--help"], [cmd, "-h"], ["help", cmd])]
        rc, out, err = outs[0]
        heads = re.findall(r"^(Options|Exit status|Examples):$", out, re.M)
        examples = out.split("\nExamples:\n")[-1].split("\n\n")[0].splitlines()
        tap.ok(rc == 0 and err == "" and all(o == outs[0] for o in outs) and
               out.startswith(f"usage: baretrace {cmd} ") and
               heads == ["Options", "Exit status", "Examples"] and len(table(out)) >= 2 and
               re.search(r"^  2  ", out, re.M) and
               any(f"baretrace {cmd} " in l for l in examples) and not wide(out) and
               f"man baretrace-{cmd}" in out,
               f"baretrace {cmd} --help (= -h = help {cmd}): synopsis, an options table of "
               f"{len(table(out))} rows, exit status, examples, within 80 columns",
               f"exit {rc}; sections {heads}; wide {wide(out)}\n{out}{err}")
        helps[cmd] = out
    rc, out, _ = run([tool, "capture", "--help"])
    tap.ok("stdin has the line" not in out and "stdin has the line" not in
           run([tool, "help", "--man", "capture"])[1] and
           "stdin is forwarded to the target" in run([tool, "help", "--man", "capture"])[1],
           "capture's help finishes its sentence: after the --exec commands stdin is "
           "forwarded to the target")
    return helps


def candidates():
    """Every option-like string literal in the tool's sources."""
    found = set()
    for path in glob.glob(os.path.join(ROOT, "tools/baretrace/**/*.c"), recursive=True):
        with open(path) as f:
            found |= set(re.findall(r'"(--?[A-Za-z][A-Za-z0-9-]*)[="]', f.read()))
    return found | {"-h", "--help"}


def accepted(tool, tmp, cmd, opt):
    """The parser takes opt: anything but "unknown option" (a missing
    value or trace is a later complaint)."""
    pre = ["--diff"] if cmd == "stats --diff" else []
    rc, _, err = run([tool] + cmd.split()[:1] + pre + [opt], cwd=tmp, stdin=subprocess.DEVNULL,
                     timeout=20)
    return not re.search(r"unknown option|unexpected argument", err)


def parsers(tap, tool, tmp, helps):
    cands = sorted(candidates())
    for cmd in COMMANDS:
        takes = {o for o in cands if accepted(tool, tmp, cmd, o)}
        if cmd == "stats":
            takes |= {o for o in cands if accepted(tool, tmp, "stats --diff", o)}
        rows = table(helps[cmd])
        tap.ok(len(cands) > 30 and takes == rows,
               f"{cmd}: the {len(takes)} options its parser takes (of {len(cands)} tried) are "
               "its --help table's rows, no more, no fewer",
               f"taken, not in the table: {sorted(takes - rows)}; in the table, refused: "
               f"{sorted(rows - takes)}")


# A bad command line of each command: unknown option, missing value, bad value.
ERRORS = {
    "capture": [["--bogus"], ["--file"], ["--baud", "x", "--serial", "/dev/null"],
                ["--file", "x", "--serial", "y"]],
    "report": [["--bogus", "t.bt"], ["t.bt", "--elf"], ["t.bt", "--depth", "-1"], []],
    "stats": [["--bogus", "t.bt"], ["t.bt", "--sort"], ["t.bt", "--sort=cals"],
              ["--diff", "a.bt"], ["--diff", "a.bt", "b.bt", "--floor", "1"]],
    "export": [["--bogus"], ["t.bt", "-o"], ["--format=foldd", "-o", "x", "t.bt"],
               ["--format=svg", "t.bt"]],
    "graph": [["--bogus", "t.bt"], ["t.bt", "--cpu"], ["t.bt", "--time-range", "5-2"]],
    "coverage": [["--bogus"], ["t.bt", "--elf"], ["t.bt", "--elf", "x"]],
    "ktap": [["--bogus"], ["log", "--junit"], ["log", "--suite", ""]],
    "hist": [["--bogus"], ["t.bt", "--elf"], ["t.bt", "--json", "--per-cpu"]],
    "args-spec": [["--bogus"], ["f", "--elf"], ["--elf", "x"]],
}


def errors(tap, tool, tmp):
    for cmd, cases in ERRORS.items():
        bad = []
        for args in cases:
            rc, out, err = run([tool, cmd] + args, cwd=tmp, stdin=subprocess.DEVNULL,
                               timeout=20)
            lines = err.splitlines()
            if not (rc == 2 and out == "" and 1 <= len(lines) <= 2 and
                    lines[-1] == f"Try 'baretrace {cmd} --help'." and
                    lines[0].startswith("baretrace")):
                bad.append(f"{' '.join(args)!r}: exit {rc}\n{out}{err}")
        tap.ok(not bad and os.listdir(tmp) == [],
               f"{cmd}: {len(cases)} bad command lines (unknown option, missing value, bad "
               f"value) print the error and \"Try 'baretrace {cmd} --help'.\", status 2, "
               "nothing written", "\n".join(bad) + f"\nfiles: {os.listdir(tmp)}")
    # "did you mean" knows every command's options (help.c lists them from
    # the tables), the last command's too
    near = [(cmd, bad, good) for cmd, bad, good in
            [("capture", "--exex", "--exec"), ("hist", "--jsn", "--json"),
             ("args-spec", "--no-demangel", "--no-demangle"), ("export", "--countrs", "--counters")]
            if f"did you mean '{good}'?" not in run([tool, cmd, bad], cwd=tmp)[2]]
    tap.ok(not near, "a mistyped option of any command names the nearest one", f"missed: {near}")
    rc, out, err = run([tool, "help", "reprot"])
    tap.ok(rc == 2 and out == "" and err.splitlines() == [
        "baretrace: unknown command 'reprot'; did you mean 'report'?", "Try 'baretrace --help'."],
        "help reprot: a usage error, did you mean 'report'", f"exit {rc}\n{out}{err}")
    for how in (["help", "nosuchcmd"], ["nosuchcmd"]):
        rc, out, err = run([tool] + how)
        listed = re.findall(r"[\w-]+", err.splitlines()[0].split("(", 1)[-1]) if err else []
        tap.ok(rc == 2 and out == "" and len(err.splitlines()) == 2 and
               all(c in listed for c in COMMANDS),
               f"{' '.join(how)}: a usage error naming every command, args-spec included",
               f"exit {rc}\n{out}{err}")


def sections_of(text):
    """{section: body} of a page as man renders it."""
    parts = re.split(r"^([A-Z][A-Z ]+)$", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}


def man_pages(tap, tool, tmp, helps):
    if not shutil.which("man") or not shutil.which("lexgrog"):
        tap.ok(False, "man and lexgrog are installed (man-db, tools/setup's test group)")
        return
    mandir = os.path.join(tmp, "man")
    rc, out, err = run([os.path.join(ROOT, "tools/mkman"), tool, mandir])
    pages = sorted(os.listdir(mandir)) if os.path.isdir(mandir) else []
    want = sorted(["baretrace.1"] + [f"baretrace-{c}.1" for c in COMMANDS])
    tap.ok(rc == 0 and pages == want, f"tools/mkman writes the {len(want)} pages",
           f"exit {rc}; pages {pages}\n{out}{err}")
    env = dict(os.environ, LC_ALL="C.UTF-8", MANWIDTH="80", MANPAGER="cat", PAGER="cat")
    for page in pages:
        path = os.path.join(mandir, page)
        cmd = page[len("baretrace-"):-2] if page != "baretrace.1" else None
        p = subprocess.run(["man", "--warnings", "-E", "UTF-8", "-l", path], env=env,
                           capture_output=True, text=True)
        text = re.sub(r".\x08", "", p.stdout)
        secs = sections_of(text)
        _, name, _ = run(["lexgrog", path])
        help_out = helps[cmd] if cmd else run([tool, "help", "--man"])[1]
        want_opts = table(help_out) if cmd else {"-h", "--help", "--version"}
        tags = set()
        for line in secs.get("OPTIONS", "").splitlines():
            if re.match(r"^ {7}-", line):
                tags |= set(re.findall(r"(?:^|, )(--?[\w-]+)", line.strip().split("  ")[0]))
        title = f"baretrace-{cmd}" if cmd else "baretrace"
        tap.ok(p.returncode == 0 and p.stderr == "" and
               [s for s in SECTIONS if s in secs] == SECTIONS and
               re.search(rf'"{re.escape(title)} - \S', name) and tags == want_opts,
               f"{page}: {', '.join(SECTIONS)}; man --warnings silent; lexgrog reads "
               f"NAME; its OPTIONS are the {len(want_opts)} of "
               f"baretrace {cmd + ' ' if cmd else ''}--help",
               f"man exit {p.returncode}, warnings {p.stderr!r}; sections {list(secs)}; "
               f"lexgrog {name!r}; only in --help {sorted(want_opts - tags)}; only in the "
               f"page {sorted(tags - want_opts)}\n{text[:3000]}")


def default_output(tap, tool, tmp):
    d = os.path.join(tmp, "cwd")
    os.makedirs(d)
    h = wire.elf(os.path.join(tmp, "t.elf"), app="sensor")
    raw = os.path.join(tmp, "run.log")
    with open(raw, "wb") as f:
        f.write(log(h))
    with open(os.path.join(d, "trace.bt"), "w") as f:
        f.write("yesterday's trace\n")
    rc, out, err = run([tool, "capture", "--file", raw], cwd=d)
    files = sorted(os.listdir(d))
    old = open(os.path.join(d, "trace.bt.old")).read() if "trace.bt.old" in files else ""
    rc2, rep, err2 = run([tool, "report", "trace.bt"], cwd=d)
    tap.ok(rc == 0 and "-> trace.bt;" in err and files == ["trace.bt", "trace.bt.old"] and
           old == "yesterday's trace\n" and rc2 == 0 and "run ended: crash" in rep,
           "capture without -o writes trace.bt in the current directory, names it in the "
           "summary, and keeps the one before as trace.bt.old",
           f"exit {rc}; files {files}; old {old!r}\n{err}\n{rep[-500:]}{err2}")
    named = os.path.join(d, "named.bt")
    with open(named, "w") as f:
        f.write("old\n")
    rc, _, err = run([tool, "capture", "--file", raw, "-o", named], cwd=d)
    tap.ok(rc == 0 and not os.path.exists(named + ".old") and
           open(named, "rb").read(8) == open(os.path.join(d, "trace.bt"), "rb").read(8),
           "capture -o FILE overwrites FILE (named by the user; no .old)", err)


def checks(tap, tool, tmp):
    overview(tap, tool)
    helps = command_help(tap, tool)
    scratch = os.path.join(tmp, "scratch")
    os.makedirs(scratch)
    parsers(tap, tool, scratch, helps)
    errors(tap, tool, scratch)
    man_pages(tap, tool, tmp, helps)
    default_output(tap, tool, tmp)


def main():
    return tap_main(checks, __doc__, "bt-help-")


if __name__ == "__main__":
    sys.exit(main())
