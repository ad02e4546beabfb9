"""test/outcomes.py: the 'outcome' stage: how a run ended, told apart
(issue 25; kernel/report/outcome.h, docs/running.md "How a run ends").

Each scenario boots APP=test/target under tools/qemu-run with a capture
and --status, and checks four things the code under test produced:

  - the console's final line, "baretrace: exit status CODE (WORD)";
  - qemu-run's exit code and the line --status wrote ("WORD CODE");
  - the outcome record (extension subtype 4, docs/wire.md 2.6) in the
    captured stream, in the ring of the CPU the report names (read here
    from the .bt file itself, apart from the host tool);
  - the end-of-stream frame's outcome (docs/wire.md 2.4).

  crash      'crash null': crash 139, on CPU 0; its dump words the
             argument, trigger, stack and outcome records as report does
  panic      'panic': panic 134 and a report headed "panic"
  lockup     a CPU masked 30 s with lockup_ms=1000: hang 124 after the
             report, on the CPU that noticed (the run ends at the report,
             long before the 30 s; with 4 s the check failed once on a
             loaded host: the report prints about 2,400 lines, which in
             host time can outlast the 3 s left) (lockup_action=continue
             keeps the run going: test/hang_scenarios.py)
  watchdog   watchdog=2 on 'hang': hang 124 on the CPU that noticed
  wdreset    watchdog=1,reset: watchdog 137, the capture ends at the
             end-of-stream frame; without a capture the next boot says
             the previous one ended by a watchdog reset
  interrupt  SIGINT to qemu-run's process group (as a terminal's Ctrl-C):
             interrupt 130
  timeout    --timeout 2 on 'hang': hang 124
  no answer  --timeout 2 on 'gdbhang' (CPU 0, which takes the console's
             interrupt, spins masked): the host ends the run 10 s later
             with its own final line, hang 124, and no end-of-stream frame
  make run   crash and TIMEOUT=: build/run/status, make's message with the
             word, every output file; a short trace shown whole
  negative   test/apps/exit's main() returning -1 and 256: 'exit -1' and
             'exit 256' (never 'unknown'), qemu-run exiting 255 and 1 (a
             process exit code is 0..255; a failing main() never exits
             0), the end-of-stream frame's status; make run's message
  lockexit   main() returns while a lockup report runs on another CPU:
             hang 124, and the run ends (under -icount and mttcg)
  ICOUNT=1   a CPU-bound main() under -icount, untraced and with each
             tracer: every CPU takes its ticks, no false lockup
             (test/icount_busy.py)
"""
import os
import re
import signal
import threading
import time

import icount_busy
from outcome_run import boot, check, make_run, popen, read_outcomes

TRACE = "trace=function trace_filter=tt_*,hang_*,crash_*,scenario_* trace_buf=4K"
def check_negative(h, res, board):
    """main()'s status is an int: -1 and 256 are exit statuses like any
    other (docs/running.md), not 'unknown'; the exit code is the status
    modulo 256, 1 when that would be 0."""
    st, out = h.run(["make", "-s", f"BOARD={board}", "APP=test/apps/exit"])
    if st != 0:
        res.record("outcome: make APP=test/apps/exit", False, out)
        return
    app = h.make_dir(board, "test/apps/exit")
    for status, code in ((-1, 255), (256, 1)):
        rc, out, line, bt = boot(h, app, f"panic=poweroff trace=function -- {status}",
                                 f"exit{status}")
        console = h.strip_frames(out)
        lines = re.findall(r"^baretrace: exit status .*$", console, re.M)
        try:
            _, end = read_outcomes(bt) if os.path.exists(bt) else ([], None)
        except (ValueError, IndexError) as e:
            end = str(e)
        res.record(f"outcome: main() returning {status}: final line 'baretrace: exit status "
                   f"{status}', --status 'exit {status}', qemu-run exits {code}, the "
                   f"end-of-stream frame says exit {status}",
                   lines[-1:] == [f"baretrace: exit status {status}"] and line == f"exit {status}"
                   and rc == code and end == (0, status),
                   console[-1500:] + f"\nfinal lines {lines}, --status {line!r}, rc {rc}, "
                   f"end-of-stream {end}")
    rc, out, status, files = make_run(h, board, "negative", ["TRACE=", "BOOTARGS=-- -1"],
                                      app="test/apps/exit")
    res.record("outcome: make run of a main() returning -1: build/run/status 'exit -1', make "
               "says exit status -1 and fails with Error 255",
               status == "exit -1" and rc != 0
               and re.search(r"^make run: exit status -1 \(main\(\)'s status, in \S+/status; "
                             r"exit code 255\)$", out, re.M)
               and re.search(r"^make(?:\[\d+\])?: \*\*\* \[\S+: run\] Error 255$", out, re.M),
               out[-2500:] + f"\nrc {rc}, status {status!r}")


