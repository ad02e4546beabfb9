#!/usr/bin/env python3
"""test/fuzz/mkseeds_prev.py: writes the seeds in corpus/prev/ for
test/fuzz/fuzz_prev.c, in its input format (see that file): a region as
a real boot leaves it, one torn by a reset at awkward moments, and
headers that must be refused. Offsets are from the start of ring memory
(8 blocks a half), so the seeds do not depend on sizeof(struct
ring_cpu). Rerun after editing:
    python3 test/fuzz/mkseeds_prev.py
"""
import os
import struct

NR_CPUS = 8
BLOCK = 1024
DATA = 40                       # offsetof(struct ring_block, data)
RINGS_OFF, BOOT = 56, 40        # header field offsets (prev_int.h)


def header_mask(**fields):
    """80 bytes XORed into the good header: field=(offset, bytes, xor)."""
    m = bytearray(80)
    for off, size, x in fields.values():
        m[off:off + size] = (int.from_bytes(m[off:off + size], "little") ^ x).to_bytes(size, "little")
    return bytes(m)


def ptr(off):
    return 0 if off is None else off + 1


def ring(mem=None, cur=None, wr=None, seq_base=0, wr_seq=0, nblocks=0, cur_events=0,
         started=0, stored=0, dropped=0, overwritten=0, discarded=0, exported=0):
    return struct.pack("<QQQQQIIBQQQQQ", ptr(mem), ptr(cur), ptr(wr), seq_base, wr_seq,
                       nblocks, cur_events, started, stored, dropped, overwritten,
                       discarded, exported)


def block(index, seq, data, events, ts=1000, first=0):
    return struct.pack("<BQQQII", index, seq, ts, first, len(data), events) + data


def rings(*given):
    out = b"".join(given)
    return out + ring() * (NR_CPUS - len(given))


def seed(flags, mask, ring_bytes, blocks=b""):
    return bytes([flags]) + mask + ring_bytes + blocks


def records(n, first=0):
    """n function records as the ring holds them: header byte, site."""
    return bytes(b for i in range(n) for b in (0x20 | (i & 31), (first + i) & 0x7f))


GOOD = header_mask()
# CPU 0: 4 blocks at the start of half 0, blocks 2..4 complete, 5 open
# (10 bytes written); CPU 1: 4 blocks after them, block 0 complete, 1 open.
cpu0 = ring(mem=0, cur=1 * BLOCK, wr=1 * BLOCK + DATA + 10, seq_base=0, wr_seq=5,
            nblocks=4, cur_events=5, started=1, stored=40, overwritten=16, exported=8)
cpu1 = ring(mem=4 * BLOCK, cur=5 * BLOCK, wr=5 * BLOCK + DATA + 4, seq_base=0, wr_seq=1,
            nblocks=4, cur_events=2, started=1, stored=6)
live_blocks = (block(2, 2, records(8), 8, first=16) + block(3, 3, records(8), 8, first=24) +
               block(0, 4, records(8), 8, first=32) + block(1, 5, records(5), 5, first=40) +
               block(4, 0, records(6), 6) + block(5, 1, records(2), 2, first=6))
SEEDS = {
    "cold-empty": seed(0, GOOD, rings()),
    "live": seed(0, GOOD, rings(cpu0, cpu1), live_blocks),
    # The writer switched blocks but its position is still in the old one.
    "torn-switch": seed(0, GOOD, rings(ring(mem=8 * BLOCK, cur=9 * BLOCK, wr=8 * BLOCK + DATA + 6,
                                            seq_base=0, wr_seq=1, nblocks=2, started=1,
                                            stored=3, cur_events=0)),
                        block(8, 0, records(3), 3) + block(9, 1, b"", 0)),
    # A swap to new memory half done: seq_base already past wr_seq.
    "torn-swap": seed(0, GOOD, rings(ring(mem=0, seq_base=7, wr_seq=6, nblocks=4, started=1,
                                          stored=9, exported=9))),
    "heap-rings": seed(0, GOOD, rings(ring(mem=1 << 40, cur=(1 << 40) + BLOCK, wr_seq=3,
                                           nblocks=4, started=1, stored=3, cur_events=1))),
    "rings-off-1tib": seed(0, header_mask(r=(RINGS_OFF, 8, (1 << 40) ^ 0x1000)),
                           rings(cpu0, cpu1), live_blocks),
    "bad-crc": seed(1, header_mask(b=(BOOT, 8, 0x100)), rings(cpu0)),
    "bad-books": seed(0, GOOD, rings(ring(mem=0, wr_seq=1, nblocks=4, started=1,
                                          stored=3, exported=4))),
}

if __name__ == "__main__":
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "corpus", "prev")
    os.makedirs(out, exist_ok=True)
    for name, data in SEEDS.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
