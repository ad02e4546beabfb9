#!/usr/bin/env python3
"""test/host/unit_tap.py: make test's output is TAP 14 that a real TAP
consumer from Debian reads (node-tap-parser's tap-parser, which knows
TAP 14; tools/setup test installs it). test/run.py's main() runs made-up
stages through the harness's Results: one run where every check passes,
one with failures whose names look like TAP directives ("# TODO") and
whose detail holds nested KTAP, TAP and a plan; tap-parser must read the
version, a plan equal to the checks recorded, and the very passes and
failures the closing "N passed, N failed" line reports, with no parse
error. A bad stage name runs nothing. The expected counts are written
here, not read from the harness.

Usage: test/host/unit_tap.py
Prints TAP; exit status 0 when every check passed.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from e2e_baretrace import Tap  # noqa: E402

TEST = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# The stages: each records what its name says. The failing detail is what
# a failed target boot leaves: its console's KTAP, indented and not.
DRIVER = r'''
import sys
sys.path.insert(0, sys.argv[1])
import run

KTAP = """KTAP version 1
1..2
ok 1 ring_reserve
not ok 2 ring_commit
    # ring_commit: expected 3, got 4
TAP version 14
1..7
ok 9 - stray
Bail out! not really"""


def passing(res, board):
    res.record("builds on " + board, True)
    res.record("a name with a backslash \\ and # 3 in it", True)
    res.record("two\nlines", True)


def failing(res, board):
    res.record("boots", True)
    res.record("suite ring # TODO not a directive", False, KTAP)
    res.record("hang # SKIP not a directive either", False, "no output\n")


sys.exit(run.main(sys.argv[2:], stages={"passing": passing, "failing": failing}))
'''


def stream(only):
    p = subprocess.run([sys.executable, "-c", DRIVER, TEST, "--only", only],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def consume(text):
    """tap-parser's events for the stream: [[kind, data], ...]. Debian's
    node finds its modules in /usr/share/nodejs; another node (e.g.
    NodeSource's) needs NODE_PATH for it."""
    env = dict(os.environ)
    env["NODE_PATH"] = os.pathsep.join(p for p in ["/usr/share/nodejs", env.get("NODE_PATH")] if p)
    p = subprocess.run(["tap-parser", "--json=0"], input=text.encode(), env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        return json.loads(p.stdout.decode()), p.stderr.decode()
    except ValueError:
        return [], f"tap-parser exit {p.returncode}\n{p.stdout.decode()}\n{p.stderr.decode()}"


def check_run(tap, only, status, passed, failed, failing_names):
    rc, out, err = stream(only)
    lines = out.splitlines()
    tap.ok(rc == status and lines[:1] == ["TAP version 14"]
           and lines[-1:] == [f"{passed} passed, {failed} failed"],
           f"--only {only}: exit {status}, 'TAP version 14' first, "
           f"'{passed} passed, {failed} failed' last", f"exit {rc}\n{out}\n{err}")
    events, why = consume(out)
    kinds = {}
    for kind, data in events:
        kinds.setdefault(kind, []).append(data)
    done = (kinds.get("complete") or [{}])[-1]
    plan = done.get("plan") or {}
    asserts = kinds.get("assert", [])
    tap.ok(kinds.get("version") == [14], f"--only {only}: tap-parser reads TAP version 14",
           why or json.dumps(events)[:3000])
    tap.ok(plan.get("start") == 1 and plan.get("end") == passed + failed
           and done.get("count") == passed + failed and len(asserts) == passed + failed
           and [a["id"] for a in asserts] == list(range(1, passed + failed + 1)),
           f"--only {only}: the plan is 1..{passed + failed} and every test point is numbered in turn",
           json.dumps(done) + "\n" + out)
    errors = [f for f in done.get("failures", []) if "tapError" in f]
    tap.ok(done.get("pass") == passed and done.get("fail") == failed
           and done.get("todo") == 0 and done.get("skip") == 0 and not done.get("bailout")
           and not errors and done.get("ok") == (failed == 0),
           f"--only {only}: tap-parser counts {passed} passed, {failed} failed, no parse error",
           json.dumps(done) + "\n" + out)
    got = [a["name"] for a in asserts if not a["ok"]]
    tap.ok(got == failing_names, f"--only {only}: tap-parser names the failures as recorded",
           f"got {got}\nwanted {failing_names}")
    return out


def main():
    tap = Tap()
    out = check_run(tap, "passing", 0, 3, 0, [])
    tap.ok("ok 2 - a name with a backslash \\\\ and \\# 3 in it" in out.splitlines()
           and "ok 3 - two lines" in out.splitlines(),
           "a description is one line, its '#' and '\\' escaped (TAP 14)", out)
    out = check_run(tap, "passing failing", 1, 4, 2,
                    ["suite ring # TODO not a directive", "hang # SKIP not a directive either"])
    tap.ok("#   not ok 2 ring_commit" in out.splitlines()
           and "# stage failing (qemu-virt)" in out.splitlines(),
           "a failure's detail (nested KTAP) and the stage names stay as comments", out)
    rc, out, err = stream("passing,nosuch")
    tap.ok(rc == 2 and out == "" and "unknown stage 'nosuch'" in err
           and "(valid: passing failing)" in err,
           "a bad stage name runs nothing and lists the stages", f"exit {rc}\n{out}\n{err}")
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
