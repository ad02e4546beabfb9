"""test/readme_make.py: the readme stage's checks of make itself: every
'make ...' command of README.md and docs/*.md names a target the Makefile
has and variables the build uses, the cheap ones of the docs' tables run
and boot cleanly, and 'make help' names every .PHONY target and ?=
variable (called by readme_examples.py)."""
import glob
import os
import re
import shlex

# Targets of a README table command that the stage runs (cheap, boot and
# end on their own); the others are only checked against the Makefile.
RUNNABLE_TARGETS = {"run", "run-direct", "all", "help", "host-tools"}


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
