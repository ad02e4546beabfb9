"""tools/gdb/baretrace.py: a hung board's trace, read by gdb.

Load it in any gdb attached to a baretrace image (QEMU's gdb stub, or
OpenOCD and a JTAG probe), with the ELF's symbols at the address the
image runs at (the boot banner says "image at ..."):

    (gdb) add-symbol-file build/qemu-virt/baretrace.elf -o 0x40200000
    (gdb) target remote :1234          # or OpenOCD's port, :3333
    (gdb) source tools/gdb/baretrace.py
    (gdb) baretrace-last 10            # the last 10 events of each CPU
    (gdb) baretrace-dump hang.bt       # a trace file for 'baretrace report'

In a rerun of a recorded run (baretrace goto, docs/replay.md) the trace
file of the recording says what comes next, too:

    (gdb) baretrace-trace build/record/trace.bt   # goto does this
    (gdb) baretrace-around 5           # 5 events before and after, each CPU

'make debug' loads it by itself. Both commands only read memory: halt
the target first (Ctrl-C in gdb, 'halt' in OpenOCD). They read the
per-CPU rings (trace/ring/ring.h: 'rings' in ring_swap.c) through the
ELF's types, and build what the exporter would have sent (docs/wire.md):
the metadata set, the symbol dump, one data frame per block still in a
ring, the block being filled included up to the writer's position, and
an end-of-stream frame with each CPU's totals, so 'baretrace report'
accounts for every event.
"""
import os
import sys

import gdb

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bt_around  # noqa: E402
import bt_wire as wire  # noqa: E402
from bt_text import open_calls, record_text  # noqa: E402

ARM64_MAGIC = b"ARMd"   # the Image header's magic, at _text + 0x38


def _mem(addr, n):
    return bytes(gdb.selected_inferior().read_memory(addr, n))


def _u32(addr):
    return int.from_bytes(_mem(addr, 4), "little")


def _addr(name):
    """Run-time address of a symbol (a linker one needs no type)."""
    try:
        return int(gdb.parse_and_eval(f"(unsigned long)&{name}"))
    except gdb.error:
        raise gdb.GdbError(f"baretrace: no symbol '{name}': load the image's ELF with "
                           "add-symbol-file ELF -o ADDRESS (the banner's 'image at')")


def _static(name, filename):
    """A file-scope static of 'filename' (several files may own one)."""
    for s in gdb.lookup_static_symbols(name):
        if s.symtab and s.symtab.filename.endswith(filename):
            return s.value()
    raise gdb.GdbError(f"baretrace: no '{name}' of {filename} in the symbols")


def _ptr(addr, type_name):
    return gdb.Value(addr).cast(gdb.lookup_type(type_name).pointer()).dereference()