def check_dump_words(h, res, tgt, pa):
    """The crash report's dump words extension records as report does:
    the first two argument registers of crash_null_deref (its pointer,
    test/target/scenarios.c's UNMAPPED_ADDR), a stacktrace trigger's
    action and frames, and the outcome, never "record kind 7"."""
    rc, out, status, bt = boot(h, tgt, f"{pa} trace_args=crash_null_deref:2 "
                               "trace_trigger=crash_caller:stacktrace -- crash null", "crashext")
    console = h.strip_frames(out)
    dump = console[console.find("==== baretrace crash"):]
    want = [r"^\[000\] \d+\.\d{6}: args of crash_null_deref: 0x1000 0x[0-9a-f]+$",
            r"^\[000\] \d+\.\d{6}: trigger stacktrace on crash_caller$",
            r"^\[000\] \d+\.\d{6}: <stack trace>\n => scenario_crash\n => main$",
            r"^\[000\] \d+\.\d{6}: ==== run ended: crash ====$"]
    missing = [w for w in want if not re.search(w, dump, re.M)]
    res.record("outcome: the crash dump words arguments, a trigger, its stack trace and the "
               "run's end as report does (no 'record kind 7')",
               status == "crash 139" and not missing and "record kind" not in dump,
               f"status {status!r}; missing {missing}\n{dump[-2500:]}")


