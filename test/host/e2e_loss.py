"""test/host/e2e_loss.py: end-to-end checks of how the host tool accounts
for lost events (docs/wire.md 2.4, 2.8), run by e2e_baretrace.py (with the
encoder of e2e_wire.py), and of the host defects around it.

loss.log, two CPUs (the event numbers are what the target would write):

  CPU 0, overwrite mode: block 0 holds events 0-3 (outer, leaf, mid
         entered); blocks 1 and 2 (4-11) were overwritten on the target
         (a sequence gap); block 3 holds 12-15 (mid, leaf, outer return);
         block 4 holds 16-19 and an informational lost-events record.
  CPU 1, stop mode: block 0 holds 0-2; the ring refused 5 (3-7); block 1
         holds 8-10 right after (consecutive sequence numbers); block 2
         (11-13) is damaged on the wire; block 3 holds 14-16; 4 more
         were refused at the end.
  END    totals: CPU 0 produced 20, 8 overwritten, 5 blocks; CPU 1
         produced 21, 9 dropped, 4 blocks.

Variants: no END frame and the first block of each CPU missing (a
capture started late), and an END frame without totals (version 1).
Also: a trace file whose first frame has a changed length field, output
paths that are the input, warnings printed once, metadata over three
frames, and a fake QEMU that prints after the END frame.
"""
import json
import os
import shutil
import struct
import sys
import time
import zlib


import e2e_wire as wire
from e2e_baretrace import run, golden
from e2e_wire import FREQ, varint, rec, payload, escape

MAIN, OUTER, LEAF, MID = wire.S_MAIN, wire.S_OUTER, wire.S_LEAF, wire.S_MID
T0 = 7 * FREQ


def block(base, first, records):
    return varint(base) + varint(first) + b"".join(records)


# The stream is this tree's version (5), so it decodes the same when its
# metadata is lost (damage_checks): graph sites in two bytes, kind-0
# records naming the slot, which is the site below 256, lost events as
# kind 7 subtype 7 (kind 6 is a graph return from version 5).
VERSION = 5
site = wire.site16


def cpu0(seq):
    if seq == 0:
        return block(T0, 0, [rec(3, 0, site(OUTER), varint(0)), rec(3, 5, site(LEAF), varint(1)),
                             rec(2, 10, site(LEAF), varint(10), bytes([0])),
                             rec(3, 2, site(MID), varint(1))])
    if seq == 3:
        return block(T0 + 1000, 12, [rec(2, 0, site(MID), varint(1000), bytes([0])),
                                     rec(3, 3, site(LEAF), varint(1)),
                                     rec(2, 20, site(LEAF), varint(20), bytes([0])),
                                     rec(2, 4, site(OUTER), varint(1030), bytes([0]))])
    assert seq == 4
    return block(T0 + 2000, 16, [rec(1, 0, varint(MAIN), wire.caller_of(0x10))] +
                 [rec(0, 1, varint(MAIN))] * 3 + [wire.ext(0, 7, varint(8))])


def cpu1(seq):
    first = {0: 0, 1: 8, 2: 11, 3: 14}[seq]
    return block(T0 + 100 + 500 * seq, first, [rec(1, 0, varint(LEAF), wire.caller_of(0x150))] +
                 [rec(0, 2, varint(LEAF))] * 2)


TOTALS = [(0, 20, 8, 0, 0, 5), (1, 21, 0, 9, 0, 4)]


