"""Fixtures for baretrace's labgrid tests (test/farm/labgrid).

The tests ask the target only for the console and power protocols, so the
same tests run on QEMU (QEMUDriver is both) and on a real board (a serial
driver plus a power driver). Options:

  --bt-timeout S   seconds from power-on to the "baretrace: exit status"
                   line (default 120); a board that has not printed it by
                   then is hung and the test fails
  --bt-elf ELF     the image's baretrace.elf, to name functions in the
                   trace report (optional: the trace's own symbol frames
                   are used without it)
  --bt-out DIR     where each test's console log, trace.bt and report go
                   (default build/farm/labgrid); with --bt-elf and a run
                   traced with trace=coverage, also coverage.info (lcov
                   data), coverage.txt (the per-folder summary) and
                   coverage-html/ (genhtml), named by the junit
                   properties "coverage" and "coverage_functions"
"""
import os
import re
import subprocess
import sys
import threading
import time

import pytest
from pexpect import TIMEOUT

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "tools", "farm"))
from scenarios import capture_coverage  # noqa: E402
EXIT_LINE = b"baretrace: exit status "


def pytest_addoption(parser):
    parser.addoption("--bt-timeout", type=float, default=120.0)
    parser.addoption("--bt-elf", default="")
    parser.addoption("--bt-out", default=os.path.join(ROOT, "build", "farm", "labgrid"))


class BootRun:
    """One power cycle of the board: the raw console bytes until the
    final "baretrace: exit status N" line (or the deadline)."""

    def __init__(self, console, timeout):
        self.console = console
        self.timeout = timeout
        self.raw = b""
        self.status = None      # None: no exit line (hung)

    def read_to_exit(self):
        deadline = time.monotonic() + self.timeout
        while self.status is None:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                chunk = self.console.read(size=4096, timeout=min(left, 1.0))
            except TIMEOUT:
                continue
            if not chunk:       # the other end closed: nothing more comes
                time.sleep(0.05)
                continue
            self.take(chunk)
        # The end-of-stream frame follows the exit line; take what is
        # already on the way so the trace file ends cleanly.
        end = time.monotonic() + 1.0
        while time.monotonic() < end:
            try:
                chunk = self.console.read(size=4096, timeout=0.2)
            except TIMEOUT:
                break
            if not chunk:
                break
            self.raw += chunk

    def take(self, chunk):
        self.raw += chunk
        self.status = exit_status(self.raw)

    def text(self):
        """Console text without trace frames (STX ... ETX, docs/wire.md)."""
        out, inside = bytearray(), False
        for b in self.raw:
            if b == 2:
                inside = True
            elif b == 3 and inside:
                inside = False
            elif not inside and b != 13:
                out.append(b)
        return out.decode(errors="replace")


def exit_status(raw):
    """N of the last "baretrace: exit status N" or "... N (WORD)" line (a
    crash, panic, hang...: docs/running.md), None without one."""
    at = raw.rfind(EXIT_LINE)
    if at < 0:
        return None
    rest = raw[at + len(EXIT_LINE):]
    line = rest[:rest.find(b"\n")] if b"\n" in rest else b""
    m = re.match(rb"(-?\d+)( \([a-z]+\))?\s*$", line)
    return int(m.group(1)) if m else None


@pytest.fixture
def boot_run(target, request):
    """Powers the board on, reads its console to the exit line, powers it
    off. The console log goes to --bt-out; the trace frames in it go to a
    .bt through 'baretrace capture --file', and 'baretrace report' of it
    is attached to the test's result (a report section and a junit
    property naming the file)."""
    power = target.get_driver("PowerProtocol")
    console = target.get_driver("ConsoleProtocol")
    target.activate(power)
    target.activate(console)
    power.off()
    run = BootRun(console, request.config.getoption("--bt-timeout"))
    power_on(power, console, run)
    try:
        yield run
    finally:
        power_off(power, console)
        attach_trace(run, request)


