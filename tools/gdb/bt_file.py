"""tools/gdb/bt_file.py: the data records of a .bt trace file (docs/wire.md
3), per CPU, each with its place in what that CPU produced: for
baretrace-around (tools/gdb/baretrace.py), which shows what a recorded
run does next on each CPU after the point a rerun stopped at. No gdb in
here.

A data block's 'first' (docs/wire.md 2.1) counts the events its CPU
produced before the block's first record, so record i of the block is
event first + i of that CPU (a lost-events record is no event: it only
says a hole is there, which 'first' already places).
"""
import bt_wire as wire


def frames(blob):
    """(type, cpu, body) of each payload of a .bt file's bytes."""
    if not blob.startswith(wire.BT_MAGIC):
        raise ValueError("not a baretrace trace file (no BTRACE magic)")
    pos = len(wire.BT_MAGIC)
    while pos + 4 <= len(blob):
        n = int.from_bytes(blob[pos:pos + 4], "little")
        p = blob[pos + 4:pos + 4 + n]
        pos += 4 + n
        if len(p) < n or n < 6:
            break
        _, at = wire.get_varint(p, 2)              # seq
        length, at = wire.get_varint(p, at)
        yield p[0], p[1], p[at:at + length]


def events_by_cpu(blob, event_types=None):
    """{cpu: [(event index, record), ...]} in index order, for data
    blocks of this boot (type 1; the previous boot's cannot be rerun)."""
    blocks = {}
    for ftype, cpu, body in frames(blob):
        if ftype != wire.FRAME_DATA:
            continue
        base, at = wire.get_varint(body, 0)
        first, at = wire.get_varint(body, at)
        blocks.setdefault(cpu, []).append((first, base, body[at:]))
    out = {}
    for cpu, bl in blocks.items():
        evs = out.setdefault(cpu, [])
        for first, base, data in sorted(bl, key=lambda b: b[0]):
            i = first
            for r in wire.decode_records(data, base, event_types):
                if r["kind"] == wire.REC_LOST:
                    continue
                evs.append((i, r))
                i += 1
    return out