def loss_log(image_hash, end=True, late=False, empty_end=False, totals=TOTALS):
    f = lambda *a: escape(payload(*a))
    out = [f(2, 0, 0, wire.metadata(image_hash, VERSION)),
           f(3, 0, 0, wire.symdump(0, [0, 1, 2, 3], VERSION))]
    if not late:
        out += [f(1, 0, 0, cpu0(0)), b"loss: started\n", f(1, 1, 0, cpu1(0))]
    out += [f(1, 1, 1, cpu1(1)), f(1, 0, 3, cpu0(3))]
    bad = bytearray(f(1, 1, 2, cpu1(2)))
    bad[len(bad) // 2] ^= 0x40                # damaged on the wire
    out += [bytes(bad), f(1, 0, 4, cpu0(4)), f(1, 1, 3, cpu1(3))]
    if end:
        out.append(f(4, 0, 0, b"" if empty_end else wire.end_totals(totals)))
    out.append(b"loss: done\n")
    return b"".join(out)


def report_checks(tap, tool, trace, tmp):
    rc, rep, err = run([tool, "report", trace])
    lines = rep.splitlines()
    tap.ok(rc == 0 and err == "", "loss report: exit 0, no warnings", err)
    markers = [(i, l) for i, l in enumerate(lines) if "[LOST " in l]
    tap.ok([l for _, l in markers] == [
        "CPU:1 [LOST 5 EVENTS] (ring full (stop mode))",
        "CPU:0 [LOST 8 EVENTS] (ring overwritten)",
        "CPU:1 [LOST 3 EVENTS] (ring full (stop mode) or frames lost)",
        "CPU:1 [LOST 4 EVENTS] (ring full (stop mode))"],
        "loss report: one marker per hole, counted in events, with its cause; none from "
        "the kind-6 record", rep)
    # Each marker sits right before the first record of the block after
    # its hole; the one after CPU 1's last block comes after all records.
    nxt = [lines[i + 1] for i, _ in markers]
    tap.ok(nxt[0].startswith("[001] 7.000009:") and nxt[1].startswith(" 0)")
           and "} /* mid */" not in nxt[1] and nxt[2].startswith("[001] 7.000025:")
           and nxt[3] == "# 21 events", "loss report: markers sit where the events are missing",
           "\n".join(f"{l}\n  then {n}" for (_, l), n in zip(markers, nxt)))
    # CPU 0's two blocks were overwritten (its events lost only that
    # way); CPU 1's one was damaged on the wire (it overwrote nothing).
    tap.ok(lines[-1] == "# 20 of 41 events lost (49 %): on the target 8 ring overwritten, 9 ring "
           "full (stop mode), 0 discarded; 3 lost on the wire; 3 blocks missing: 2 overwritten "
           "on the target, 1 lost on the wire",
           "loss report: one total in events, split by cause, missing blocks by where", rep)
    return rep


def stats_checks(tap, tool, trace):
    rc, out, err = run([tool, "stats", trace])
    rows = {l.split()[-2] if l.endswith(" *") else l.split()[-1]: l.endswith(" *")
            for l in out.splitlines() if l and not l.startswith("#")}
    tap.ok(rc == 0 and rows.get("outer") is True and rows.get("mid") is True
           and rows.get("leaf") is False and rows.get("main") is False,
           "loss stats: functions with a call open across a hole are marked *", out)
    tap.ok("# warning: 20 events missing in holes; * marks the 2 functions with calls open "
           "across a hole: the calls they made there are missing, so their self times are "
           "upper bounds" in out.splitlines(), "loss stats: a warning says what * means", out)


def export_checks(tap, tool, trace, tmp):
    js = os.path.join(tmp, "loss.json")
    rc, _, err = run([tool, "export", "--format=chrome-json", "-o", js, trace])
    ev = json.load(open(js))["traceEvents"] if rc == 0 else []
    lost = sorted((e["tid"] - 1, e["args"]["count"], e["args"]["cause"]) for e in ev
                  if e.get("cat") == "lost")
    tap.ok(lost == [(0, 8, "ring overwritten"), (1, 3, "ring full (stop mode) or frames lost"),
                    (1, 4, "ring full (stop mode)"), (1, 5, "ring full (stop mode)")],
           "loss chrome-json: a lost-events instant per hole, with count and cause", lost)
    ctf = os.path.join(tmp, "loss-ctf")
    rc, _, err = run([tool, "export", "--format=ctf", "-o", ctf, trace])
    tap.ok(rc == 0, "loss ctf: exit 0", err)
    if shutil.which("babeltrace2"):
        rc, out, err = run(["babeltrace2", ctf])
        counts = sorted(int(l.split("count = ")[1].split()[0]) for l in out.splitlines()
                        if "lost_events" in l)
        tap.ok(rc == 0 and counts == [3, 4, 5, 8] and len(out.splitlines()) == 21 + 4,
               "loss ctf: babeltrace2 reads a lost_events event per hole and the 21 events",
               err + out)


def capture_checks(tap, tool, tmp, h):
    raw, trace = os.path.join(tmp, "loss.log"), os.path.join(tmp, "loss.bt")
    data = loss_log(h)
    with open(raw, "wb") as f:
        f.write(data)
    rc, out, err = run([tool, "capture", "--file", raw, "-o", trace])
    lines = err.splitlines()
    end = len(escape(payload(4, 0, 0, wire.end_totals(TOTALS))))
    text = len(b"loss: started\n" + b"loss: done\n")
    tap.ok(rc == 0 and len(lines) == 2 and lines[0].startswith(
        "baretrace capture: 8 frames, 1 damaged, 2 sequence gaps, 21 events, 20 lost, "
        f"{len(data) - end - text} wire bytes in ") and lines[0].endswith(
            f"-> {trace}; besides: the end-of-stream frame ({end} bytes), {text} bytes of "
            "console text"),
        "loss capture: first summary line: decoded events, all lost events", err)
    tap.ok(lines[-1] == "baretrace capture: target produced 41 events: 21 decoded + 17 lost on "
           "the target (8 overwritten, 9 stop mode, 0 discarded) + 3 lost on the wire",
           "loss capture: second summary line: where every produced event went", err)
    return trace


def variant_checks(tap, tool, tmp, h):
    raw, trace = os.path.join(tmp, "late.log"), os.path.join(tmp, "late.bt")
    with open(raw, "wb") as f:
        f.write(loss_log(h, end=False, late=True))
    rc, out, err = run([tool, "capture", "--file", raw, "-o", trace])
    lines = err.splitlines()
    tap.ok(len(lines) == 1 and " 1 sequence gap, 14 events, 23 lost, " in lines[0]
           and lines[0].endswith("(no end-of-stream frame); besides: 11 bytes of console "
                                 "text"),
           "late capture without END: the holes found so far, no second line", err)
    rc, rep, err = run([tool, "report", trace])
    lines = rep.splitlines()
    tap.ok(rc == 0 and lines[0].startswith("# tracer:")
           and lines[4] == "CPU:1 [LOST 8 EVENTS] (ring overwritten or frames lost)",
           "late report: the header comes before the first marker (a hole before the "
           "first block)", rep)
    tap.ok(lines[-2:] == ["# 23 events lost in holes: 0 on the target (ring full or discarded), "
                          "23 ring overwritten or frames lost",
                          "# the trace is cut short: no end-of-stream frame (the capture "
                          "stopped early or the file was truncated): events after the last "
                          "frame are not accounted for"], "late report: loss at the end is unknown", rep)
    with open(raw, "wb") as f:
        f.write(loss_log(h, empty_end=True))
    rc, out, err = run([tool, "capture", "--file", raw, "-o", trace])
    rc, rep, err = run([tool, "report", trace])
    tap.ok(rep.splitlines()[-1] == "# no end-of-stream frame with totals: events after the last "
           "frame are not accounted for", "an END frame without totals: loss at the end unknown",
           rep)
    # Totals that cannot be right: CPU 0 says it produced 5, 12 arrived.
    with open(raw, "wb") as f:
        f.write(loss_log(h, totals=[(0, 5, 0, 0, 0, 5)] + TOTALS[1:]))
    rc, out, err = run([tool, "capture", "--file", raw, "-o", trace])
    rc2, rep, _ = run([tool, "report", trace])
    bad = "the books do not balance on CPU 0: 12 decoded + 0 lost on the target > 5 produced"
    tap.ok("# " + bad in rep.splitlines() and "baretrace capture: " + bad in err.splitlines(),
           "books that do not balance are said so, in report and capture", rep + err)


def damage_checks(tap, tool, tmp, trace, rep):
    data = open(trace, "rb").read()
    # The first frame's length field plus one: the frame cannot check.
    n = struct.unpack_from("<I", data, 8)[0]
    bad = os.path.join(tmp, "badlen.bt")
    with open(bad, "wb") as f:
        f.write(data[:8] + struct.pack("<I", n + 1) + data[12:])
    rc, out, err = run([tool, "report", bad])
    tap.ok(rc == 0 and f"{n + 4} bytes that held no frame" in err and "# 21 events" in out,
           "a changed length field: resynchronised at the next frame, bytes skipped said", err)
    tap.ok(err.count("skipped") == 1 and err.count("no metadata") == 1,
           "warnings print once (report reads the file twice)", err)
    junk = os.path.join(tmp, "junk.bt")
    with open(junk, "wb") as f:
        f.write(data[:8] + bytes(range(256)) * 4)
    rc, out, err = run([tool, "report", junk])
    tap.ok(rc == 1 and "no whole frame could be read" in err, "a file with no frame: exit 1", err)
    # Output paths that are the input: refused before anything is opened.
    raw = os.path.join(tmp, "loss.log")
    before = open(raw, "rb").read()
    link = os.path.join(tmp, "loss-link.log")
    if not os.path.exists(link):
        os.symlink(raw, link)
    rc, out, err = run([tool, "capture", "--file", raw, "-o", link])
    tap.ok(rc == 2 and "is the input" in err and open(raw, "rb").read() == before,
           "capture -o its own input: exit 2, input unchanged", err)
    rc, out, err = run([tool, "export", "--format=chrome-json", "-o", trace, trace])
    tap.ok(rc == 2 and "is the input" in err and open(trace, "rb").read() == data,
           "export -o its own input: exit 2, input unchanged", err)


def meta_split_checks(tap, tool, tmp, h):
    """wire.md 2.9: a set over three frames; the last two lack key 1."""
    m = wire.metadata(h)
    # Split after the fixed keys and between the two schemas / the format.
    cut1 = m.index(varint(7) + varint(1) + wire.string("irq_entry"))
    cut2 = m.index(varint(7) + varint(2) + wire.string("sched_tick"))
    body = varint(T0) + varint(0) + rec(4, 0, varint(1), varint(27 * 2), wire.string("x"),
                                        varint(1)) + rec(5, 1, varint(1), bytes([1]), varint(2))
    f = lambda *a: escape(payload(*a))
    raw = b"".join([f(2, 0, 0, m[:cut1]), f(2, 0, 1, m[cut1:cut2]), f(2, 0, 2, m[cut2:]),
                    f(1, 0, 0, body), f(4, 0, 0, wire.end_totals([(0, 2, 0, 0, 0, 1)]))])
    rawp, trace = os.path.join(tmp, "split.log"), os.path.join(tmp, "split.bt")
    with open(rawp, "wb") as fh:
        fh.write(raw)
    run([tool, "capture", "--file", rawp, "-o", trace])
    rc, rep, err = run([tool, "report", trace])
    tap.ok(rc == 0 and err == "" and "[000] 7.000000: irq_entry: irq=27 name=x delta=-1" in rep
           and "value 1 = " in rep, "metadata over three frames: schemas and formats of all", rep + err)


def qemu_checks(tap, tool, tmp):
    """A fake QEMU: the stream, then a console line after the END frame."""
    raw = os.path.join(tmp, "loss.log")
    trace = os.path.join(tmp, "qemu.bt")
    script = ("import sys, time\nsys.stdout.buffer.write(open(%r, 'rb').read())\n"
              "sys.stdout.flush()\ntime.sleep(0.5)\nprint('qemu: last line')\n" % raw)
    rc, out, err = run([tool, "capture", "-o", trace, "--qemu", sys.executable, "-c", script])
    tap.ok(rc == 0 and out.endswith("loss: done\nqemu: last line\n") and
           "terminating" not in out + err, "capture --qemu: console lines after the END frame "
           "pass through until QEMU exits", out + err)
    # One that never exits is stopped a bounded time after the END frame.
    script = ("import sys, time\nsys.stdout.buffer.write(open(%r, 'rb').read())\n"
              "sys.stdout.flush()\ntime.sleep(60)\n" % raw)
    t0 = time.monotonic()
    rc, out, err = run([tool, "capture", "-o", trace, "--qemu", sys.executable, "-c", script])
    took = time.monotonic() - t0
    tap.ok(rc == 0 and 2.5 < took < 10 and out.endswith("loss: done\n"),
           f"capture --qemu: a QEMU that does not exit is stopped after ~3 s ({took:.1f} s)",
           out + err)


def checks(tap, tool, tmp, update):
    h = wire.elf(os.path.join(tmp, "loss.elf"))
    trace = capture_checks(tap, tool, tmp, h)
    rep = report_checks(tap, tool, trace, tmp)
    golden(tap, "report_loss.txt", rep, update)
    stats_checks(tap, tool, trace)
    export_checks(tap, tool, trace, tmp)
    variant_checks(tap, tool, tmp, h)
    damage_checks(tap, tool, tmp, trace, rep)
    meta_split_checks(tap, tool, tmp, h)
    qemu_checks(tap, tool, tmp)


def seeds():
    h = zlib.crc32(wire.bt_tables(wire.FUNCS, wire.SITES)[0])
    return {"loss.raw": loss_log(h), "late.raw": loss_log(h, end=False, late=True)}