def power_on(power, console, run):
    """Powers on while something already reads the console. QEMUDriver's
    on() resumes the emulator (QMP 'cont') and then waits for QMP's
    answer with nothing reading the serial socket yet: a kernel that
    prints fast (the fail scenario traces every function) fills the
    socket, the vCPU blocks in its UART write holding QEMU's big lock,
    QEMU's main loop cannot send the answer, and on() never returns (gdb
    on such a QEMU: the vCPU thread retrying in qemu_chr_write, the main
    thread waiting for the lock; 1 run of 23 of the fail scenario on a
    loaded machine). So on() runs in a thread while this one reads what
    the board prints into run. A power driver without QEMUDriver's
    'status' (a real board's) is switched on as before."""
    if not hasattr(power, "status") or power is not console:
        power.on()
        return
    failed = []

    def switch_on():
        try:
            power.on()
        except BaseException as exc:  # re-raised below, in the test
            failed.append(exc)

    # _read, not read(): read() is a labgrid step, and the steps' stack
    # is not thread-safe (power_off says more); on() is a step.
    read = getattr(console, "_read", console.read)
    on = threading.Thread(target=switch_on, daemon=True)
    on.start()
    while on.is_alive():
        if not power.status:    # QEMU's serial socket not accepted yet
            time.sleep(0.01)
            continue
        try:
            chunk = read(size=4096, timeout=0.1)
        except Exception:  # TIMEOUT: nothing printed yet
            chunk = b""
        if chunk:
            run.take(chunk)
    on.join()
    if failed:
        raise failed[0]


def power_off(power, console):
    """Powers off while something still reads the console: a board that
    is still printing (a hang, a test that failed early) may block on a
    full serial line, and a QEMU blocked so would never answer the
    driver's 'quit'."""
    stop = threading.Event()
    # The drain reads through the driver's _read (what ConsoleExpectMixin's
    # read wraps), not read(): read() is a labgrid step, and steps live on
    # one process-wide stack that is not thread-safe: a read step pushed
    # here while power.off()'s step was on it failed off()'s pop
    # ("assert self._stack[-1] is step", the demo's teardown, once in a
    # farm stage).
    read = getattr(console, "_read", console.read)

    def drain():
        while not stop.is_set():
            try:
                if not read(size=4096, timeout=0.2):
                    time.sleep(0.05)
            except Exception:  # TIMEOUT, or the line already closed
                time.sleep(0.05)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    try:
        power.off()
    finally:
        stop.set()
        reader.join(timeout=2)


def attach_trace(run, request):
    out = os.path.join(request.config.getoption("--bt-out"), request.node.name)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "console.raw"), "wb") as f:
        f.write(run.raw)
    node = request.node
    node.user_properties.append(("console", os.path.join(out, "console.raw")))
    if b"\x02" not in run.raw:
        return
    tool = os.path.join(ROOT, "build", "host", "baretrace")
    bt = os.path.join(out, "trace.bt")
    subprocess.run([tool, "capture", "--file", os.path.join(out, "console.raw"), "-o", bt],
                   stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, timeout=60)
    if not os.path.exists(bt) or os.path.getsize(bt) == 0:
        return
    cmd = [tool, "report", bt]
    elf = request.config.getoption("--bt-elf")
    if elf:
        cmd += ["--elf", elf]
    rep = subprocess.run(cmd, capture_output=True, timeout=60)
    text = rep.stdout.decode(errors="replace")
    with open(os.path.join(out, "report.txt"), "w") as f:
        f.write(text)
    node.user_properties.append(("trace", bt))
    node.user_properties.append(("trace_report", os.path.join(out, "report.txt")))
    node.bt_report = text
    cov = capture_coverage(bt, elf, out) if elf else None
    if cov:     # a run with trace=coverage: its lcov data, summary and HTML
        node.user_properties.append(("coverage", os.path.join(out, "coverage.info")))
        node.user_properties.append(("coverage_functions", f"{cov[0]} of {cov[1]}"))
        with open(os.path.join(out, "coverage.txt")) as f:
            node.bt_coverage = f.read()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    text = getattr(item, "bt_report", None)
    if report.when == "teardown" and text:
        report.sections.append(("baretrace report", text))
    cov = getattr(item, "bt_coverage", None)
    if report.when == "teardown" and cov:
        report.sections.append(("baretrace coverage", cov))
