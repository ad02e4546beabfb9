"""test/mk_status.py: issue 40 items 4-7: every status file and output of
make run is this run's, and the status file, the exit code and make's
last line say the same (docs/running.md "How a run ends", "Every output
is this run's").

Each make run writes into a RUN_DIR of its own under build/host (not
build/run), and is bounded (TIMEOUT=, then SIGKILL): a case that hangs
fails, it does not hang the stage.

  exec ok     BOOTARGS=shell EXEC='stats; exit 0': the commands run, 'exit 0',
              make succeeds
  build err   after that run, an application (a folder outside the tree)
              with a syntax error: no status file, no trace file is left
  exec fail   EXEC='stats; exit 0' without 'shell' (item 4): the capture
              fails, 'capture 1', Error 1, make's last line says so (it
              said 'exit 0' in the file and exit code 1)
  build ^C    after that run, SIGINT to make while it compiles an
              application (its header a FIFO nobody writes: the compile
              cannot end before the signal): no status, no trace left
  exec, no tracing  TRACE= BOOTARGS=shell EXEC='help; exit 3' (item 6): the
              commands run (it sat at 'bt> '), 'exit 3', Error 3
  ^C untraced SIGINT at the shell prompt of TRACE= BOOTARGS=shell: qemu-run's
              final line, 'interrupt 130', make's report (it was
              'unknown 0' and no report)
  ^C traced   the same captured: the target ends the run, 'interrupt 130'
  run-direct  EXEC= is refused before anything runs (it booted without it)
  qemu-run    printf 'exit 3\\n' | qemu-run --bootargs 'panic=poweroff
              shell' --capture (item 7): exits 3 and writes 'exit 3', as
              the final line says; no "QEMU exited ... before the end" line;
              also under -accel tcg,thread=multi
"""
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time

LIMIT = 240        # seconds a make run may take before it is killed (a failure)


def strip(raw):
    """Console text of raw output: trace frames (STX ... ETX) left out."""
    return re.sub("\x02[^\x03]*\x03", "", raw.decode(errors="replace")).replace("\r", "")