class Image:
    """What the image holds besides the rings: tables, clock, CPUs,
    format strings and event schemas, read once per command."""

    def __init__(self):
        self.text = _addr("_text")
        try:
            magic = _mem(self.text + 0x38, 4)
        except gdb.MemoryError:
            magic = b""
        if magic != ARM64_MAGIC:
            raise gdb.GdbError(
                f"baretrace: no arm64 Image header at _text = {self.text:#x}: the symbols "
                "are not where the image runs (add-symbol-file ELF -o <the banner's "
                "'image at' address>), or the target is not halted")
        self.hz = int(_static("counter_hz", "kernel/smp/time.c"))
        self.ncpus = int(gdb.parse_and_eval("nr_cpus_online"))
        start, end = _addr("bt_tables_start"), _addr("bt_tables_end")
        self.image_hash = wire.crc32(_mem(start, end - start))
        self.nsites = _u32(_addr("bt_site_count"))
        nsyms = _u32(_addr("bt_sym_count"))
        raw = _mem(_addr("bt_syms"), 12 * nsyms)
        self.syms = [tuple(int.from_bytes(raw[i + k:i + k + 4], "little") for k in (0, 4, 8))
                     for i in range(0, len(raw), 12)]
        sites = _mem(_addr("bt_sites"), 4 * self.nsites)
        self.sites = [int.from_bytes(sites[i:i + 4], "little") for i in range(0, len(sites), 4)]
        self.names_at = _addr("bt_sym_names")
        self._names = {}
        self.formats = self._array("__bt_formats", "struct trace_format",
                                   lambda f: f["fmt"].string())
        self.events = self._array("__bt_events", "struct tp_event", self._schema)

    def _array(self, prefix, type_name, read):
        t = gdb.lookup_type(type_name)
        start, end = _addr(prefix + "_start"), _addr(prefix + "_end")
        return [read(_ptr(a, type_name)) for a in range(start, end, t.sizeof)]

    @staticmethod
    def _schema(ev):
        fields = [(ev["fields"][i]["name"].string(), int(ev["fields"][i]["type"]),
                   ev["fields"][i]["format"].string()) for i in range(int(ev["nfields"]))]
        return ev["name"].string(), fields

    def sym_name(self, index):
        if index not in self._names:
            off = self.syms[index][2]
            raw = _mem(self.names_at + off, 128)
            self._names[index] = raw.split(b"\0")[0].decode(errors="replace")
        return self._names[index]

    def site_name(self, site):
        return self.sym_name(self.sites[site]) if site < self.nsites else "?"

    def name_at(self, off):
        """The function holding offset 'off' from _text (sym_lookup)."""
        lo, hi = 0, len(self.syms)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.syms[mid][0] <= off:
                lo = mid + 1
            else:
                hi = mid
        if lo and off - self.syms[lo - 1][0] < self.syms[lo - 1][1]:
            return self.sym_name(lo - 1)
        return None

    def event_types(self, eid):
        return [f[1] for f in self.events[eid][1]] if eid < len(self.events) else None

    # The frames that make the rest decodable (export_meta.c).
    def meta_bodies(self):
        head = (wire.varint(wire.META_VERSION) + wire.varint(wire.VERSION)
                + wire.varint(wire.META_FREQ) + wire.varint(self.hz)
                + wire.varint(wire.META_NCPUS) + wire.varint(self.ncpus)
                + wire.varint(wire.META_IMAGE_HASH) + self.image_hash.to_bytes(4, "little")
                + wire.varint(wire.META_NSITES) + wire.varint(self.nsites)
                + wire.varint(wire.META_TEXT_BASE) + wire.varint(self.text))
        items = [wire.varint(wire.META_FORMAT) + wire.varint(i) + wire.string(f.encode())
                 for i, f in enumerate(self.formats)]
        for i, (name, fields) in enumerate(self.events):
            it = (wire.varint(wire.META_EVENT_SCHEMA) + wire.varint(i)
                  + wire.string(name.encode()) + bytes([len(fields)]))
            for fname, ftype, fmt in fields:
                it += wire.string(fname.encode()) + bytes([ftype]) + wire.string(fmt.encode())
            items.append(it)
        return wire.split_items(head, items)

    def sym_bodies(self):
        bodies, first = [], 0
        while first < self.nsites:
            entries = b""
            count = 0
            prev = wire.SymState()
            for s in range(first, min(self.nsites, first + 127)):
                start, size, _ = self.syms[self.sites[s]]
                e = prev.entry(start, size, self.site_name(s).encode())
                if len(entries) + len(e) > wire.BODY_MAX - 64 - 10:
                    break
                entries += e
                count += 1
            bodies.append(wire.varint(first) + bytes([count]) + entries)
            first += count
        return bodies


class Ring:
    """One CPU's ring as the target left it (ring.h), with its blocks
    oldest first: (seq, base_ts, first, data, events, state)."""

    def __init__(self, cpu, r):
        self.cpu = cpu
        f = {k: int(r[k]) for k in ("mem", "nblocks", "cap", "seq_base", "cur", "wr",
                                    "cur_events", "wr_seq", "started", "nest", "stored_done",
                                    "dropped", "overwritten", "discarded", "rd_seq",
                                    "exported")}
        self.f = f
        self.blocks, self.skipped = [], []
        if not f["mem"] or not f["started"]:
            return
        head = gdb.lookup_type("struct ring_block").sizeof
        stride = f["cap"] + head            # RING_BLOCK_SIZE
        last = f["wr_seq"]
        oldest = max(f["seq_base"], last + 1 - f["nblocks"])
        for seq in range(oldest, last + 1):
            at = f["mem"] + (seq % f["nblocks"]) * stride
            b = _ptr(at, "struct ring_block")
            if int(b["seq"]) != seq:
                self.skipped.append(seq)    # being reused when halted
                continue
            if at == f["cur"]:              # being filled: up to the writer
                length, events, state = f["wr"] - (at + head), f["cur_events"], "open"
            else:
                length, events = int(b["used"]), int(b["events"])
                state = "sent" if seq < f["rd_seq"] else "unsent"
            if not 0 <= length <= f["cap"]:
                self.skipped.append(seq)
                continue
            self.blocks.append((seq, int(b["base_ts"]), int(b["first"]),
                                _mem(at + head, length) if length else b"", events, state))

    def totals(self):
        """(cpu, produced, overwritten, dropped, discarded, blocks) as
        ring_get_totals() counts them; what is still in the ring is in
        the file, so it is not counted discarded."""
        f = self.f
        if not f["mem"]:
            return (self.cpu, 0, 0, 0, 0, 0)
        produced = f["stored_done"] + (f["cur_events"] if f["cur"] else 0) + f["dropped"]
        blocks = f["wr_seq"] + 1 if f["started"] else f["seq_base"]
        return (self.cpu, produced, f["overwritten"], f["dropped"], f["discarded"], blocks)


