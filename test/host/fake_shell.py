#!/usr/bin/env python3
"""test/host/fake_shell.py: a stand-in for QEMU under 'baretrace capture
--qemu', so the two-way line is tested on the host, fast and exactly.

  fake_shell.py LOG [idle]

Writes to stdout what a target writes to its UART: boot text, a damaged
frame whose payload holds "\\r\\nbt> " (console text it is not), then the
shell prompt "bt> " cut in two by a damaged frame. Each line it reads
(ending in '\\r' or '\\n') is echoed byte by byte as it comes (the
capture sends a long --exec command in chunks, each after the echo of
the one before) and answered "you said: REPR" and a
new prompt follows, except:
  hang      no answer ever
  exit N    the stream of e2e_wire.raw_log (frames, an END frame,
            console text) and the end
The end request (docs/serial-line.md: DLE CAN 'i' or 'h'), anywhere,
is answered as a target does: the final line "baretrace: exit status
130 (interrupt)" (or 124 (hang)), the same stream and the end; LOG gets
"END interrupt" (or "END hang").
With 'idle', one second without input also ends it that way.
The capture's mark (DLE CAN 'c', sent at a line that begins "baretrace: "
or "bt> ") is taken out, as a target does. LOG gets one line per command
received, "EARLY" first if bytes other than marks came before the first
real prompt.
"""
import os
import select
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_wire as wire

# Damaged (CRC) frames: the stream decoder drops and counts them.
FAKE = bytearray(wire.escape(wire.payload(1, 0, 0, b"\r\nbt> " * 4)))
FAKE[-2] ^= 0x40
FAKE = bytes(FAKE)
MARK = b"\x10\x18c"                           # the capture's mark


def out(b):
    os.write(1, b)


def main():
    log = open(sys.argv[1], "w", buffering=1)
    idle = "idle" in sys.argv[2:]
    out(b"baretrace: fake target\r\n")
    out(FAKE)                                   # "bt> " inside a frame
    time.sleep(0.4)
    out(b"baretrace shell: 'help' lists the commands\r\nbt")
    time.sleep(0.2)
    out(FAKE)                                   # the prompt cut by a frame
    time.sleep(0.2)
    early, ended = b"", False
    while not ended and select.select([0], [], [], 0)[0]:
        data = os.read(0, 4096)
        early, ended = early + data, not data
    early = early.replace(MARK, b"")
    if early:
        log.write("EARLY\n")
    out(b"> ")
    line, req = b"", b""
    while True:
        if early:
            data, early = early, b""
        elif ended:
            break
        else:
            r = select.select([0], [], [], 1.0 if idle else None)[0]
            if not r:
                break                               # idle: the run ends by itself
            data = os.read(0, 4096)
            if not data:
                break
        for c in data:
            if req or c == 0x10:                # the end request
                req += bytes([c])
                if len(req) == 3 and req[:2] == b"\x10\x18" and req[2:] in (b"i", b"h"):
                    word, code = ("interrupt", 130) if req[2:] == b"i" else ("hang", 124)
                    log.write(f"END {word}\n")
                    out(f"baretrace: exit status {code} ({word})\r\n".encode())
                    raw, _ = wire.raw_log(0x12345678)
                    out(raw)
                    return 0
                if len(req) == 3:
                    req = b""
                continue
            if c not in (0x0d, 0x0a):
                line += bytes([c])
                out(bytes([c]))                 # echoed as typed, as line_edit.c does
                continue
            cmd = line.decode(errors="replace")
            line = b""
            log.write(cmd + "\n")
            out(b"\r\n")
            if cmd == "hang":
                time.sleep(3600)
            if cmd.startswith("exit"):
                raw, _ = wire.raw_log(0x12345678)
                out(raw)
                return 0
            out(b"you said: " + repr(cmd).encode() + b"\r\nbt> ")
    raw, _ = wire.raw_log(0x12345678)
    out(raw)
    return 0


if __name__ == "__main__":
    sys.exit(main())
