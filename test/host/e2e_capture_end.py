#!/usr/bin/env python3
"""test/host/e2e_capture_end.py: 'baretrace capture' ending a run (TAP),
against fake_shell.py standing in for QEMU (it answers the end request
as a target does: docs/serial-line.md):

  timeout     --timeout 1: the end request with 'h' (hang) goes to the
              target, whose end-of-stream frame ends the capture
  sigint      SIGINT: the end request with 'i' (interrupt)
  no answer   a target that does not answer: 10 s later the capture
              stops it and prints the final line itself (hang 124); a
              second SIGINT does the same at once (interrupt 130)
  usage       bad --timeout values: status 2, no file written

Usage: e2e_capture_end.py path/to/baretrace
"""
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from e2e_capture_io import FAKE, SUMMARY, Tap, capture, received


def start(tool, args, log):
    return subprocess.Popen([tool, "capture"] + args + ["--qemu", "--"] + FAKE + [log],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)


def finish(p, timeout=40):
    try:
        out, err = p.communicate(timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        rc = None
    return rc, out.decode(errors="replace"), err.decode(errors="replace")


def got(log):
    """What the fake target got, without the 'EARLY' it notes when bytes
    came before its prompt (a loaded host starts it late)."""
    return [c for c in received(log) if c != "EARLY"]


def wait_for(p, log, cmd, limit=30):
    """Until the target got cmd: the capture then runs and forwards (its
    signal handlers are in place), where a fixed sleep is a guess a
    loaded host may not keep."""
    deadline = time.time() + limit
    while received(log)[-1:] != [cmd] and time.time() < deadline and p.poll() is None:
        time.sleep(0.05)


def end_checks(tap, tool, tmp):
    log, bt = os.path.join(tmp, "end.log"), os.path.join(tmp, "end.bt")
    p = start(tool, ["-o", bt, "--timeout", "1"], log)
    rc, out, err = finish(p)
    tap.ok(rc == 0 and got(log) == ["END hang"]
           and "baretrace: exit status 124 (hang)" in out
           and "--timeout passed: asking the target to end the run (hang)" in err
           and SUMMARY in err and "(no end-of-stream" not in err,
           "--timeout 1: the end request (hang) reaches the target, whose end ends the "
           "capture", f"status {rc}, target got {received(log)}\n{out}\n{err}")

    os.remove(log)      # wait_for must not read the last run's log
    p = start(tool, ["-o", bt], log)
    p.stdin.write(b"ready\n")
    p.stdin.flush()
    wait_for(p, log, "ready")
    p.send_signal(signal.SIGINT)
    rc, out, err = finish(p)
    tap.ok(rc == 0 and got(log) == ["ready", "END interrupt"]
           and "baretrace: exit status 130 (interrupt)" in out
           and "interrupted: asking the target to end the run (interrupt)" in err
           and SUMMARY in err,
           "SIGINT: the end request (interrupt) reaches the target, whose end ends the "
           "capture", f"status {rc}, target got {received(log)}\n{out}\n{err}")

    p = start(tool, ["-o", bt, "--timeout", "1"], log)
    p.stdin.write(b"hang\n")
    p.stdin.flush()
    t0 = time.time()
    rc, out, err = finish(p)
    took = time.time() - t0
    tap.ok(rc == 0 and received(log)[-1:] == ["hang"]
           and out.rstrip().endswith("baretrace: exit status 124 (hang)")
           and "no end-of-stream frame within 10 s of the end request" in err
           and "(no end-of-stream frame: ended by the host)" in err and 10 <= took < 30,
           "a target that does not answer the end request: the capture ends the run 10 s "
           "later and prints the final line (hang 124)",
           f"status {rc} after {took:.1f} s, target got {received(log)}\n{out}\n{err}")

    os.remove(log)
    p = start(tool, ["-o", bt], log)
    p.stdin.write(b"hang\n")
    p.stdin.flush()
    wait_for(p, log, "hang")
    p.send_signal(signal.SIGINT)
    time.sleep(0.5)
    t0 = time.time()
    p.send_signal(signal.SIGINT)
    rc, out, err = finish(p)
    took = time.time() - t0
    # "At once": before the 10 s a target that does not answer is given.
    tap.ok(rc == 0 and out.rstrip().endswith("baretrace: exit status 130 (interrupt)")
           and "interrupted again: the run is ended here" in err and took < 9,
           "a second SIGINT ends the run at once (not after the 10 s a silent target gets), "
           "the final line the host's (interrupt 130)",
           f"status {rc} after {took:.1f} s, target got {received(log)}\n{out}\n{err}")


def usage_checks(tap, tool, tmp):
    bt = os.path.join(tmp, "never.bt")
    q = ["--qemu", "--", "true"]
    for args, words in [
            (["--timeout", "0"] + q, "bad --timeout '0'"),
            (["--timeout", "x"] + q, "bad --timeout 'x'"),
            (["--timeout", "5", "--file", "/dev/null"], "needs a target to ask")]:
        rc, out, err = capture(tool, ["-o", bt] + args, b"")
        tap.ok(rc == 2 and words in err and not os.path.exists(bt),
               f"capture {' '.join(repr(a) for a in args[:4])}: status 2, says '{words}', "
               "writes nothing", f"status {rc}\n{err}")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    tool = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="bt-capend-")
    tap = Tap()
    try:
        usage_checks(tap, tool, tmp)
        end_checks(tap, tool, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