def stage_outcome(h, res, board):
    if board != "qemu-virt":
        return
    for cmd in (["make", f"BOARD={board}", "APP=test/target"],
                ["make", "-s", f"BOARD={board}", "host-tools"]):
        st, out = h.run(cmd)
        if st != 0:
            res.record(f"outcome: {' '.join(cmd)}", False, out)
            return
    tgt = h.make_dir(board, "test/target")
    pa = "panic=poweroff " + TRACE

    check(h, res, "a crash ends with crash 139, its record on the crashing CPU",
          boot(h, tgt, f"{pa} -- crash null", "crash"), "crash", 139,
          r"^==== baretrace crash on CPU (\d+): ")
    check_dump_words(h, res, tgt, pa)
    console = check(h, res, "a panic ends with panic 134, its record on the panicking CPU",
                    boot(h, tgt, f"{pa} -- panic", "panic"), "panic", 134,
                    r"^==== baretrace panic on CPU (\d+): test: panic on purpose, 7 ====$")
    res.record("outcome: a panic's report says panic, not crash",
               "==== end of panic report ====" in console and "baretrace crash" not in console,
               console[-2000:])
    console = check(h, res, "a lockup ends the run as a hang 124 after its report, the "
                    "record on the CPU that noticed",
                    boot(h, tgt, f"{pa} lockup_ms=1000 -- lockup 2 30000", "lockup"), "hang",
                    124, r"^==== baretrace lockup: CPU 2 took no timer tick for \d+ ms "
                    r"\(noticed by CPU (\d+)\) ====$")
    res.record("outcome: the lockup report says the run ends, and it does",
               re.search(r"^==== end of lockup report: the run ends \(hang; "
                         r"lockup_action=continue goes on\) ====$", console, re.M)
               and "lockup: CPU 2 back after" not in console, console[-2000:])
    check(h, res, "watchdog=2 on a hung main() ends with hang 124 after a report of "
          "every CPU", boot(h, tgt, f"{pa} watchdog=2 -- hang", "watchdog"), "hang", 124,
          r"^==== baretrace watchdog on CPU (\d+): no end within watchdog=2 s; "
          r"registers of 4 CPUs ====$")
    run = boot(h, tgt, f"{pa} watchdog=1,reset -- hang", "wdreset")
    console = check(h, res, "watchdog=1,reset ends with watchdog 137, and the capture ends "
                    "at its end-of-stream frame", run, "watchdog", 137,
                    r"^==== baretrace watchdog on CPU (\d+): ")
    res.record("outcome: a watchdog reset's capture stops before the board reboots",
               len(re.findall(r"^baretrace: main\(\) after", console, re.M)) == 1
               and re.search(r"^==== end of watchdog report: the run ends \(watchdog reset\) "
                             r"====$", console, re.M), console[-2000:])
    check_reboot(h, res, tgt)
    check(h, res, "SIGINT (Ctrl-C) to qemu-run's group ends with interrupt 130 after a "
          "report", boot(h, tgt, f"{pa} -- hang", "interrupt", interrupt_after=1.0),
          "interrupt", 130, r"^==== baretrace interrupt on CPU (\d+): the host asked the run "
          r"to end \(end request\); registers of 4 CPUs ====$")
    check(h, res, "--timeout 2 on a hung main() ends with hang 124",
          boot(h, tgt, f"{pa} -- hang", "timeout", ["--timeout", "2"]), "hang", 124,
          r"^==== baretrace hang on CPU (\d+): the host's time limit passed")
    run = boot(h, tgt, f"{pa} lockup_ms=0 -- gdbhang", "noanswer",
               ["--timeout", "2"])
    console = check(h, res, "a target that does not answer the end request: the host ends "
                    "the run with hang 124 and says so", run, "hang", 124, end_frame=False)
    res.record("outcome: the host's ending is said, and the capture's file is kept",
               re.search(r"^baretrace capture: no end-of-stream frame within 10 s of the end "
                         r"request", console, re.M) and os.path.getsize(run[3]) > 8,
               console[-2000:])
    check_lockexit(h, res, tgt, pa)
    check_ctrl_c(h, res, tgt)
    check_make_run(h, res, board)
    check_negative(h, res, board)
    icount_busy.check(h, res, tgt)
    rc, out = h.run(["tools/qemu-run", "--help"])
    res.record("outcome: qemu-run --help prints its usage and exits 0",
               rc == 0 and "--status FILE" in out and "unknown option" not in out, out)


def check_lockexit(h, res, tgt, pa):
    """main() returns while a lockup report runs on another CPU (issue
    39): the report stopped the CPU already ending the run, then found
    the end taken and stopped too, and the run never ended. Under -icount
    the same interleaving every time; also multi-threaded TCG."""
    for mode, flags in (("icount", "-icount shift=4,sleep=off"),
                        ("mttcg", "-accel tcg,thread=multi")):
        console = check(h, res, f"main() returning during a lockup report [{mode}]: the run "
                        "ends, as the hang the report marked first",
                        # --timeout: a run that never ends is ended by the
                        # host (no end-of-stream frame: a failure), not left
                        boot(h, tgt, f"{pa} lockup_ms=1000 -- lockexit", f"lockexit-{mode}",
                             ["--qemu-flags", flags, "--timeout", "60"]), "hang", 124,
                        r"^==== baretrace lockup: CPU 2 took no timer tick for \d+ ms "
                        r"\(noticed by CPU (\d+)\) ====$")
        res.record(f"outcome: lockexit [{mode}]: main returned during the report",
                   "lockexit: a lockup report has begun; main returns" in console,
                   console[-1500:])


