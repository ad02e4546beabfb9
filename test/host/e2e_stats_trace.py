"""test/host/e2e_stats_trace.py: the synthetic traces of e2e_stats_diff.py:
a call table (name: [(cpu, duration ns, [(child, ns)])]) written as a raw
serial log with graph records at a given counter rate, and an ELF whose
.bt_tables numbers the sites in a given order.
"""
import struct

import e2e_wire as wire


def block(spec, freq, cpu, sites):
    """One CPU's data block: graph entries and exits of its calls, laid
    one after another 100 ns apart, children 1000 ns into their parent."""
    tick = 1000000000 // freq
    ev = []  # (ns, order, record fields)
    t = 1000
    for name, calls in sorted(spec.items()):
        for c, dur, children in calls:
            if c != cpu:
                continue
            ev.append((t, ("entry", sites[name], 0)))
            ct = t + 1000
            for cname, cdur in children:
                ev.append((ct, ("entry", sites[cname], 1)))
                ev.append((ct + cdur, ("exit", sites[cname], cdur)))
                ct += cdur + 100
            ev.append((t + dur, ("exit", sites[name], dur)))
            t += dur + 100
    base = 1000000 // tick
    b, now = wire.varint(base) + wire.varint(0), base
    for ns, (kind, site, x) in ev:
        at = base + ns // tick
        if kind == "entry":
            b += wire.rec(3, at - now, wire.varint(site), wire.varint(x))
        else:
            b += wire.rec(2, at - now, wire.varint(site), wire.varint(x // tick), bytes([0]))
        now = at
    return b, len(ev)


def metadata(freq, nsites, image_hash):
    return (wire.varint(1) + wire.varint(2) + wire.varint(2) + wire.varint(freq) + wire.varint(3) +
            wire.varint(2) + wire.varint(4) + struct.pack("<I", image_hash) + wire.varint(5) +
            wire.varint(nsites) + wire.varint(6) + wire.varint(0x40080000))


def funcs_of(names):
    """(name, start, size) per function, 0x100 apart: an image's symbols."""
    return [(n, 0x100 * (i + 1), 0x80) for i, n in enumerate(names)]


def raw_trace(spec, freq, order, symdump=True, image_hash=0):
    """A raw serial log; sites numbered in 'order' (a list of names)."""
    sites = {n: i for i, n in enumerate(order)}
    funcs = funcs_of(order)
    frames = [wire.escape(wire.payload(2, 0, 0, metadata(freq, len(order), image_hash)))]
    if symdump:
        body = wire.varint(0) + wire.varint(len(order))
        for name, start, size in funcs:
            body += wire.varint(start) + wire.varint(size) + wire.string(name)
        frames.append(wire.escape(wire.payload(3, 0, 0, body)))
    totals = []
    for cpu in (0, 1):
        b, n = block(spec, freq, cpu, sites)
        frames.append(wire.escape(wire.payload(1, cpu, 0, b)))
        totals.append((cpu, n, 0, 0, 0, 1))
    frames.append(wire.escape(wire.payload(4, 0, 0, wire.end_totals(totals))))
    return b"".join(frames)


def image(path, order):
    """An ELF whose .bt_tables names 'order''s sites; returns its hash."""
    saved = wire.SITES
    wire.SITES = list(range(len(order)))
    try:
        return wire.elf(path, funcs=funcs_of(order))
    finally:
        wire.SITES = saved
