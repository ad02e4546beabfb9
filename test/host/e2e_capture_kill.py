#!/usr/bin/env python3
"""test/host/e2e_capture_kill.py: 'baretrace capture --qemu' never leaves
its QEMU behind (TAP), against a stand-in QEMU (a shell script that
writes its pid and sleeps; the capture runs whatever --qemu names):

  sigkill     the capture's process group killed with SIGKILL, as a
              harness ends a test that ran out of time: QEMU, which runs
              in a group of its own, dies with the capture (the kernel's
              parent-death signal: at once, bounded here by 10 s)
  sigterm     SIGTERM to a capture whose QEMU ignores SIGTERM: the
              capture kills it (SIGKILL after its 3 s of grace) and ends
  stderr      a caller reading the capture's stderr to its end is not
              held by QEMU once the capture is killed

Usage: e2e_capture_kill.py path/to/baretrace
"""
import os
import signal
import subprocess
import sys
import threading
import time

from e2e_baretrace import tap_main

BOUND_S = 10.0      # the parent-death signal is sent as the parent ends


def stand_in(tmp, name, ignore_term=False):
    """A QEMU stand-in script and the file it writes its pid to."""
    pidfile = os.path.join(tmp, name + ".pid")
    script = os.path.join(tmp, name + ".sh")
    with open(script, "w") as f:
        f.write("#!/bin/sh\n" + ("trap '' TERM\n" if ignore_term else "") +
                f"echo $$ > {pidfile}.tmp && mv {pidfile}.tmp {pidfile}\n"
                "echo 'baretrace: stand-in target'\nexec sleep 600\n")
    os.chmod(script, 0o755)
    return script, pidfile


def alive(pid):
    """True while pid runs (a zombie has ended: only its parent's wait is
    missing)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_for(cond, bound):
    """Polls cond until it holds or bound seconds passed: (held, seconds)."""
    t0 = time.monotonic()
    while not cond():
        if time.monotonic() - t0 >= bound:
            return False, time.monotonic() - t0
        time.sleep(0.05)
    return True, time.monotonic() - t0


def start(tool, tmp, name, ignore_term=False):
    """The capture of a stand-in: (Popen, the stand-in's pid or None)."""
    script, pidfile = stand_in(tmp, name, ignore_term)
    p = subprocess.Popen([tool, "capture", "-o", os.path.join(tmp, name + ".bt"),
                          "--qemu", "--", script], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    ok, _ = wait_for(lambda: os.path.exists(pidfile), 30)
    pid = int(open(pidfile).read()) if ok else None
    # The pid is the stand-in's once it is sleep (exec keeps the pid).
    wait_for(lambda: pid is not None and b"sleep" in cmdline(pid), 10)
    return p, pid


def cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read()
    except OSError:
        return b""


def reap(p, pid):
    """Leaves nothing behind, whatever the checks found."""
    if pid and alive(pid):
        os.kill(pid, signal.SIGKILL)
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGKILL)
    p.wait()


def kill_checks(tap, tool, tmp):
    p, pid = start(tool, tmp, "kill")
    try:
        started = pid is not None and alive(pid)
        os.killpg(p.pid, signal.SIGKILL)     # a harness's timeout
        p.wait()
        gone, took = wait_for(lambda: not alive(pid), BOUND_S) if started else (False, 0)
        tap.ok(started and gone,
               f"SIGKILL to the capture's group: its QEMU (another group) is gone within "
               f"{BOUND_S:.0f} s", f"stand-in pid {pid} started {started}, still running "
               f"{not gone} after {took:.1f} s ({cmdline(pid) if pid else b''!r})")
        # Its stderr pipe then ends: a reader of it is not held forever.
        ended = []
        if gone:
            t = threading.Thread(target=lambda: ended.append(p.stderr.read() is not None),
                                 daemon=True)
            t.start()
            t.join(BOUND_S)
        tap.ok(gone and ended == [True],
               "after SIGKILL the capture's stderr reaches its end (nothing holds it)",
               f"stand-in gone {gone}")
    finally:
        reap(p, pid)

    p, pid = start(tool, tmp, "term", ignore_term=True)
    try:
        started = pid is not None and alive(pid)
        p.send_signal(signal.SIGTERM)
        try:
            p.wait(timeout=BOUND_S + 5)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            rc = None
        gone, took = wait_for(lambda: not alive(pid), BOUND_S) if started else (False, 0)
        err = p.stderr.read().decode(errors="replace") if rc is not None else ""
        tap.ok(started and rc is not None and gone and "baretrace capture: 0 frames" in err,
               "SIGTERM to the capture, its QEMU ignoring SIGTERM: the capture kills QEMU "
               "(SIGKILL after 3 s) and ends with its summary",
               f"stand-in started {started}; capture status {rc}; stand-in running "
               f"{not gone}\n{err}")
    finally:
        reap(p, pid)


if __name__ == "__main__":
    sys.exit(tap_main(kill_checks, __doc__, "bt-capkill-"))
