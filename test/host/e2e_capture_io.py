#!/usr/bin/env python3
"""test/host/e2e_capture_io.py: the two-way line of 'baretrace capture'
(TAP), against fake_shell.py standing in for QEMU:

  stdin       not a terminal: forwarded as it is; its end stops the
              forwarding, not the capture (frames sent later are kept)
  exec        --exec sends each command at a prompt found in console text
              only (not in a frame, and also when a frame cuts it), waits
              for the next; a missing reply or an early end is an error
  pty         on a terminal: raw while it runs (Ctrl-C asks the target to
              end the run: the end request), Ctrl-] leaves, and the
              terminal's settings are back after every way out: Ctrl-],
              the target's end, SIGTERM, and
              a write error (exit from deep inside)
  serial      --serial on a pseudo-terminal: --exec and stdin reach the
              board's end
  usage       bad --exec and flags: status 2, no file written

Usage: e2e_capture_io.py path/to/baretrace
"""
import fcntl
import os
import re
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import time
import tty

HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = [sys.executable, os.path.join(HERE, "fake_shell.py")]
# What e2e_wire.raw_log holds, plus fake_shell's two damaged frames; the
# frames the target sent before its end-of-stream frame (as it counts them).
SUMMARY = "7 frames, 3 damaged, 2 sequence gaps, 22 events, 12 lost"


class Tap:
    def __init__(self):
        self.n = self.failed = 0

    def ok(self, cond, name, detail=""):
        self.n += 1
        print(f"{'ok' if cond else 'not ok'} {self.n} - {name}", flush=True)
        if not cond:
            self.failed += 1
            for line in str(detail).splitlines()[-30:]:
                print(f"# {line}")
        return cond