def popen(h, cmd, stdin=subprocess.DEVNULL):
    # SIGINT at its default in the child, whatever the caller's (a
    # harness started in the background ignores it, and so would make).
    return subprocess.Popen(cmd, cwd=h.ROOT, stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def drive(proc, interrupt_on=None, settle=0.5):
    """Reads proc's output to its end; with interrupt_on (a regular
    expression), SIGINT to its group once the console text (frames
    left out) matched it, settle seconds later. Returns (returncode,
    text, interrupted)."""
    out, sent = [], [False]

    def reader():
        while True:
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                return
            out.append(chunk)

    t = threading.Thread(target=reader)
    t.start()
    deadline = time.time() + LIMIT
    while proc.poll() is None and time.time() < deadline:
        if interrupt_on and not sent[0] and re.search(interrupt_on, strip(b"".join(out)), re.M):
            time.sleep(settle)
            os.killpg(proc.pid, signal.SIGINT)
            sent[0] = True
        time.sleep(0.1)
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    t.join()
    return proc.returncode, b"".join(out).decode(errors="replace").replace("\r", ""), sent[0]


def outputs(run_dir):
    """The status line (None without a file) and the trace files there."""
    st = os.path.join(run_dir, "status")
    status = open(st).read().strip() if os.path.exists(st) else None
    files = sorted(f for f in os.listdir(run_dir) if f.startswith("trace.")) \
        if os.path.isdir(run_dir) else []
    return status, files


def make_run(h, board, run_dir, args, interrupt_on=None):
    cmd = ["make", "-s", f"BOARD={board}", f"RUN_DIR={run_dir}"] + args + ["run"]
    rc, out, sent = drive(popen(h, cmd), interrupt_on)
    status, files = outputs(run_dir)
    return rc, out, status, files, sent


def exit_code(status):
    """The exit code a status line stands for (docs/running.md): N modulo
    256 for 'exit N' (1 when that is 0 for a nonzero N), CODE otherwise."""
    m = re.fullmatch(r"([a-z]+) (-?\d+)", status or "")
    if not m:
        return None
    word, n = m.group(1), int(m.group(2))
    if word != "exit":
        return n
    return n % 256 or (1 if n else 0)


def agree(out, run_dir, status):
    """Why make's last line and its Error line do not say what the status
    file says ([] when they do)."""
    why = []
    code = exit_code(status)
    if code is None:
        return [f"status file {status!r} is not 'WORD CODE'"]
    word, n = status.split()
    lines = out.strip().splitlines()
    tail = []          # make's own lines after the recipe's last line
    while lines and re.match(r"make(\[\d+\])?: \*\*\* ", lines[-1]):
        tail.insert(0, lines.pop())
    last = lines[-1] if lines else ""
    st = re.escape(f"{run_dir}/status")
    if code == 0:
        if tail or last.startswith("make run:"):
            why.append(f"a successful run, yet make said {last!r} {tail}")
        return why
    if word == "exit":
        want = rf"make run: exit status {n} \(main\(\)'s status, in {st}" + \
            (r"\)" if int(n) == code else rf"; exit code {code}\)")
    elif word == "capture":
        want = rf"make run: the capture failed \({st}: capture {n}; "
    else:
        want = rf"make run: {word} \({st}: {word} {n}\)"
    if not re.match(want, last):
        why.append(f"the last line {last!r} does not match {want!r}")
    if not any(re.search(rf"\[\S+: run\] (Error {code}|Interrupt)$", t) for t in tail):
        why.append(f"make's lines {tail} carry no 'Error {code}'")
    return why


def check_run(h, res, name, run, run_dir, want_status, more=()):
    rc, out, status, files, _ = run
    why = [] if status == want_status else [f"status {status!r}, wanted {want_status!r}"]
    why += agree(out, run_dir, status) if status else []
    if (rc == 0) != (exit_code(want_status) == 0):
        why.append(f"make exited {rc}")
    why += [w for w in more if w]
    res.record(f"make-status: {name}", not why, out[-2500:] + f"\n{why}")


def left_nothing(h, res, name, run, before):
    rc, out, status, files, _ = run
    why = []
    if before[0] is None or not before[1]:
        why.append(f"no earlier run's outputs to leave behind ({before}): the case proves nothing")
    if rc == 0:
        why.append("make succeeded")
    if status is not None or files:
        why.append(f"left status {status!r} and {files}")
    res.record(f"make-status: {name}", not why, out[-2000:] + f"\nbefore {before}; {why}")


def bad_app(kind):
    """A temporary application outside the tree: a syntax error, or a
    main.c that includes a FIFO (its compile waits for a writer)."""
    d = tempfile.mkdtemp(prefix=f"mk-status-{kind}-")
    with open(os.path.join(d, "main.c"), "w") as f:
        if kind == "syntax":
            f.write("int main(void) { return 0 }\n")
        else:
            f.write('#include "never.h"\nint main(void) { return 0; }\n')
            os.mkfifo(os.path.join(d, "never.h"))
    return d


def forget_app(h, board, app):
    """Removes the folders a temporary application's build made under
    build/ (its output and object folders: paths that name it)."""
    name = os.path.basename(app)
    for var in ("OUT", "APP_OBJS"):
        _, out = h.run(["make", "-s", f"BOARD={board}", f"APP={app}", f"print-{var}"])
        for path in out.split():
            path = os.path.join(h.ROOT, path if var == "OUT" else os.path.dirname(path))
            if name in path and os.path.realpath(path).startswith(os.path.join(h.ROOT, "build")):
                shutil.rmtree(path, ignore_errors=True)
    shutil.rmtree(app, ignore_errors=True)


def qemu_run_exit3(h, board, flags=""):
    """Item 7: 'exit 3' typed into the shell of a run that traces
    nothing, under --capture (no frame, so no end-of-stream frame): the
    exit code, the status file and the final line say 3. (Without
    --capture piped input may arrive before the UART is up and be lost:
    not compared here.)"""
    img = h.make_dir(board, "examples/demo")
    stf = os.path.join(h.HOST, "mk-status-q.status")
    bt = os.path.join(h.HOST, "mk-status-q.bt")
    for f in (stf, bt):
        if os.path.exists(f):
            os.remove(f)
    proc = popen(h, ["tools/qemu-run", "--image", os.path.join(img, "Image"), "--bootargs",
                     "panic=poweroff shell", "--status", stf, "--timeout", "60",
                     "--capture", bt] + (["--qemu-flags", flags] if flags else []),
                 stdin=subprocess.PIPE)
    proc.stdin.write(b"exit 3\n")
    proc.stdin.close()
    rc, out, _ = drive(proc)
    status = open(stf).read().strip() if os.path.exists(stf) else None
    console = h.strip_frames(out)
    why = []
    if rc != 3 or status != "exit 3":
        why.append(f"exit code {rc}, status {status!r}; wanted 3, 'exit 3'")
    if not re.search(r"^bt> exit 3\nbaretrace: exit status 3$", console, re.M):
        why.append("'exit 3' did not reach the shell, or no final line 'exit status 3'")
    if "before the end of the stream" in out:
        why.append("the capture calls the application's status a QEMU failure")
    return why, out[-1500:]


def check(h, res, board):
    if board != "qemu-virt":
        return
    st, out = h.run(["make", "-s", f"BOARD={board}", "all", "host-tools"])
    if st != 0:
        res.record("make-status: make all host-tools", False, out)
        return
    run_dir = os.path.join(h.HOST, "mk-status-run")
    shutil.rmtree(run_dir, ignore_errors=True)

    run = make_run(h, board, run_dir, ["BOOTARGS=shell", "EXEC=stats; exit 0", "TIMEOUT=90"])
    check_run(h, res, "BOOTARGS=shell EXEC='stats; exit 0': the commands run, 'exit 0' in "
              "the status file, make succeeds", run, run_dir, "exit 0",
              ["" if re.search(r"^bt> stats\n(.*\n)*patcher: ", h.strip_frames(run[1]), re.M)
               else "no 'stats' reply"])

    app = bad_app("syntax")
    try:
        before = outputs(run_dir)
        left_nothing(h, res, "a compile error in the application leaves no status and no "
                     "trace of the run before (item 5)",
                     make_run(h, board, run_dir, [f"APP={app}", "TRACE="]), before)
    finally:
        forget_app(h, board, app)

    run = make_run(h, board, run_dir, ["EXEC=stats; exit 0", "TIMEOUT=90"])
    check_run(h, res, "EXEC='stats; exit 0' without a shell: the capture failed, and the "
              "status file, Error 1 and make's last line all say 'capture 1' (item 4)",
              run, run_dir, "capture 1",
              ["" if "--exec: the run ended before the shell prompt" in run[1]
               else "the capture did not say why"])

    app = bad_app("fifo")
    try:
        before = outputs(run_dir)
        run = make_run(h, board, run_dir, [f"APP={app}", "TRACE="], interrupt_on=r" \(app\)$")
        left_nothing(h, res, "a Ctrl-C (SIGINT to make's group) while the application "
                     "compiles leaves no status and no trace of the run before (item 5)",
                     run, before)
    finally:
        forget_app(h, board, app)

    run = make_run(h, board, run_dir, ["TRACE=", "BOOTARGS=shell", "EXEC=help; exit 3",
                                       "TIMEOUT=90"])
    check_run(h, res, "TRACE= BOOTARGS=shell EXEC='help; exit 3': EXEC is captured and "
              "run, 'exit 3', Error 3, make says exit status 3 (item 6)", run, run_dir,
              "exit 3", ["" if re.search(r"^bt> help\n(.*\n)*bt> exit 3$",
                                         h.strip_frames(run[1]), re.M)
                         else "the commands did not run"])

    for name, args in (("TRACE= (not captured)", ["TRACE="]), ("captured", [])):
        run = make_run(h, board, run_dir, args + ["BOOTARGS=shell", "TIMEOUT=90"],
                       interrupt_on=r"^bt> ")
        check_run(h, res, f"{name}: a Ctrl-C (SIGINT to make's group) at the shell prompt "
                  "ends the run as 'interrupt 130', said by the final line and make's "
                  "report (item 6)", run, run_dir, "interrupt 130",
                  ["" if run[4] else "the prompt never came",
                   "" if re.search(r"^baretrace: exit status 130 \(interrupt\)$",
                                   h.strip_frames(run[1]), re.M) else "no final line"])

    st, out = h.run(["make", "-s", f"BOARD={board}", "EXEC=help; exit 3", "run-direct"],
                    timeout=LIMIT)
    res.record("make-status: EXEC= with run-direct (which captures nothing) is refused before "
               "the build, not dropped (item 6)",
               st not in (0, None) and re.search(r"EXEC= goes to the shell through make run's "
                                                  r"capture.*run-direct captures nothing", out)
               and "baretrace: exit status" not in out and "qemu-system" not in out, out[-1500:])

    for mode, flags in (("", ""), (" [mttcg]", "-accel tcg,thread=multi")):
        why, detail = qemu_run_exit3(h, board, flags)
        res.record("make-status: printf 'exit 3\\n' | qemu-run --bootargs 'panic=poweroff "
                   "shell' --capture exits 3 and writes 'exit 3', as the final line says "
                   f"(item 7){mode}", not why, detail + f"\n{why}")
    shutil.rmtree(run_dir, ignore_errors=True)
