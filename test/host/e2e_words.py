#!/usr/bin/env python3
"""test/host/e2e_words.py: the host tool's words on a command line a user
mistyped or wrote as `make run` suggests (issue 25):

  a mistyped command, option or export format names the nearest one
  in one line and points to --help, instead of printing the whole usage; --format=chrome is chrome-json
  (make run labels the file "chrome:"); report --ns writes the graph
  layout's durations in nanoseconds; a count of one is "1 event".

Uses e2e_outcome.py's trace (one crash on a 4-CPU target).

Usage: test/host/e2e_words.py BARETRACE [--keep DIR]
Prints TAP; exit status 0 when every check passed.
"""
import os
import sys

import e2e_wire as wire
from e2e_baretrace import run, tap_main
from e2e_outcome import capture, log
from e2e_wire import FREQ, varint, rec, payload, escape


def mistyped(tap, tool, tmp, bt):
    def expect(args, words, name, usage=""):
        rc, out, err = run([tool] + args)
        # one line, and for a command's option the pointer to its --help
        # (issue 42: not the whole usage)
        tap.ok(rc == 2 and all(w in err for w in words) and "usage:" not in err and
               len(err.splitlines()) == 2 and err.splitlines()[-1] == f"Try 'baretrace {usage}--help'.",
               name, f"exit {rc}\n{err}")

    expect(["reprot", bt], ["unknown command 'reprot'; did you mean 'report'?"],
           "a mistyped command: did you mean, not the whole usage")
    expect(["stast", bt], ["did you mean 'stats'?"], "another: stast -> stats")
    expect(["frobnicate"], ["unknown command 'frobnicate' (capture, report, stats, export, "
                            "graph, coverage, ktap, hist, args-spec or goto)"],
           "a command near none: the list, not the usage")
    expect(["export", "--format=foldd", "-o", tmp + "/x", bt],
           ["unknown export format 'foldd'; did you mean 'folded'?"], "a mistyped format",
           usage="export ")
    expect(["report", bt, "--abstiem"], ["unknown option '--abstiem'; did you mean '--abstime'?"],
           "a mistyped option names the nearest (and points to the command's --help)",
           usage="report ")
    expect(["stats", bt, "--sort=cals"], ["unknown sort key 'cals'; did you mean 'calls'?"],
           "a mistyped sort key", usage="stats ")
    expect(["stats", bt, "--sortt=calls"], ["did you mean '--sort'?"],
           "a mistyped option with its value", usage="stats ")


def chrome_alias(tap, tool, tmp, bt):
    a, b = os.path.join(tmp, "a.json"), os.path.join(tmp, "b.json")
    rc, _, err = run([tool, "export", "--format=chrome", "-o", a, bt])
    rc2, _, err2 = run([tool, "export", "--format=chrome-json", "-o", b, bt])
    tap.ok(rc == 0 and rc2 == 0 and open(a).read() == open(b).read(),
           "--format=chrome writes what chrome-json writes", err + err2)


def ns_layout(tap, tool, bt, elf):
    rc, us, _ = run([tool, "report", bt, "--elf", elf])
    rc2, ns, err = run([tool, "report", bt, "--elf", elf, "--ns"])
    # leaf lasts 10 ticks of 16 ns; outer 30 ticks.
    tap.ok(rc == 0 and " 1)   0.160 us    |      leaf();" in us.splitlines(),
           "report: graph durations in microseconds by default", us)
    tap.ok(rc2 == 0 and " 1)   160 ns      |      leaf();" in ns.splitlines() and
           " 0)   480 ns      |  outer();" in ns.splitlines(),
           "report --ns: graph durations in nanoseconds, '|' in the same column", ns + err)


def one_event(tap, tool, tmp, h):
    f = lambda *a: escape(payload(*a))
    raw = (f(2, 0, 0, wire.metadata(h)) + f(3, 0, 0, wire.symdump(0, [0, 1, 2, 3])) +
           f(1, 0, 0, varint(FREQ) + varint(0) + rec(1, 0, varint(wire.S_LEAF),
                                                       wire.caller_of(0x150))) +
           f(4, 0, 0, wire.end_totals([(0, 1, 0, 0, 0, 1)])))
    bt = capture(tap, tool, tmp, "one", raw)
    for cmd in ("report", "stats"):
        rc, out, err = run([tool, cmd, bt])
        tap.ok(rc == 0 and "# 1 event" in out.splitlines() and "# 1 events" not in out,
               f"{cmd}: '# 1 event', not '# 1 events'", out + err)


def checks(tap, tool, tmp):
    elf = os.path.join(tmp, "sensor.elf")
    h = wire.elf(elf, app="sensor")
    bt = capture(tap, tool, tmp, "words", log(h))
    mistyped(tap, tool, tmp, bt)
    chrome_alias(tap, tool, tmp, bt)
    ns_layout(tap, tool, bt, elf)
    one_event(tap, tool, tmp, h)


if __name__ == "__main__":
    sys.exit(tap_main(checks, __doc__, "bt-words-"))
