"""test/mk_shell.py: issue 40 item 8, the shell's trace commands on a
console nothing captures (make run-direct, a serial terminal).

- run-direct: `make run-direct BOOTARGS=shell`, typing at each prompt
  commands that would start trace frames (a probe on a missing function,
  start, event enable, profile on, coverage on, hist on) between others,
  then `exit 0`: every console byte is text (no frame byte, at the
  refusals or at the end of the run), each starting command is refused
  with the way to run it captured, the shell still answers (help), and
  the run ends with status 0.
- captured: the same commands under `baretrace capture --exec` (tools/
  qemu-run --capture, nothing traced from boot: the frames start only at
  the shell's command; -accel tcg,thread=multi, the mark being set by
  the receive interrupt and read by the shell's CPU) produce trace events
  of the commands run, and no refusal; then the make line the refusal
  suggests, with EXEC=, does too.
"""
import os
import re
import shlex

# Each line typed at a prompt; the ones marked True would start frames.
SESSION = [
    ("probe st=nosuch+8 x1", True),
    ("tracer function", False),
    ("filter cmd_help", False),
    ("start", True),
    ("event enable uart:*", True),
    ("profile on cmd_*", True),
    ("coverage on cmd_*", True),
    ("hist on cmd_help", True),
    ("help", False),
    ("stats", False),
    ("exit 0", False),
]
REFUSED = r"^{}: refused: nothing captures this console, and tracing would send binary trace frames"
CAPTURED_LINE = r"^{0}: run it captured: (make [^(]*? run) \(then type it, or EXEC="


def not_text(raw):
    """Offsets and values of the bytes a terminal would not show as text,
    but the lone ETX the console sends as its first byte at every boot
    (it ends a frame a reset cut, docs/wire.md 1; terminals show nothing)."""
    first = raw.find(b"\x03\r\nbaretrace: ")
    return [(i, b) for i, b in enumerate(raw)
            if not (32 <= b < 127 or b in (9, 10, 13)) and i != first]


def check(h, res, board):
    if board != "qemu-virt":
        return
    st, out = h.run(["make", "-s", f"BOARD={board}", "all", "host-tools"])
    if st:
        res.record("mk_shell: build the demo and the host tools", False, out)
        return
    tool = os.path.join(h.HOST, "baretrace")
    elf = os.path.join(h.ROOT, "build", board, "baretrace.elf")

    # run-direct: a plain terminal.
    st, raw = h.typed_session(["make", "-s", f"BOARD={board}", "run-direct",
                                "BOOTARGS=shell"], [l for l, _ in SESSION])
    text = raw.decode(errors="replace").replace("\r", "")
    bad = not_text(raw)
    res.record("mk_shell: run-direct BOOTARGS=shell: every console byte is text after commands "
               "that would start trace frames and at 'exit 0' (no frame bytes)",
               st == 0 and raw and not bad and "baretrace: exit status 0" in text,
               text[-2000:] + f"\nstatus {st}, {len(raw)} bytes, {len(bad)} not text, "
               f"first at {bad[:3]}")
    want = [l.split()[0] for l, starts in SESSION if starts]
    unrefused = [c for c in want if not re.search(REFUSED.format(c), text, re.M)]
    m = re.search(CAPTURED_LINE.format("start"), text, re.M)
    res.record("mk_shell: run-direct: each command that would start frames is refused with "
               "how to run it captured, and the shell still answers",
               not unrefused and m and re.search(r"^  help +this list$", text, re.M) and
               re.search(r"^patcher: ", text, re.M),
               text[-2500:] + f"\nnot refused: {unrefused}; suggested line: {m and m.group(1)}")

    # Captured: nothing traced from boot, so every frame is the shell's.
    bt = os.path.join(h.HOST, "mk_shell.bt")
    if os.path.exists(bt):
        os.remove(bt)
    cmds = "; ".join(l for l, _ in SESSION)
    st, out = h.run(["tools/qemu-run", "--image", os.path.join(h.ROOT, "build", board, "Image"),
                     "--bootargs", "panic=poweroff shell", "--capture", bt, "--exec", cmds,
                     "--qemu-flags", "-accel tcg,thread=multi"],
                    timeout=h.QEMU_TIMEOUT)
    rst, rep = h.run([tool, "report", bt, "--elf", elf])
    calls = re.findall(r"^\[\d+\] +[\d.]+: cmd_help <-", rep, re.M)
    res.record("mk_shell: the same commands under baretrace capture --exec start the frames: "
               "cmd_help traced once, no refusal",
               st == 0 and rst == 0 and len(calls) == 1 and ": refused: " not in out,
               out[-1500:] + "\n--- report:\n" + rep[-1500:] +
               f"\ncapture status {st}, report status {rst}, cmd_help calls {len(calls)}")

    # The make line the refusal suggests, with EXEC=: captured, traced.
    if not m:
        return
    line = shlex.split(m.group(1))
    status_file = os.path.join(h.ROOT, "build", "run", "status")
    st, out = h.run(line[:1] + ["-s", f"BOARD={board}"] + line[1:-1] +
                    ["EXEC=tracer function; filter cmd_help; start; help; stop; exit 0",
                     "TIMEOUT=120", line[-1]], timeout=h.QEMU_TIMEOUT + 120)
    try:
        with open(os.path.join(h.ROOT, "build", "run", "trace.txt")) as f:
            rep = f.read()
        with open(status_file) as f:
            status = f.read().strip()
    except OSError as e:
        rep, status = "", str(e)
    calls = re.findall(r"^\[\d+\] +[\d.]+: cmd_help <-", rep, re.M)
    res.record(f"mk_shell: the suggested '{m.group(1)}' with EXEC= captures the shell's "
               "trace: cmd_help traced once, exit 0",
               st == 0 and status == "exit 0" and len(calls) == 1 and ": refused: " not in out,
               out[-2000:] +
               f"\nmake status {st}, build/run/status '{status}', cmd_help calls {len(calls)}")
