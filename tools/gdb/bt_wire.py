"""tools/gdb/bt_wire.py: the baretrace wire format (docs/wire.md) in plain
Python, for the gdb extension (tools/gdb/baretrace.py): frames and the
.bt file to write, and the records of a data block to read. No gdb in
here, so it also runs on its own.

The numbers below are wire/wire.h's; test/gdb_check.py checks that they
still are.
"""
import zlib

VERSION = 5                     # WIRE_VERSION
BT_MAGIC = b"BTRACE\0\1"        # docs/wire.md 3

FRAME_DATA, FRAME_META, FRAME_SYMS, FRAME_END = 1, 2, 3, 4

META_VERSION, META_FREQ, META_NCPUS, META_IMAGE_HASH = 1, 2, 3, 4
META_NSITES, META_TEXT_BASE, META_EVENT_SCHEMA, META_FORMAT = 5, 6, 7, 8

REC_FUNC, REC_FUNC_CALLER, REC_EXIT, REC_GRAPH_ENTRY = 0, 1, 2, 3
REC_EVENT, REC_PRINTF, REC_LOST, REC_EXT = 4, 5, 6, 7
KIND_RETURN = 6                 # version 5: on the wire, kind 6 is a return
EXT_LOST = 7                    # and lost events are kind 7 subtype 7

DELTA_ESCAPE = 31
CALLER_SLOTS = 256              # WIRE_CALLER_CACHE: a block's caller slots
EXIT_HAS_RETVAL = 0x01
FIELD_S8, FIELD_PTR, FIELD_STRING = 5, 9, 10     # 1-4 unsigned, 5-8 signed

# A frame body the target's exporter would send at most (export_int.h:
# EXPORT_PAYLOAD_MAX); metadata and symbols are split to stay under it.
BODY_MAX = 1024 + 64


# ---- integers and CRC ------------------------------------------------------

def varint(v):
    """Unsigned LEB128."""
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def get_varint(buf, pos):
    """(value, next position); ValueError if cut short or over 10 bytes."""
    v = shift = 0
    for i in range(10):
        if pos + i >= len(buf):
            break
        b = buf[pos + i]
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, pos + i + 1
    raise ValueError("bad varint")


def zigzag(v):
    return ((v << 1) ^ (v >> 63)) & (2**64 - 1)


def unzigzag(u):
    return (u >> 1) ^ -(u & 1)


def string(b):
    """A wire string: varint length, then the bytes."""
    return varint(len(b)) + b


def crc32(data):
    """CRC-32 as wire_crc32(0, ...): zlib's is the same IEEE 802.3 one."""
    return zlib.crc32(data) & 0xFFFFFFFF


# ---- frames and the .bt file ------------------------------------------------

def frame(ftype, cpu, seq, body):
    """A whole unescaped payload (docs/wire.md 2): head, body, CRC."""
    head = bytes([ftype, cpu]) + varint(seq) + varint(len(body))
    payload = head + bytes(body)
    return payload + crc32(payload).to_bytes(4, "little")


def bt_file(payloads):
    """The trace file (docs/wire.md 3): magic, then each payload after
    its u32 LE length."""
    out = bytearray(BT_MAGIC)
    for p in payloads:
        out += len(p).to_bytes(4, "little") + p
    return bytes(out)


def split_items(first, items, limit=BODY_MAX):
    """Bodies holding 'first' and then the items in order, each item
    whole in one body (docs/wire.md 2.9)."""
    bodies, cur = [], bytearray(first)
    for it in items:
        if len(cur) + len(it) > limit and cur:
            bodies.append(bytes(cur))
            cur = bytearray()
        cur += it
    if cur or not bodies:
        bodies.append(bytes(cur))
    return bodies


class SymState:
    """A symbol dump frame's entries, each coded against the one before
    (docs/wire.md 2.3, version 4): gap from its end (zigzag), size, the
    bytes its name shares with the previous name, the rest."""

    def __init__(self):
        self.end, self.name = 0, b""

    def entry(self, off, size, name):
        shared = 0
        while shared < min(len(self.name), len(name), 255) and self.name[shared] == name[shared]:
            shared += 1
        gap = off - self.end
        out = varint(zigzag(gap)) + varint(size)
        out += bytes([shared]) + string(name[shared:])
        self.end, self.name = off + size, name[:255]
        return out