def capture(tool, args, stdin_data, timeout=60):
    """(status, stdout, stderr); status None if it had to be stopped."""
    p = subprocess.Popen([tool, "capture"] + args, stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        out, err = p.communicate(stdin_data, timeout=timeout)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        stop(p)
        out, err = p.communicate()
        rc = None
    return rc, out.decode(errors="replace"), err.decode(errors="replace")


def received(log):
    """The commands fake_shell.py got ([] if it never ran)."""
    try:
        with open(log) as f:
            return f.read().splitlines()
    except OSError:
        return []


def decodes(tap, tool, bt, name):
    p = subprocess.run([tool, "report", bt], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = p.stdout.decode(errors="replace")
    tap.ok(p.returncode == 0 and re.search(r"^\[001\] \d+\.\d+: ", out, re.M) is not None,
           name, out[-1500:] + p.stderr.decode(errors="replace"))


def stdin_checks(tap, tool, tmp):
    log, bt = os.path.join(tmp, "stdin.log"), os.path.join(tmp, "stdin.bt")
    rc, out, err = capture(tool, ["-o", bt, "--qemu", "--"] + FAKE + [log, "idle"],
                           b"hello\nsecond line\n")
    tap.ok(rc == 0 and received(log)[-2:] == ["hello", "second line"] and
           "you said: 'hello'\r\n" in out and "you said: 'second line'" in out,
           "stdin (a pipe) reaches the target as it is; its replies are printed",
           f"status {rc}, target got {received(log)}\n{out}\n{err}")
    tap.ok(SUMMARY in err and "(no end-of-stream" not in err,
           "the end of stdin stops only the forwarding: the frames sent after it are captured",
           err)
    decodes(tap, tool, bt, "the capture of a two-way session decodes")


def exec_checks(tap, tool, tmp):
    log, bt = os.path.join(tmp, "exec.log"), os.path.join(tmp, "exec.bt")
    rc, out, err = capture(tool, ["-o", bt, "--exec", " one ;two words", "--exec", "exit 0",
                                  "--qemu", "--"] + FAKE + [log], b"typed\n")
    got = received(log)
    tap.ok(rc == 0 and got == ["one", "two words", "exit 0"],
           "--exec: each command once, in order, trimmed, none before the first real prompt "
           "(not the one in a frame); stdin waits for them",
           f"status {rc}, target got {got}\n{err}")
    tap.ok(re.search(r"bt> one\r\nyou said: 'one'\r\nbt> two words\r\nyou said: 'two words'"
                     r"\r\nbt> exit 0\r\n", out) is not None,
           "--exec: the replies are printed, each command after its prompt", out)
    tap.ok(SUMMARY in err, "--exec: 'exit' ends the run, the frames are kept", err)
    decodes(tap, tool, bt, "--exec: the trace decodes")

    log, bt = os.path.join(tmp, "hang.log"), os.path.join(tmp, "hang.bt")
    t0 = time.time()
    rc, out, err = capture(tool, ["-o", bt, "--exec", "one; hang; two", "--exec-timeout", "6",
                                  "--qemu", "--"] + FAKE + [log], b"")
    took = time.time() - t0
    tap.ok(rc == 1 and received(log) == ["one", "hang"] and
           "--exec 'hang' (2 of 3): no reply (shell prompt 'bt> ') within 6 s" in err and
           "(--exec failed)" in err and took < 30,
           "--exec: a command with no reply within --exec-timeout: named, status 1, the "
           "target stopped", f"status {rc} after {took:.1f} s, target got "
           f"{received(log)}\n{err}")

    log = os.path.join(tmp, "early.log")
    rc, out, err = capture(tool, ["-o", bt, "--exec", "exit 0; two", "--qemu", "--"] +
                           FAKE + [log], b"")
    tap.ok(rc == 1 and "--exec 'exit 0' (1 of 2): the run ended before its reply; "
           "1 command not sent" in err and SUMMARY in err,
           "--exec: a run that ends with commands left is an error (status 1), its frames kept",
           f"status {rc}\n{err}")


def stop(p):
    """Ends p's process group (p leads it): SIGTERM, then SIGKILL."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(p.pid, sig)
        except OSError:
            return
        try:
            p.wait(timeout=10)
            return
        except subprocess.TimeoutExpired:
            pass


class Pty:
    """cmd on a pseudo-terminal that is its controlling terminal."""

    def __init__(self, cmd, fsize=None, cwd=None):
        self.master, slave = os.openpty()
        self.slave = slave
        self.before = termios.tcgetattr(slave)

        def child_setup():
            os.setsid()
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
            if fsize:
                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        self.p = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave,
                                  preexec_fn=child_setup, cwd=cwd)
        self.out = b""

    def read_until(self, what, timeout=30):
        end = time.time() + timeout
        while what not in self.out and time.time() < end:
            if select.select([self.master], [], [], 0.2)[0]:
                try:
                    self.out += os.read(self.master, 4096)
                except OSError:
                    break
        return what in self.out

    def type(self, b):
        os.write(self.master, b)

    def wait(self, timeout=30):
        end = time.time() + timeout
        while self.p.poll() is None and time.time() < end:
            self.read_until(b"\0never", 0.2)
        if self.p.poll() is None:
            # SIGTERM first: capture then stops the QEMU it started (in a
            # process group of its own, which a kill of ours would miss).
            stop(self.p)
        rc = self.p.wait()
        self.read_until(b"\0never", 0.3)
        return rc

    def restored(self):
        return termios.tcgetattr(self.slave) == self.before

    def raw_now(self):
        t = termios.tcgetattr(self.slave)
        return not t[3] & (termios.ICANON | termios.ECHO | termios.ISIG)

    def close(self):
        os.close(self.master)
        os.close(self.slave)

    def text(self):
        return self.out.decode(errors="replace")


def pty_checks(tap, tool, tmp):
    log, bt = os.path.join(tmp, "pty.log"), os.path.join(tmp, "pty.bt")
    t = Pty([tool, "capture", "-o", bt, "--qemu", "--"] + FAKE + [log])
    hint = t.read_until(b"Ctrl-] leaves\r\n")
    prompt = t.read_until(b"bt> ")
    raw = t.raw_now()
    t.type(b"a\x01b\r")
    said = t.read_until(b"you said: 'a\\x01b'")
    t.type(b"\x1d")
    rc = t.wait()
    tap.ok(hint and prompt and raw and said,
           "on a terminal: one line says Ctrl-] leaves, the terminal is raw, a control key "
           "goes to the target as a byte", f"hint {hint} prompt {prompt} raw {raw} said {said}\n"
           + t.text())
    tap.ok(rc == 0 and "(left with Ctrl-])" in t.text() and t.restored(),
           "Ctrl-] leaves (status 0) and the terminal's settings are back", f"status {rc}\n"
           + t.text())
    t.close()

    t = Pty([tool, "capture", "-o", bt, "--qemu", "--"] + FAKE + [log])
    t.read_until(b"bt> ")
    t.type(b"a\x03b\r")
    rc = t.wait()
    got = open(log).read().splitlines()
    tap.ok(rc == 0 and got == ["ab", "END interrupt"]
           and "baretrace: exit status 130 (interrupt)" in t.text()
           and SUMMARY in t.text() and t.restored(),
           "on a terminal Ctrl-C is no byte for the target: it sends the end request "
           "(interrupt), the target's end ends the capture", f"status {rc}, log {got}\n"
           + t.text())
    t.close()

    t = Pty([tool, "capture", "-o", bt, "--qemu", "--"] + FAKE + [log])
    t.read_until(b"bt> ")
    raw = t.raw_now()
    t.type(b"exit 0\r")
    rc = t.wait()
    tap.ok(raw and rc == 0 and SUMMARY in t.text() and t.restored(),
           "the target's end: the terminal's settings are back", f"raw {raw} status {rc}\n"
           + t.text())
    t.close()

    t = Pty([tool, "capture", "-o", bt, "--qemu", "--"] + FAKE + [log])
    t.read_until(b"bt> ")
    raw = t.raw_now()
    t.p.send_signal(signal.SIGTERM)
    rc = t.wait()
    tap.ok(raw and rc == 0 and "(interrupted)" in t.text() and t.restored(),
           "SIGTERM: the summary, and the terminal's settings are back",
           f"raw {raw} status {rc}\n" + t.text())
    t.close()

    # The trace file may not grow past 100 bytes: the first frame kept
    # fails to write, and the tool exits from deep inside (bt_die).
    t = Pty([tool, "capture", "-o", bt, "--qemu", "--"] + FAKE + [log], fsize=100)
    t.read_until(b"bt> ")
    raw = t.raw_now()
    t.type(b"exit 0\r")
    rc = t.wait()
    tap.ok(raw and rc == 1 and "cannot write" in t.text() and t.restored(),
           "an error exit (the trace file cannot grow): the terminal's settings are back",
           f"raw {raw} status {rc}\n" + t.text())
    t.close()


def serial_checks(tap, tool, tmp):
    """--serial: a pseudo-terminal is the board's port; this test plays the
    board on its other end."""
    sys.path.insert(0, HERE)
    import e2e_wire as wire
    master, slave = os.openpty()
    tty.setraw(slave)   # no echo before capture sets it raw itself
    bt = os.path.join(tmp, "serial.bt")
    p = subprocess.Popen([tool, "capture", "--serial", os.ttyname(slave), "-o", bt,
                          "--exec", "help"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdin.write(b"after\n")
    p.stdin.close()
    p.stdin = None      # communicate() must not flush it again
    got = b""
    mark = b"\x10\x18c"    # the capture's mark, at each prompt; a target takes it out

    def until(what, timeout=30):
        nonlocal got
        end = time.time() + timeout
        while what not in got.replace(mark, b"") and time.time() < end:
            if select.select([master], [], [], 0.2)[0]:
                got += os.read(master, 4096)
        return what in got.replace(mark, b"")
    time.sleep(0.5)     # the port is open and raw
    os.write(master, b"boot\r\nbt> ")
    cmd = until(b"help\r")
    os.write(master, b"help\r\nok\r\nbt> ")
    typed = until(b"help\rafter\n")
    os.write(master, wire.raw_log(0x12345678)[0])
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    err = err.decode(errors="replace")
    tap.ok(cmd and typed and p.returncode == 0 and b"bt> help\r\nok\r\n" in out and
           "7 frames, 1 damaged" in err and got.startswith(mark + b"help\r" + mark),
           "--serial: the port is two-way: --exec at the prompt, then stdin, each after the "
           "capture's mark; the frames kept",
           f"status {p.returncode}, the board got {got!r}\n{out!r}\n{err}")
    os.close(master)
    os.close(slave)


def usage_checks(tap, tool, tmp):
    bt = os.path.join(tmp, "never.bt")
    q = ["--qemu", "--", "true"]
    for args, words in [
            (["--exec", ""] + q, "holds an empty command"),
            (["--exec", "help;;exit"] + q, "holds an empty command"),
            (["--exec", "help; "] + q, "holds an empty command"),
            (["--exec", "a\nb"] + q, "one line of printable characters"),
            (["--exec"], "needs a value"),
            (["--exec", "help", "--exec-timeout", "0"] + q, "bad --exec-timeout '0'"),
            (["--exec", "help", "--exec-timeout", "x"] + q, "bad --exec-timeout 'x'"),
            (["--exec-timeout", "5"] + q, "goes with --exec"),
            (["--exec", "help", "--file", "/dev/null"], "needs a target to talk to"),
            (["--interactive"] + q, "unknown option '--interactive'")]:
        rc, out, err = capture(tool, ["-o", bt] + args, b"")
        tap.ok(rc == 2 and words in err and not os.path.exists(bt),
               f"capture {' '.join(repr(a) for a in args[:4])}: status 2, says '{words}', "
               "writes nothing", f"status {rc}\n{err}")


def qemu_status_checks(tap, tool, tmp):
    """QEMU that quits on its own before the stream ends (it did not
    start: a bad option, a missing file; or it crashed) fails the
    capture, so make run cannot pass on a boot that never happened."""
    bt = os.path.join(tmp, "quit.bt")
    for script, want_rc, words in [
            ("echo 'qemu: bad option' >&2; exit 1", 1, "QEMU exited with status 1 before"),
            ("kill -SEGV $$", 1, "QEMU was ended by signal 11 before"),
            ("echo console line; exit 0", 0, None)]:
        rc, out, err = capture(tool, ["-o", bt, "--qemu", "--", "sh", "-c", script], b"")
        said = words is None and "QEMU " not in err or words is not None and words in err
        tap.ok(rc == want_rc and said,
               f"capture --qemu: a QEMU that ends by itself ({script!r}) before the end "
               f"of the stream: status {want_rc}" + (f", says '{words}'" if words else ""),
               f"status {rc}\n{err}")


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    tool = os.path.abspath(sys.argv[1])
    tmp = tempfile.mkdtemp(prefix="bt-capio-")
    tap = Tap()
    try:
        usage_checks(tap, tool, tmp)
        qemu_status_checks(tap, tool, tmp)
        stdin_checks(tap, tool, tmp)
        exec_checks(tap, tool, tmp)
        pty_checks(tap, tool, tmp)
        serial_checks(tap, tool, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
