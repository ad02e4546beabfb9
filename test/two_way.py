"""test/two_way.py: the serial line as a two-way tool, on QEMU (part of
the trace stage). Host-only checks with a fake target are in
test/host/e2e_capture_io.py; these boot the test image for real:

  keys      stdin (a pipe) through 'qemu-run --capture' reaches the shell:
            its replies, the exit status, a trace that decodes
  exec      --exec drives a traced session (tracer, filter, start, help,
            stop, exit) under multi-threaded TCG: the replies in order,
            exactly the calls made between start and stop in the trace
  pty       on a terminal: the shell answers typed keys, no status line
            mixes with them, Ctrl-] leaves, QEMU is stopped and the
            terminal's settings are back
"""
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "host"))
import e2e_capture_io  # noqa: E402


def qemu_run(h, image, bootargs, bt, extra=()):
    return ["tools/qemu-run", "--image", os.path.join(image, "Image"),
            "--bootargs", bootargs, "--capture", bt] + list(extra)


def fresh(h, name):
    """A trace path with no file from an earlier run at it."""
    bt = os.path.join(h.HOST, name)
    if os.path.exists(bt):
        os.remove(bt)
    return bt


def report(h, image, bt):
    return h.run([os.path.join(h.HOST, "baretrace"), "report", bt,
                  "--elf", os.path.join(image, "baretrace.elf")])


def keys(h, res, tgt):
    bt = fresh(h, "two-way-keys.bt")
    p = subprocess.Popen(qemu_run(h, tgt, "panic=poweroff shell trace=function "
                                  "trace_filter=tt_* -- golden", bt),
                         cwd=h.ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True)
    try:
        out, _ = p.communicate(b"help\ndump\nexit 3\n", timeout=h.QEMU_TIMEOUT)
    except subprocess.TimeoutExpired:
        e2e_capture_io.stop(p)  # SIGTERM: capture stops QEMU
        out, _ = p.communicate()
    out = out.decode(errors="replace").replace("\r", "")
    rst, rep = report(h, tgt, bt)
    res.record("two-way: keys on capture's stdin reach the shell: 'help', 'dump', 'exit 3' "
               "answered, status 3, the trace decodes",
               p.returncode == 3 and re.search(r"^bt> help\n  \w+ ", out, re.M) and
               re.search(r"^\[000\] \d+\.\d{6}: tt_alpha <-scenario_golden$", out, re.M) and
               re.search(r"^bt> exit 3\n", out, re.M) and rst == 0 and
               re.search(r"^\[000\] \d+\.\d+: tt_alpha <-scenario_golden$", rep, re.M),
               out[-2500:] + f"\nstatus {p.returncode}, report {rst}\n{rep[-800:]}")


def execute(h, res, tgt):
    bt = fresh(h, "two-way-exec.bt")
    cmd = qemu_run(h, tgt, "panic=poweroff shell -- golden", bt,
                   ["--exec", "tracer function; filter cmd_help shell_exec",
                    "--exec", "start; tracer; help; stop", "--exec", "exit 6",
                    "--qemu-flags", "-accel tcg,thread=multi"])
    st, out = h.run(cmd, timeout=h.QEMU_TIMEOUT)
    out = out.replace("\r", "")
    rst, rep = report(h, tgt, bt)
    order = re.findall(r"^bt> (.*)$", out, re.M)
    calls = re.findall(r"^\[\d{3}\] \d+\.\d+: (\w+ <-\w+)$", rep, re.M)
    res.record("two-way: --exec drives a traced session under -accel tcg,thread=multi: each "
               "command at its prompt, the replies, status 6",
               st == 6 and order == ["tracer function", "filter cmd_help shell_exec", "start",
                                     "tracer", "help", "stop", "exit 6"] and
               re.search(r"^bt> tracer\ntracer: function \(on\)$", out, re.M),
               out[-2500:] + f"\nstatus {st}, prompts {order}")
    # shell_exec runs for 'tracer', 'help' and 'stop' (patched after
    # 'start' entered it); cmd_help once.
    res.record("two-way: the --exec session's trace holds exactly the calls made between "
               "start and stop",
               rst == 0 and calls == ["shell_exec <-shell_run", "shell_exec <-shell_run",
                                      "cmd_help <-shell_exec", "shell_exec <-shell_run"],
               f"report {rst}, calls {calls}\n{rep[-1500:]}")


def terminal(h, res, tgt):
    bt = fresh(h, "two-way-pty.bt")
    t = e2e_capture_io.Pty(qemu_run(h, tgt, "panic=poweroff shell -- golden", bt), cwd=h.ROOT)
    prompt = t.read_until(b"bt> ", h.QEMU_TIMEOUT)
    raw = t.raw_now()
    t.type(b"help\r")
    # (the terminal adds a '\r' to the target's "\r\n")
    answered = t.read_until(b"  help ") and t.read_until(b"\nbt> ")
    t0 = time.time()
    t.type(b"\x1d")
    st = t.wait(h.QEMU_TIMEOUT)
    took = time.time() - t0
    text = t.text().replace("\r", "")
    res.record("two-way: on a terminal the shell answers typed keys (no status line mixed "
               "in); Ctrl-] stops QEMU at once, the terminal's settings are back",
               prompt and raw and answered and st == 0 and took < 10 and
               "(left with Ctrl-])" in text and "[capture " not in text and t.restored(),
               text[-2000:] + f"\nprompt {prompt}, raw {raw}, answered {answered}, "
               f"status {st} after {took:.1f} s, restored {t.restored()}")
    t.close()


def stage(h, res, tgt):
    keys(h, res, tgt)
    execute(h, res, tgt)
    terminal(h, res, tgt)