def check_ctrl_c(h, res, tgt):
    """Ctrl-C typed on the terminal the capture set raw: the byte 0x03, no
    signal. It must end the run as SIGINT does, not reach the target."""
    import pty
    stf = os.path.join(h.HOST, "outcome-ctrlc.status")
    if os.path.exists(stf):
        os.remove(stf)
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(h.ROOT)
        os.execvp("tools/qemu-run", ["tools/qemu-run", "--image", os.path.join(tgt, "Image"),
                                     "--bootargs", "panic=poweroff " + TRACE + " -- hang",
                                     "--capture", os.path.join(h.HOST, "outcome-ctrlc.bt"),
                                     "--status", stf])
    text, sent, deadline = b"", False, time.time() + h.QEMU_TIMEOUT
    while time.time() < deadline:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        text += chunk
        if not sent and b"main() after" in text:
            time.sleep(1.0)
            os.write(fd, b"\x03")
            sent = True
    if time.time() >= deadline:
        os.kill(pid, signal.SIGKILL)
    _, wst = os.waitpid(pid, 0)
    out = h.strip_frames(text.decode(errors="replace"))
    status = open(stf).read().strip() if os.path.exists(stf) else ""
    res.record("outcome: Ctrl-C typed on the capture's raw terminal ends the run as "
               "interrupt 130", os.WEXITSTATUS(wst) == 130 and status == "interrupt 130"
               and re.search(r"^==== baretrace interrupt on CPU \d+: ", out, re.M),
               out[-2500:] + f"\nwait status {wst}, status {status!r}")


def check_reboot(h, res, tgt):
    """Without a capture QEMU reboots as the board would: the next boot
    says how the last one ended (the persist region's note)."""
    proc = popen(["tools/qemu-run", "--image", os.path.join(tgt, "Image"), "--smp", "4",
                  "--bootargs", "panic=poweroff watchdog=1,reset -- hang"], h)
    text, deadline = b"", time.time() + h.QEMU_TIMEOUT
    timer = threading.Timer(h.QEMU_TIMEOUT, lambda: os.killpg(proc.pid, signal.SIGKILL))
    timer.start()
    for line in iter(proc.stdout.readline, b""):
        text += line
        if b"persist: the previous boot ended by" in line or time.time() > deadline:
            break
    timer.cancel()
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    out = text.decode(errors="replace").replace("\r", "")
    boots = out.split("baretrace: qemu-virt, entered at")
    res.record("outcome: the boot after a watchdog reset says the previous boot ended by a "
               "watchdog reset (and the first boot does not)",
               len(boots) == 3 and "previous boot ended" not in boots[1]
               and re.search(r"^persist: the previous boot ended by a watchdog reset$", boots[2],
                             re.M), out[-2500:])


def check_make_run(h, res, board):
    rc, out, status, files = make_run(h, board, "crash", ["BOOTARGS=-- crash null"])
    want = ["trace.bt", "trace.folded", "trace.json", "trace.txt"]
    res.record("outcome: make run of a crash: build/run/status 'crash 139', make says crash",
               status == "crash 139" and rc != 0 and files == want
               and re.search(r"^make run: crash \(\S+/status: crash 139\)$", out, re.M),
               out[-2500:] + f"\nrc {rc}, status {status!r}, files {files}")
    rc, out, status, files = make_run(h, board, "timeout", ["BOOTARGS=-- hang", "TIMEOUT=4"])
    res.record("outcome: make run TIMEOUT=4 of a hang: 'hang 124', every output file written",
               status == "hang 124" and rc != 0 and files == want
               and re.search(r"^make run: hang \(\S+/status: hang 124\)$", out, re.M),
               out[-2500:] + f"\nrc {rc}, status {status!r}, files {files}")
    rc, out, status, files = make_run(h, board, "short", ["TRACE_FILTER=crash_null_deref",
                                                          "BOOTARGS=-- crash null"])
    m = re.search(r"^---- trace \((\d+) lines; all in \S+trace.txt\) ----$", out, re.M)
    shown = out.split(m.group(0))[1].split("\n\n")[0].strip().splitlines() if m else []
    res.record("outcome: make run shows a short trace whole (no 'first 40 of', no '...') "
               "and prints the ELF it used",
               m and int(m.group(1)) <= 40 and len(shown) == int(m.group(1))
               and "..." not in shown
               and re.search(r"^elf: +\S+/app-test-target/baretrace\.elf \(APP=test/target\)$",
                             out, re.M), out[-2500:])