def data_body(base_ts, first, records):
    """A data block body (docs/wire.md 2.1)."""
    return varint(base_ts) + varint(first) + bytes(records)


def end_body(totals):
    """End of stream (docs/wire.md 2.4): totals is a list of (cpu,
    produced, overwritten, dropped, discarded, blocks)."""
    out = bytearray(varint(len(totals)))
    for entry in totals:
        for v in entry:
            out += varint(v)
    return bytes(out)


# ---- records of a data block --------------------------------------------------

def decode_records(data, base_ts, event_types=None):
    """Yields the records of a block's data (after base_ts and first) as
    dicts: kind, ts and the kind's fields (docs/wire.md 2.1). A kind-0
    record names a caller slot: the site and caller of the block's last
    kind 1 in that slot (site % CALLER_SLOTS, version 4). Stops
    with a record {'kind': None, 'error': text} at a malformed one.
    event_types(id) gives a tracepoint's field types, or None."""
    pos, ts, callers, open_entries = 0, base_ts, {}, []
    while pos < len(data):
        start = pos
        try:
            head = data[pos]
            pos += 1
            kind, delta = head >> 5, head & 31
            if delta == DELTA_ESCAPE:
                delta, pos = get_varint(data, pos)
            ts += delta
            r = {"kind": kind, "ts": ts}
            if kind == KIND_RETURN:
                # A return (version 5): the exit of the innermost open
                # graph entry of the block, which gives its site and start.
                if not open_entries:
                    raise ValueError("a return with no open graph entry")
                site, start_ts = open_entries.pop()
                yield {"kind": REC_EXIT, "ts": ts, "site": site,
                       "duration": ts - start_ts, "flags": 0}
                continue
            if kind == REC_FUNC_CALLER:
                r["site"], pos = get_varint(data, pos)
            elif kind in (REC_EXIT, REC_GRAPH_ENTRY):
                if pos + 2 > len(data):
                    raise IndexError("site past the block")
                r["site"] = data[pos] | data[pos + 1] << 8
                pos += 2
            if kind == REC_FUNC_CALLER:
                r["caller"], pos = get_varint(data, pos)
                callers[r["site"] % CALLER_SLOTS] = (r["site"], r["caller"])
            elif kind == REC_FUNC:
                slot = data[pos]
                pos += 1
                if slot not in callers:
                    raise ValueError(f"kind 0 names caller slot {slot}, which no kind 1 filled")
                r["site"], r["caller"] = callers[slot]
            elif kind == REC_EXIT:
                r["duration"], pos = get_varint(data, pos)
                r["flags"] = data[pos]
                pos += 1
                if r["flags"] & EXIT_HAS_RETVAL:
                    v, pos = get_varint(data, pos)
                    r["retval"] = unzigzag(v)
            elif kind == REC_GRAPH_ENTRY:
                r["depth"], pos = get_varint(data, pos)
                open_entries.append((r["site"], ts))
            elif kind == REC_EVENT:
                r["id"], pos = get_varint(data, pos)
                types = event_types(r["id"]) if event_types else None
                if types is None:
                    raise ValueError(f"tracepoint {r['id']} has no known schema")
                r["fields"] = []
                for t in types:
                    v, pos = get_varint(data, pos)
                    if t == FIELD_STRING:
                        if pos + v > len(data):
                            raise ValueError("string past the block")
                        r["fields"].append(bytes(data[pos:pos + v]).decode(errors="replace"))
                        pos += v
                    else:
                        r["fields"].append(unzigzag(v))
            elif kind == REC_PRINTF:
                r["id"], pos = get_varint(data, pos)
                n = data[pos]
                pos += 1
                r["args"] = []
                for _ in range(n):
                    v, pos = get_varint(data, pos)
                    r["args"].append(unzigzag(v))
            elif kind == REC_EXT:
                r["subtype"] = data[pos]
                n, pos = get_varint(data, pos + 1)
                r["bytes"] = bytes(data[pos:pos + n])
                pos += n
                if r["subtype"] == EXT_LOST:
                    r = {"kind": REC_LOST, "ts": ts, "count": get_varint(r["bytes"], 0)[0]}
            if pos > len(data):
                raise ValueError("record past the block")
        except (IndexError, ValueError) as e:
            yield {"kind": None, "ts": ts, "error": f"at byte {start}: {e}"}
            return
        yield r
