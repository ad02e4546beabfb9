"""tools/gdb/bt_text.py: decoded records (bt_wire.decode_records) as
text lines, for baretrace-last (tools/gdb/baretrace.py): function
entries and graph records as the console's 'dump' prints them
(trace/output/dump.c), tracepoints and trace_printf messages as
'baretrace report' does. No gdb in here.

'img' is anything with: hz, site_name(site), name_at(offset from _text),
formats (trace_printf format strings by id) and events ((name, [(field,
type, format)]) by id).
"""
import re

import bt_wire as wire

# One C conversion: flags, width, precision, length (dropped), type.
_CONV = re.compile(r"%([-#0 +]*\d*(?:\.\d+)?)(?:hh|h|ll|l|z|j|t|L)?([diouxXcsp%])")


def c_format(fmt, args):
    """A C format with its arguments, one conversion at a time in
    Python's %: unsigned ones see a negative as its 64-bit pattern, %p
    is hex; what is left of either stays as it was."""
    out, pos, i = [], 0, 0
    for m in _CONV.finditer(fmt):
        out.append(fmt[pos:m.start()])
        pos = m.end()
        flags, conv = m.groups()
        if conv == "%":
            out.append("%")
            continue
        if i == len(args):
            out.append(m.group(0))
            continue
        v, i = args[i], i + 1
        if isinstance(v, int) and conv in "ouxXp":
            v &= 2**64 - 1
        if conv == "p":
            flags, conv = "#" + flags, "x"
        conv = "d" if conv in "iu" else conv
        try:
            out.append(("%" + flags + conv) % v)
        except (TypeError, ValueError, OverflowError):
            out.append(str(v))
    return "".join(out) + fmt[pos:]


def open_calls(recs):
    """For each record, the graph calls open after it, as the target's
    dump counts them (trace/output/dump_record.c): an entry opens its
    depth + 1, an exit closes one; so an exit's value is its depth."""
    out, n = [], 0
    for r in recs:
        if r["kind"] == wire.REC_GRAPH_ENTRY:
            n = r["depth"] + 1
        elif r["kind"] == wire.REC_EXIT and n:
            n -= 1
        out.append(n)
    return out


def default_format(ftype):
    """A tracepoint field's format when it names none (the host's)."""
    if ftype in (wire.FIELD_PTR, wire.FIELD_STRING):
        return "%p" if ftype == wire.FIELD_PTR else "%s"
    return "%d" if ftype >= wire.FIELD_S8 else "%u"


def record_text(img, cpu, r, exit_depth=0):
    """One record as a line; an exit's '}' indented to exit_depth, its
    entry's depth (open_calls() over the records before it)."""
    hz = img.hz or 1
    ts = f"[{cpu:03d}] {r['ts'] // hz}.{r['ts'] % hz * 1000000 // hz:06d}:"
    k = r["kind"]
    if k in (wire.REC_FUNC, wire.REC_FUNC_CALLER):
        caller = img.name_at(r["caller"] * 4 - 4) if r["caller"] is not None else None
        return f"{ts} {img.site_name(r['site'])} <-{caller or '?'}"
    if k == wire.REC_GRAPH_ENTRY:
        return f"{ts} {'  ' * r['depth']}{img.site_name(r['site'])}() {{"
    if k == wire.REC_EXIT:
        ret = f" = {r['retval']}" if "retval" in r else ""
        d = r["duration"]
        ns = d // hz * 1000000000 + d % hz * 1000000000 // hz
        return f"{ts} {'  ' * exit_depth}}} {img.site_name(r['site'])} {ns // 1000}.{ns % 1000:03d} us{ret}"
    if k == wire.REC_LOST:
        return f"CPU:{cpu} [LOST {r['count']} EVENTS]"
    if k == wire.REC_PRINTF:
        fmt = img.formats[r["id"]] if r["id"] < len(img.formats) else None
        return f"{ts} " + (c_format(fmt, r["args"]) if fmt else f"format #{r['id']} {r['args']}")
    if k == wire.REC_EVENT:
        name, fields = img.events[r["id"]]
        return f"{ts} {name}: " + " ".join(
            f"{fname}=" + c_format(fmt or default_format(ftype), [v])
            for (fname, ftype, fmt), v in zip(fields, r["fields"]))
    if k == wire.REC_EXT:
        return f"{ts} {ext_text(img, r)}"
    if k is None:
        return f"CPU:{cpu} [undecodable record {r['error']}]"
    return f"{ts} record kind {k}"


def ext_text(img, r):
    """An extension record (docs/wire.md 2.6): the arguments and strings
    of a call as the target's dump says them, the others by name."""
    b, sub = r["bytes"], r["subtype"]
    try:
        if sub == 1:                    # site, count, zigzag values
            site, at = wire.get_varint(b, 0)
            vals = []
            at += 1
            for _ in range(b[at - 1]):
                v, at = wire.get_varint(b, at)
                vals.append(f"{wire.unzigzag(v) & (2**64 - 1):#x}")
            return f"args of {img.site_name(site)}: {' '.join(vals)}"
        if sub == 6:                    # site, register, flags, length, bytes
            site, at = wire.get_varint(b, 0)
            text = bytes(b[at + 3:at + 3 + b[at + 2]]).decode(errors="replace")
            return f"string x{b[at]} of {img.site_name(site)}: \"{text}\""
    except (IndexError, ValueError):
        pass
    names = {2: "stack trace", 3: "trigger", 4: "run ended", 5: "probe hit"}
    return f"<{names.get(sub, f'extension {sub}')}>"
