"""test/graph_times.py: a check of the function_graph records' times read
straight from a .bt file (docs/wire.md 1-3, apart from the host tool):
each call's duration equals the distance between its entry and exit
records (the 'trace' stage runs it on the demo's trace).
"""
from bt_frames import frames, varint


def graph_time_skews(path):
    """Reads a .bt file on its own (docs/wire.md 1-3, not the host tool)
    and pairs each graph entry (kind 3) with its exit (kind 2) per CPU.
    Returns ([(cpu, site, duration, exit_ts - entry_ts)], error). A hole
    (a lost-events record or a jump of a block's 'first') forgets the
    open calls; an exit that is not the innermost open call's is not
    paired. This tree's version (5): a return (kind 6) is the exit of
    its block's innermost open entry, which must be the CPU's innermost
    open call too (an error otherwise); its duration is by definition
    the distance, so only kind 2's test the counter reads."""
    try:
        all_frames = frames(path)
    except (OSError, ValueError) as e:
        return [], str(e)
    pairs, stacks, nxt = [], {}, {}
    for ftype, cpu, body in all_frames:
        if ftype != 1:                          # data blocks only
            continue
        ts, k = varint(body, 0)
        first, k = varint(body, k)
        st = stacks.setdefault(cpu, [])
        blk = []                                # this block's open entries
        if nxt.get(cpu) != first:
            st.clear()
        while k < len(body):
            kind, dt = body[k] >> 5, body[k] & 31
            k += 1
            if dt == 31:
                dt, k = varint(body, k)
            ts += dt
            first += not (kind == 7 and body[k] == 7)   # lost: no event
            if kind == 0:                       # caller slot (wire.md 2.2)
                k += 1
            elif kind == 1:                     # site, caller
                _, k = varint(body, k)
                _, k = varint(body, k)
            elif kind == 6:                     # a return (version 5)
                if not blk:
                    return pairs, f"CPU {cpu} block at {first}: a return with no open entry"
                entry = blk.pop()
                if not st or st[-1] != entry:
                    return pairs, f"CPU {cpu} block at {first}: a return not of the innermost call"
                st.pop()
                pairs.append((cpu, entry[0], ts - entry[1], ts - entry[1]))
            elif kind == 3:                     # site: two bytes, depth
                site, k = body[k] | body[k + 1] << 8, k + 2
                _, k = varint(body, k)
                st.append((site, ts))
                blk.append((site, ts))
            elif kind == 2:
                site, k = body[k] | body[k + 1] << 8, k + 2
                dur, k = varint(body, k)
                k += 1
                if body[k - 1] & 1:
                    _, k = varint(body, k)
                if st and st[-1][0] == site:
                    pairs.append((cpu, site, dur, ts - st.pop()[1]))
                else:
                    st.clear()
            elif kind == 5:                     # format id, count, args
                _, k = varint(body, k)
                cnt, k = body[k], k + 1
                for _ in range(cnt):
                    _, k = varint(body, k)
            elif kind == 7:                     # subtype, length, bytes
                sub, k = body[k], k + 1
                ln7, k = varint(body, k)
                k += ln7
                if sub == 7:                    # lost events (version 5)
                    st.clear()
            else:
                return pairs, f"CPU {cpu} block at {first}: kind {kind} needs its schema"
        nxt[cpu] = first
    return pairs, None


def check_graph_times(res, path, what):
    """A graph call's duration (exit record) and the distance between its
    entry and exit records' times come from one pair of counter reads
    (docs/wire.md 2.1): equal for every call, the records that the slow
    path writes when a block fills up included (it once read the counter
    again, up to ~100 us later under TCG)."""
    pairs, err = graph_time_skews(path)
    bad = [p for p in pairs if p[2] != p[3]]
    res.record(f"trace: {what} {len(pairs)} graph calls: duration == exit time - entry "
               f"time for each ({len(bad)} differ)",
               err is None and len(pairs) > 1000 and not bad,
               f"{err}\n" + "".join(f"CPU {c} site {s}: duration {d} ticks, records "
                                    f"{t} ticks apart\n" for c, s, d, t in bad[:10]))
