"""test/readme_run.py: running one example of the docs as a user types it,
and matching what it printed against the docs' output block (the rules
are in test/readme_examples.py, which runs the stage)."""
import os
import re

from docs_checks import doc_files


def line_regex(line):
    parts = re.split(r"(\.\.\.|NNN)", line)
    return "".join(".*" if p == "..." else r"\d+" if p == "NNN" else re.escape(p)
                   for p in parts)


def loose_line_regex(line):
    """A sample line of host-time figures: each number is any number with
    a fraction (13.536 any d.d, as many decimals or fewer:
    a longer duration prints fewer), a run of spaces any run of at
    least one, a duration's mark (+ ! # * @ $, which follows the
    duration) any mark or none; '...' and NNN as in line_regex."""
    parts = re.split(r"(\.\.\.|NNN|\d+(?:\.\d+)?|(?<= )[-+!#*@$](?= )| +)", line)
    out = []
    for p in parts:
        if len(p) == 1 and p in "-+!#*@$":
            out.append(r"[-+!#*@$ ]")
        elif p == "...":
            out.append(".*")
        elif p == "NNN":
            out.append(r"\d+")
        elif re.fullmatch(r"\d+(?:\.\d+)?", p):
            frac = p.partition(".")[2]
            # Any count of decimals: the graph prints fewer as the
            # duration grows (9.472 us, 10095.76 us), and a loaded host
            # makes a sample's durations grow.
            out.append(r"(?:[-+!#*@$] +)?\d+\.\d+" if frac else r"\d+")
        elif p and p.strip() == "":
            out.append(" +")
        else:
            out.append(re.escape(p))
    return "".join(out)


def match_output(expected, actual, loose=False):
    """None if 'actual' shows the 'expected' block (rules above), else
    the first expected line not found where it should be. loose: every
    number of the block is a sample (loose_line_regex)."""
    lines = [l.rstrip() for l in actual.replace("\r", "").splitlines()]
    pos, free = 0, True          # free: any number of lines may come first
    for want in expected.rstrip("\n").splitlines():
        if want.strip() == "...":
            free = True
            continue
        rx = re.compile((loose_line_regex if loose else line_regex)(want.rstrip()))
        if free:
            hit = next((i for i in range(pos, len(lines)) if rx.fullmatch(lines[i])), None)
        else:
            hit = pos if pos < len(lines) and rx.fullmatch(lines[pos]) else None
        if hit is None:
            return want
        pos, free = hit + 1, False
    return None


def run_example(h, code, timeout=180):
    try:    # what build/run/status says must come from this run
        os.remove(run_dir_file(h, "status"))
    except FileNotFoundError:
        pass
    # As a user types it: not inside make test's make (whose MAKELEVEL
    # turns make's "make: ***" lines into "make[1]: ***").
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES")}
    st, out = h.run(["bash", "-c", code], timeout=timeout, env=env)
    return st, h.strip_frames(out)


def run_dir_file(h, name):
    return os.path.join(h.ROOT, "build", "run", name)


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
