"""test/mk_lists.py: every list variable of the Makefile and mk/*.mk takes
its words with spaces, commas or both between them (issue 42: make
TEST_STAGES='build readme' test once failed with "unrecognized arguments:
readme" while FARM= took spaces and refused commas). For each variable,
each way of typing the same two words reaches the command make would run
(make -n) as the same arguments; a bad TEST_STAGES name stops make with
the list of stages before anything runs, and docs/running.md's "List
variables" names every one.
"""
import os
import re

# (variable, its words, the goal, what that goal's command must hold)
LISTS = [
    ("TEST_STAGES", ["build", "readme"], "test", "test/run.py --board {board} --only build,readme"),
    ("TEST_STAGES", ["build", "readme"], "test-under-load",
     "python3 test/run.py --board {board} --only build,readme"),
    ("FARM", ["ktap", "crash"], "farm-labgrid", "tools/farm/run-labgrid ktap crash"),
    ("FARM", ["ktap", "crash"], "farm-lava", "tools/farm/run-lava ktap crash"),
    ("COVERAGE_SUITES", ["smp", "ring"], "coverage", "-- ktest smp ring\""),
    ("TRACES", ["a.bt", "b.bt"], "coverage-html", "coverage a.bt b.bt --elf"),
    ("ELFS", ["a.elf", "b.elf"], "coverage-html", "--elf a.elf --elf b.elf"),
    ("BENCH_HOST_EVENTS", ["1000", "2000"], "bench-host", "build/bench 1000 2000"),
    # make run's filter goes to the kernel as one word, commas between.
    ("TRACE_FILTER", ["pipe_*", "!pipe_poll"], "print-TRACE_FILTER_WORD", "pipe_*,!pipe_poll"),
]


def user_env():
    """The environment of a make typed by hand, not make test's own."""
    return {k: v for k, v in os.environ.items()
            if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES")}


def make(h, args, dry=True):
    extra = ["TRACES=x.bt"] if "coverage-html" in args and not any(
        a.startswith("TRACES=") for a in args) else []
    return h.run(["make", "--no-print-directory"] + (["-n"] if dry else []) + args + extra,
                 timeout=300, env=user_env())


def check(h, res, board):
    for var, words, goal, want in LISTS:
        want = want.format(board=board)
        for typed in (" ".join(words), ",".join(words), ", ".join(words)):
            st, out = make(h, [f"BOARD={board}", f"{var}={typed}", goal])
            res.record(f"make {var}='{typed}' {goal}: the command holds '{want}'",
                       st == 0 and want in out, f"exit {st}\n{out[-3000:]}")
    check_bad_stage(h, res, board)
    check_documented(h, res)


def check_bad_stage(h, res, board):
    """A stage test/run.py does not know: one line naming it and every
    stage, exit 2, and nothing run (no setup, no TAP)."""
    for typed, goal in (("build nosuch", "test"), ("build,nosuch", "test-under-load")):
        st, out = make(h, [f"BOARD={board}", f"TEST_STAGES={typed}", goal], dry=False)
        lines = out.strip().splitlines()
        res.record(f"make TEST_STAGES='{typed}' {goal}: refused at once, naming 'nosuch' and the stages",
                   st == 2 and len(lines) == 1 and "unknown stage 'nosuch'" in lines[0]
                   and re.search(r"\(valid: host build .*readme", lines[0]) is not None,
                   f"exit {st}\n{out[-3000:]}")
    st, out = h.run(["python3", "test/run.py", "--only", "build nosuch"], timeout=60)
    res.record("test/run.py --only 'build nosuch': exit 2 before any stage runs",
               st == 2 and "unknown stage 'nosuch'" in out and "# stage" not in out
               and "TAP version" not in out, f"exit {st}\n{out[-3000:]}")
    st, out = h.run(["python3", "test/run.py", "--only", "host, build", "--list"], timeout=60)
    res.record("test/run.py --only 'host, build' --list: host and build, nothing run",
               st == 0 and out.split() == ["host", "build"], f"exit {st}\n{out}")


def check_documented(h, res):
    with open(os.path.join(h.ROOT, "docs", "running.md")) as f:
        text = f.read()
    m = re.search(r"^### List variables\n(.*?)(?=^#)", text, re.M | re.S)
    section = m.group(1) if m else ""
    missing = sorted({v for v, *_ in LISTS if f"`{v}" not in section})
    res.record("docs/running.md's 'List variables' names every list variable",
               m is not None and not missing, f"missing: {missing}\n{section}")
