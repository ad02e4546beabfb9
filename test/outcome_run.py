"""test/outcome_run.py: how the 'outcome' stage (test/outcomes.py) boots a
scenario and judges its end: qemu-run with a capture and --status, or
make run; the console's final line, the exit code, the status file, the
outcome records read from the .bt file itself (docs/wire.md 1-3, apart
from the host tool) and the end-of-stream frame."""
import os
import re
import signal
import subprocess
import threading
import time

from bt_frames import frames, unzigzag, varint

WORDS = ["exit", "crash", "panic", "hang", "watchdog", "interrupt", "refused"]


def read_outcomes(path):
    """The outcome records of a .bt file, [(cpu, outcome, status)], and the
    end-of-stream frame's (outcome, status) or None (no frame, or a body
    without one). Reads docs/wire.md 1-3 itself; a block holding a record
    it cannot size (a tracepoint needs its schema) raises ValueError."""
    recs, end = [], None
    for ftype, cpu, body in frames(path):
        if ftype == 4:                          # end of stream
            k = 0
            ncpu, k = varint(body, k)
            for _ in range(ncpu * 6):
                _, k = varint(body, k)
            if k < len(body):
                st, _ = varint(body, k + 1)
                end = (body[k], unzigzag(st))
            continue
        if ftype != 1:                          # this boot's data blocks only
            continue
        _, k = varint(body, 0)                 # base_ts
        _, k = varint(body, k)                 # first
        while k < len(body):
            kind, dt = body[k] >> 5, body[k] & 31
            k += 1
            if dt == 31:
                _, k = varint(body, k)
            if kind == 0:                       # caller slot (wire.md 2.2)
                k += 1
            elif kind == 6:                     # a return (wire version 5): the header
                pass
            elif kind == 1:
                _, k = varint(body, k)
                _, k = varint(body, k)
            elif kind == 3:                     # site: two bytes, depth
                _, k = varint(body, k + 2)
            elif kind == 2:
                _, k = varint(body, k + 2)
                k += 1
                if body[k - 1] & 1:
                    _, k = varint(body, k)
            elif kind == 5:
                _, k = varint(body, k)
                cnt, k = body[k], k + 1
                for _ in range(cnt):
                    _, k = varint(body, k)
            elif kind == 7:
                sub = body[k]
                ln7, k = varint(body, k + 1)
                if sub == 4:
                    st, _ = varint(body, k + 1)
                    recs.append((cpu, body[k], unzigzag(st)))
                k += ln7
            else:
                raise ValueError(f"CPU {cpu}: kind {kind} needs its schema")
    return recs, end


def popen(cmd, h):
    return subprocess.Popen(cmd, cwd=h.ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)


def boot(h, tgt, bootargs, name, extra=(), interrupt_after=None):
    """qemu-run with a capture into build/host/outcome-NAME.bt and --status;
    with interrupt_after, SIGINT to its process group that many seconds
    after main() starts. Returns (rc or None, output, status line, bt)."""
    bt = os.path.join(h.HOST, f"outcome-{name}.bt")
    stf = os.path.join(h.HOST, f"outcome-{name}.status")
    for f in (bt, stf):
        if os.path.exists(f):
            os.remove(f)
    cmd = ["tools/qemu-run", "--image", os.path.join(tgt, "Image"), "--smp", "4",
           "--bootargs", bootargs, "--capture", bt, "--status", stf] + list(extra)
    proc = popen(cmd, h)
    out = []
    reader = threading.Thread(target=lambda: out.extend(iter(proc.stdout.readline, b"")))
    reader.start()
    deadline = time.time() + h.QEMU_TIMEOUT
    sent = False
    while proc.poll() is None and time.time() < deadline:
        if interrupt_after is not None and not sent and any(b"main() after" in l for l in out):
            time.sleep(interrupt_after)
            os.killpg(proc.pid, signal.SIGINT)
            sent = True
        time.sleep(0.1)
    rc = proc.poll()
    if rc is None:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    reader.join()
    text = b"".join(out).decode(errors="replace").replace("\r", "")
    status = open(stf).read().strip() if os.path.exists(stf) else ""
    return rc, text, status, bt


def check(h, res, name, run, word, code, who=None, end_frame=True, final=None):
    """Final line, exit code, --status, the record on the reporting CPU
    (the number after 'on CPU' in the line matching 'who'), the END frame."""
    rc, out, status, bt = run
    console = h.strip_frames(out)
    why = []
    want = final or f"baretrace: exit status {code} ({word})"
    lines = re.findall(r"baretrace: exit status -?\d+.*$", console, re.M)
    if not lines or lines[-1] != want:
        why.append(f"final line {lines[-1:]} , wanted {want!r}")
    if rc != code:
        why.append(f"qemu-run exited {rc}, wanted {code}")
    if status != f"{word} {code}":
        why.append(f"--status wrote {status!r}, wanted '{word} {code}'")
    try:
        recs, end = read_outcomes(bt) if os.path.exists(bt) else ([], None)
    except (ValueError, IndexError) as e:
        recs, end = [], None
        why.append(f"{bt}: {e}")
    o = WORDS.index(word)
    if who:
        m = re.search(who, console, re.M)
        cpu = int(m.group(1)) if m else None
        if cpu is None:
            why.append(f"no report line {who!r}")
        elif recs != [(cpu, o, 0)]:
            why.append(f"outcome records {recs}, wanted [({cpu}, {o}, 0)] (CPU {cpu}'s ring)")
    if end_frame and end != (o, 0):
        why.append(f"end-of-stream outcome {end}, wanted ({o}, 0)")
    if not end_frame and end is not None:
        why.append(f"an end-of-stream frame {end}, wanted none (the host ended the run)")
    # why first too: a long console tail pushes it out of a cut report
    res.record(f"outcome: {name}", not why, f"{why}\n" + console[-2500:] + f"\n{why}")
    return console


def make_run(h, board, name, args, interrupt_after=None, app="test/target"):
    run_dir = os.path.join(h.HOST, f"outcome-run-{name}")
    cmd = ["make", "-s", f"BOARD={board}", f"APP={app}", f"RUN_DIR={run_dir}"] + args + ["run"]
    proc = popen(cmd, h)
    try:
        out, _ = proc.communicate(timeout=h.QEMU_TIMEOUT * 2)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
    st = os.path.join(run_dir, "status")
    files = sorted(f for f in os.listdir(run_dir) if f.startswith("trace.")) \
        if os.path.isdir(run_dir) else []
    return (proc.returncode, out.decode(errors="replace").replace("\r", ""),
            open(st).read().strip() if os.path.exists(st) else "", files)
