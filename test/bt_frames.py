"""test/bt_frames.py: a .bt file's frames, read by the tests themselves
(docs/wire.md 2 and 3), not by the host tool they check."""
import struct


def varint(b, i):
    """(value, index after it) of the unsigned LEB128 at b[i]."""
    v = shift = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7f) << shift
        shift += 7
        if not c & 0x80:
            return v, i


def unzigzag(v):
    return (v >> 1) ^ -(v & 1)


def frames(path):
    """(type, cpu, body) of each frame of the trace file at path, in file
    order. OSError when it cannot be read, ValueError when it is no
    trace file."""
    data = open(path, "rb").read()
    if data[:8] != b"BTRACE\0\1":
        raise ValueError("not a trace file")
    out, i = [], 8
    while i + 4 <= len(data):
        n, = struct.unpack_from("<I", data, i)
        p, i = data[i + 4:i + 4 + n], i + 4 + n
        _, j = varint(p, 2)                     # seq
        ln, j = varint(p, j)
        out.append((p[0], p[1], p[j:j + ln]))
    return out