def read_rings(img):
    # 'rings' points at the per-CPU state: rings_bss, or the RAM kept
    # across resets once tracing set it up there (trace/output/prev.c).
    rings = _static("rings", "trace/ring/ring_swap.c")
    nr_cpus = _static("rings_bss", "trace/ring/ring_swap.c").type.range()[1] + 1  # NR_CPUS
    if not 0 < img.ncpus <= nr_cpus:
        raise gdb.GdbError(f"baretrace: {img.ncpus} CPUs online, not 1 to {nr_cpus}: "
                           "is the target halted after boot?")
    return [Ring(c, rings[c]) for c in range(img.ncpus)]


def ring_records(img, ring):
    for seq, base, first, data, events, state in ring.blocks:
        yield from wire.decode_records(data, base, img.event_types)


# ---- the commands -------------------------------------------------------------

class DumpCommand(gdb.Command):
    """Write the halted target's trace rings to a .bt trace file.
Usage: baretrace-dump FILE.bt
Then on the host: baretrace report FILE.bt --elf IMAGE.elf"""

    def __init__(self):
        super().__init__("baretrace-dump", gdb.COMMAND_DATA, gdb.COMPLETE_FILENAME)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        if len(argv) != 1:
            raise gdb.GdbError("usage: baretrace-dump FILE.bt")
        img = Image()
        rings = read_rings(img)
        frames = [wire.frame(wire.FRAME_META, 0, i, b) for i, b in enumerate(img.meta_bodies())]
        frames += [wire.frame(wire.FRAME_SYMS, 0, i, b) for i, b in enumerate(img.sym_bodies())]
        for ring in rings:
            for seq, base, first, data, events, state in ring.blocks:
                frames.append(wire.frame(wire.FRAME_DATA, ring.cpu, seq,
                                         wire.data_body(base, first, data)))
        frames.append(wire.frame(wire.FRAME_END, 0, 0, wire.end_body([r.totals() for r in rings])))
        with open(argv[0], "wb") as f:
            f.write(wire.bt_file(frames))
        print(f"baretrace: {argv[0]}: {len(frames)} frames, {img.ncpus} CPUs, "
              f"{img.hz} Hz, image {img.image_hash:08x}")
        for ring in rings:
            print(summary(ring))


def summary(ring):
    """One CPU's line: what the file holds of it, and what it cannot."""
    f, b = ring.f, ring.blocks
    if not f["mem"] or not b:
        return f"cpu {ring.cpu}: no events in its ring"
    events = sum(x[4] for x in b)
    cpu, produced, over, dropped, disc, blocks = ring.totals()
    states = {s: sum(1 for x in b if x[5] == s) for s in ("sent", "unsent", "open")}
    line = (f"cpu {cpu}: {events} events in blocks {b[0][0]}..{b[-1][0]} "
            f"({states['sent']} sent before, {states['unsent']} not sent, "
            f"{states['open']} open); {produced} produced")
    if b[0][2]:
        line += (f"; the {b[0][2]} before them left the ring ({over} overwritten unsent, "
                 "the others sent, dropped or discarded)")
    if dropped or disc:
        line += f"; {dropped} dropped, {disc} discarded"
    if f["nest"]:
        line += (f"; halted inside {f['nest']} reservation(s): its last record may be "
                 "incomplete")
    if ring.skipped:
        line += f"; blocks {ring.skipped} were being reused, left out"
    return line


class LastCommand(gdb.Command):
    """Print the last N events of each CPU's trace ring (default 10).
Usage: baretrace-last [N]"""

    def __init__(self):
        super().__init__("baretrace-last", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        try:
            n = int(argv[0]) if argv else 10
        except ValueError:
            raise gdb.GdbError("usage: baretrace-last [N]")
        if len(argv) > 1 or n < 0:
            raise gdb.GdbError("usage: baretrace-last [N]")
        img = Image()
        for ring in read_rings(img):
            recs = list(ring_records(img, ring))
            events = [i for i, r in enumerate(recs) if r["kind"] != wire.REC_LOST]
            first = events[max(0, len(events) - n)] if n and events else len(recs)
            depths = open_calls(recs)   # counted from the ring's start, as the dump
            print(f"# cpu {ring.cpu}: last {min(n, len(events))} of {len(events)} events "
                  "in its ring")
            for i in range(first, len(recs)):
                print(record_text(img, ring.cpu, recs[i], depths[i]))


DumpCommand()
LastCommand()
bt_around.register(Image, read_rings, ring_records)
