"""test/host/e2e_wire.py: a trace written by hand for the host tool's end-to-end
tests: an encoder of docs/wire.md written apart from wire/wire.c (so the
two check each other), small aarch64 ELF files with a .bt_tables section
(kernel/report/tables.h layout), and the standard raw serial log that
e2e_baretrace.py and the other e2e_*.py read (e2e_baretrace.py's
docstring says what it holds).
"""
import struct
import zlib

# ---- wire encoding (docs/wire.md) ------------------------------------------


def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def zigzag(v):
    return (v << 1) ^ (v >> 63) if v >= 0 else ((v << 1) ^ -1) & (2**64 - 1)


def string(s):
    b = s.encode() if isinstance(s, str) else s
    return varint(len(b)) + b


def rec(kind, delta, *fields):
    head = bytes([kind << 5 | delta]) if delta < 31 else bytes([kind << 5 | 31]) + varint(delta)
    return head + b"".join(fields)


def ext(delta, subtype, body):
    """A kind-7 extension record (docs/wire.md 2.6)."""
    return rec(7, delta, bytes([subtype]), varint(len(body)), body)


def ext_args(delta, site, *args):
    return ext(delta, 1, varint(site) + bytes([len(args)]) + b"".join(varint(zigzag(a)) for a in args))


def ext_stack(delta, *return_offsets):
    """Return addresses as offsets from _text, innermost first."""
    return ext(delta, 2, bytes([len(return_offsets)]) + b"".join(varint(r // 4) for r in return_offsets))


def ext_trigger(delta, site, action):
    return ext(delta, 3, varint(site) + bytes([action]))


def profile_body(entries):
    """A profile dump body (2.5): entries of (site, calls, total, min, max)."""
    return varint(len(entries)) + b"".join(b"".join(varint(v) for v in e) for e in entries)


def exits_only(base, calls, origin=None, retvals=None, first=0):
    """A data-block body of graph exits with no entries (threshold mode, 2.7)
    for calls given as (site, start, end) in ticks after origin (default:
    the block's base); each exit is recorded at its call's end, inner calls
    first when ends coincide. retvals: {(site, start): value}. first: the
    number of its first event (2.8)."""
    origin = base if origin is None else origin
    retvals = retvals or {}
    b, now = varint(base) + varint(first), base
    for site, start, end in sorted(calls, key=lambda c: (c[2], -c[1])):
        rv = retvals.get((site, start))
        flags = bytes([1]) + varint(zigzag(rv)) if rv is not None else bytes([0])
        b += rec(2, origin + end - now, varint(site), varint(end - start), flags)
        now = origin + end
    return b


def payload(ftype, cpu, seq, body):
    p = bytes([ftype, cpu]) + varint(seq) + varint(len(body)) + body
    return p + struct.pack("<I", zlib.crc32(p))


def escape(p):
    out = bytearray([0x02])
    for b in p:
        if b in (0x02, 0x03, 0x10):
            out += bytes([0x10, b ^ 0x20])
        else:
            out.append(b)
    out.append(0x03)
    return bytes(out)


# ---- a synthetic image -----------------------------------------------------

# (name, start, size); sites are main, outer, leaf, mid; helper is not a site.
FUNCS = [("_start", 0x0, 0x40), ("main", 0x40, 0x100), ("outer", 0x140, 0x80),
         ("leaf", 0x1C0, 0x20), ("mid", 0x1E0, 0x60), ("helper", 0x240, 0x40)]
SITES = [1, 2, 3, 4]


def bt_tables(funcs, sites):
    """Section bytes and each table symbol's offset, as tools/mktables lays them."""
    sec, names, offs = bytearray(), bytearray(), {}
    offs["bt_syms"] = 0
    for name, start, size in funcs:
        sec += struct.pack("<III", start, size, len(names))
        names += name.encode() + b"\0"
    offs["bt_sym_count"] = len(sec)
    sec += struct.pack("<I", len(funcs))
    offs["bt_sym_names"] = len(sec)
    sec += names + b"\0"
    while len(sec) % 4:
        sec.append(0)
    offs["bt_sites"] = len(sec)
    for s in sites:
        sec += struct.pack("<I", s)
    offs["bt_site_count"] = len(sec)
    sec += struct.pack("<I", len(sites))
    return bytes(sec), offs


def elf(path, machine=183, tables=True, funcs=FUNCS, app=None, board=None):
    """A minimal ELF64 LE relocatable-style file: .bt_tables, .symtab,
    .strtab, .shstrtab. machine 183 is EM_AARCH64. app, board: the
    bt_app_name and bt_board_name symbols (the image's app and board
    names), put after the tables here."""
    sec, offs = bt_tables(funcs, SITES) if tables else (b"\0" * 16, {})
    for sym, name in (("bt_app_name", app), ("bt_board_name", board)):
        if name is not None:
            offs[sym] = len(sec)
            sec += name.encode() + b"\0"
    addr = 0x10000
    shstr = b"\0.bt_tables\0.symtab\0.strtab\0.shstrtab\0"
    if not tables:
        shstr = shstr.replace(b".bt_tables", b".rodata\0\0\0")
    strtab = bytearray(b"\0")
    syms = bytearray(b"\0" * 24)
    for name, off in offs.items():
        syms += struct.pack("<IBBHQQ", len(strtab), 0x11, 0, 1, addr + off, 4)
        strtab += name.encode() + b"\0"
    data = bytearray(b"\0" * 64)
    placed = []
    for blob in (sec, bytes(syms), bytes(strtab), shstr):
        while len(data) % 8:
            data.append(0)
        placed.append((len(data), len(blob)))
        data += blob
    while len(data) % 8:
        data.append(0)
    shoff = len(data)
    shdrs = [struct.pack("<IIQQQQIIQQ", 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
             struct.pack("<IIQQQQIIQQ", 1, 1, 2, addr, placed[0][0], placed[0][1], 0, 0, 8, 0),
             struct.pack("<IIQQQQIIQQ", 12, 2, 0, 0, placed[1][0], placed[1][1], 3, 1, 8, 24),
             struct.pack("<IIQQQQIIQQ", 20, 3, 0, 0, placed[2][0], placed[2][1], 0, 0, 1, 0),
             struct.pack("<IIQQQQIIQQ", 28, 3, 0, 0, placed[3][0], placed[3][1], 0, 0, 1, 0)]
    data += b"".join(shdrs)
    ident = b"\x7fELF" + bytes([2, 1, 1, 0]) + b"\0" * 8
    data[0:64] = ident + struct.pack("<HHIQQQIHHHHHH", 1, machine, 1, 0, 0, shoff, 0,
                                     64, 0, 0, 64, len(shdrs), 4)
    with open(path, "wb") as f:
        f.write(data)
    return zlib.crc32(sec)


# ---- the synthetic capture --------------------------------------------------

FREQ = 62500000          # QEMU virt's counter: 16 ns a tick
S_MAIN, S_OUTER, S_LEAF, S_MID = 0, 1, 2, 3


def metadata(image_hash, version=2, ncpus=2, app=None):
    b = varint(1) + varint(version) + varint(2) + varint(FREQ) + varint(3) + varint(ncpus)
    b += varint(4) + struct.pack("<I", image_hash) + varint(5) + varint(len(SITES))
    b += varint(6) + varint(0x40080000)
    b += varint(7) + varint(1) + string("irq_entry") + bytes([3])
    b += string("irq") + bytes([3]) + string("%u")
    b += string("name") + bytes([10]) + string("")
    b += string("delta") + bytes([8]) + string("%+d")
    b += varint(7) + varint(2) + string("sched_tick") + bytes([1])
    b += string("ptr") + bytes([9]) + string("")
    b += varint(8) + varint(1) + string("value %d = 0x%x (%s)")
    if app is not None:
        b += varint(9) + string(app)      # the app's name (wire.md 2.2)
    return b


def symdump(first, sites, version=2):
    """A symbol dump body (2.3): whole entries before version 4, from 4
    each against the one before (gap from its end, shared name bytes)."""
    b = varint(first) + varint(len(sites))
    end, prev = 0, b""
    for i in sites:
        name, start, size = FUNCS[SITES[i]]
        if version < 4:
            b += varint(start) + varint(size) + string(name)
            continue
        raw = name.encode()
        shared = 0
        while shared < min(len(prev), len(raw), 255) and prev[shared] == raw[shared]:
            shared += 1
        b += varint(zigzag(start - end)) + varint(size) + bytes([shared]) + string(raw[shared:])
        end, prev = start + size, raw
    return b


def site16(site):
    """A graph record's site from version 4 (2.1): two bytes, little-endian."""
    return struct.pack("<H", site)


def caller_of(ret_offset):
    return varint(ret_offset // 4)


# Event numbers (wire.md 2.8): CPU 0's block 0 holds events 0-11 (its
# kind-6 record is no event); the ring then refused 7 (12-18, stop mode);
# block 1 (19-20) is damaged on the wire; block 2 holds 21-24. CPU 1's
# blocks hold 3 events each; its block 1 never arrives.
CPU0_FIRST = [0, 19, 21]


def end_totals(entries):
    """An end-of-stream body: (cpu, produced, overwritten, dropped, discarded, blocks)."""
    b = varint(len(entries))
    for e in entries:
        b += b"".join(varint(v) for v in e)
    return b


END_TOTALS = [(0, 25, 0, 7, 0, 3), (1, 9, 0, 0, 0, 3)]


def cpu0_block0():
    b = varint(FREQ)  # base: 1.000000 s
    b += varint(CPU0_FIRST[0])  # first event number (wire.md 2.8)
    b += rec(1, 0, varint(S_MAIN), caller_of(0x10))           # main <- _start
    b += rec(3, 10, varint(S_OUTER), varint(0))               # outer() {
    b += rec(3, 5, varint(S_LEAF), varint(1))                 #   leaf();
    b += rec(2, 30, varint(S_LEAF), varint(30), bytes([0]))   #   0.480 us
    b += rec(3, 2, varint(S_MID), varint(1))                  #   mid() {
    b += rec(3, 1, varint(S_LEAF), varint(2))                 #     leaf();
    b += rec(2, 700, varint(S_LEAF), varint(700), bytes([0])) #     + 11.200 us
    b += rec(2, 25, varint(S_MID), varint(726), bytes([0]))   # } + 11.616 us
    b += rec(2, 6000, varint(S_OUTER), varint(6763), bytes([1]), varint(zigzag(-5)))  # !
    b += rec(4, 3, varint(1), varint(zigzag(27)), string("uart"), varint(zigzag(-3)))
    b += rec(5, 31, varint(1), bytes([2]), varint(zigzag(42)), varint(zigzag(255)))
    b += rec(6, 0, varint(7))                                 # informational: no marker
    b += rec(0, 2, varint(S_MAIN))                            # main again, same caller
    return b


def cpu0_block1():
    b = varint(FREQ + 100000)
    b += varint(CPU0_FIRST[1])
    b += rec(3, 0, varint(S_OUTER), varint(0))
    b += rec(2, 100000, varint(S_OUTER), varint(100000), bytes([0]))  # 1.6 ms: '#'
    return b


def cpu0_block2():
    b = varint(FREQ + 300000)
    b += varint(CPU0_FIRST[2])
    b += rec(1, 1, varint(S_LEAF), caller_of(0x250))          # leaf <- helper (not a site)
    b += rec(4, 4, varint(2), varint(zigzag(0x40081234)))
    b += rec(3, 100, varint(S_MID), varint(0))                # mid() {
    b += rec(2, 70000, varint(S_MID), varint(70000), bytes([1]), varint(zigzag(1)))  # # 1.12 ms
    return b


def cpu1_block(seq):
    b = varint(FREQ + 50 + 1000 * seq)
    b += varint(3 * seq)  # 3 events a block
    b += rec(1, 0, varint(S_LEAF), caller_of(0x150))          # leaf <- outer
    b += rec(0, 3, varint(S_LEAF))
    b += rec(3, 40, varint(S_MID), varint(3))                 # entry with no exit
    return b


def raw_log_entries(image_hash):
    """A function-tracer-only capture: entries (kinds 0 and 1), no graph."""
    b = varint(2 * FREQ)
    b += varint(0)  # first event number (wire.md 2.8)
    b += rec(1, 5, varint(S_OUTER), caller_of(0x50))          # outer <- main
    b += rec(1, 1, varint(S_LEAF), caller_of(0x150))          # leaf <- outer
    for i in range(2):
        b += rec(0, 5, varint(S_OUTER))                       # outer <- main again
        b += rec(0, 1, varint(S_LEAF))                        # leaf <- outer again
    b += rec(1, 2, varint(S_LEAF), caller_of(0x1F0))          # leaf <- mid
    b += rec(0, 1, varint(S_LEAF))                            # leaf <- mid again
    return (escape(payload(2, 0, 0, metadata(image_hash))) +
            escape(payload(3, 0, 0, symdump(0, [0, 1, 2, 3]))) +
            escape(payload(1, 0, 0, b)) +
            escape(payload(4, 0, 0, end_totals([(0, 8, 0, 0, 0, 1)]))))  # 8 events, 1 block


TEXT = ["baretrace: booting on 2 CPUs\r\n", "smp: 2 CPUs online\n",
        "demo: stage 1\n", "demo: PASS\n", "baretrace: exit status 0\n"]


def raw_log(image_hash, version=2):
    """Returns (raw bytes, console text expected on stdout)."""
    frames = []
    t = lambda i: frames.append(TEXT[i].encode())
    f = lambda *a: frames.append(escape(payload(*a)))
    t(0)
    f(1, 1, 0, cpu1_block(0))                 # data before metadata: kept
    f(2, 0, 0, metadata(image_hash, version))
    f(3, 0, 0, symdump(0, [0, 1]))
    t(1)
    f(3, 0, 1, symdump(2, [2, 3]))
    f(1, 0, 0, cpu0_block0())
    t(2)
    bad = bytearray(escape(payload(1, 0, 1, cpu0_block1())))
    bad[len(bad) // 2] ^= 0x40                # damaged on the wire
    frames.append(bytes(bad))
    f(1, 0, 2, cpu0_block2())
    # cpu 1 seq 1 never arrives
    f(1, 1, 2, cpu1_block(2))
    t(3)
    f(4, 0, 0, end_totals(END_TOTALS))
    t(4)
    return b"".join(frames), "".join(TEXT)
