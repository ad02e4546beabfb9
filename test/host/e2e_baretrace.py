#!/usr/bin/env python3
"""test/host/e2e_baretrace.py: the baretrace host tool end to end.

Writes a synthetic raw serial log with its own encoder of docs/wire.md
(written apart from wire/wire.c, so the two check each other): console
text interleaved with a data frame sent before any metadata, metadata
with two tracepoint schemas and a printf format, two symbol-dump frames,
data blocks from two CPUs with entry, graph, tracepoint, printf and
lost-event records, one frame corrupted on the wire, one frame never
sent, and an end-of-stream frame. It also writes small aarch64 ELF files
with a .bt_tables section (kernel/report/tables.h layout). Then it runs

  capture --file, report (with and without --elf), stats, and
  export --format=chrome-json|folded|ctf|svg

and checks exact output against test/host/golden/, that the JSON parses
and nests, that babeltrace2 reads the CTF with as many events as report
counts (skipped, and said so, if babeltrace2 is not installed), and the
errors for bad command lines, bad files and wrong ELFs. Profile dumps,
extension records, exits without entries and the SVG flame graph have
their own captures and checks in e2e_features.py.

Usage: test/host/e2e_baretrace.py BARETRACE [--update-golden] [--keep DIR]
Prints TAP; exit status 0 when every check passed.
       test/host/e2e_baretrace.py --write-seeds test/fuzz/corpus/decoder
writes the fuzz seeds for test/fuzz/fuzz_decoder.c from the same generator.
"""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

import e2e_wire as wire

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, "golden")

# ---- checks -----------------------------------------------------------------

class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def ok(self, cond, name, detail=""):
        self.n += 1
        print(f"{'ok' if cond else 'not ok'} {self.n} - {name}")
        if not cond:
            self.failed += 1
            for line in str(detail).splitlines()[-30:]:
                print(f"# {line}")
        sys.stdout.flush()
        return cond


def tap_main(checks, doc, prefix):
    """The main() of a host e2e test: argv is BARETRACE [--keep DIR];
    checks(tap, tool, tmp) runs in a temporary folder (kept with --keep);
    prints the TAP plan; exit status 1 if a check failed, 2 for usage."""
    if len(sys.argv) < 2:
        print(doc)
        return 2
    tool = os.path.abspath(sys.argv[1])
    keep = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv else None
    tmp = keep or tempfile.mkdtemp(prefix=prefix)
    os.makedirs(tmp, exist_ok=True)
    tap = Tap()
    try:
        checks(tap, tool, tmp)
    finally:
        if not keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


def run(cmd, **kw):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def golden(tap, name, text, update):
    path = os.path.join(GOLDEN, name)
    if update:
        os.makedirs(GOLDEN, exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    want = open(path).read() if os.path.exists(path) else None
    tap.ok(text == want, f"{name} matches the golden file",
           "got:\n" + text if want is None else "\n".join(
               f"want: {w!r}\ngot:  {g!r}" for w, g in zip(want.splitlines() + ["<end>"] * 99,
                                                       text.splitlines() + ["<end>"] * 99)
               if w != g)[:3000])


def errors(tap, tool, tmp, trace, raw):
    """Bad command lines exit 2, bad input 1, each with a clear message."""
    def expect(args, status, words, name):
        rc, out, err = run([tool] + args)
        tap.ok(rc == status and all(w in err for w in words),
               f"{name}: exit {status}", f"exit {rc}\nstderr: {err}\nwanted {words}")

    expect([], 2, ["usage: baretrace COMMAND"], "no command: the overview")
    expect(["frobnicate"], 2, ["unknown command 'frobnicate'"], "unknown command")
    expect(["report"], 2, ["needs a trace file"], "report without a trace")
    expect(["report", trace, "--bogus"], 2, ["unknown option '--bogus'"], "unknown flag")
    expect(["stats", trace, "extra"], 2, ["unexpected argument 'extra'"], "two trace files")
    expect(["export", "--format=png", "-o", tmp + "/x", trace], 2,
           ["unknown export format 'png'"], "unknown export format")
    expect(["export", "--format=folded", trace], 2, ["needs -o"], "export without -o")
    expect(["capture", "--file", raw, "-o"], 2, ["-o needs a value"], "capture -o without its value")
    expect(["capture", "-o", tmp + "/x.bt"], 2, ["exactly one of"], "capture without a source")
    expect(["capture", "--file", raw, "--baud", "9600", "-o", tmp + "/x.bt"], 2,
           ["goes with --serial"], "--baud without --serial")
    expect(["capture", "--file", tmp + "/missing", "-o", tmp + "/x.bt"], 1,
           ["cannot open"], "capture of a missing file")

    notes = os.path.join(tmp, "notes.txt")
    with open(notes, "w") as f:
        f.write("just some text, not a trace\n")
    expect(["report", notes], 1, ["not a baretrace trace file (bad magic"], "a file that is not a trace")
    v2 = os.path.join(tmp, "v2.bt")
    with open(trace, "rb") as f, open(v2, "wb") as g:
        g.write(f.read()[:7] + b"\x02")
    expect(["report", v2], 1, ["trace file version 2"], "a trace file version it does not know")
    expect(["report", os.path.join(tmp, "none.bt")], 1, ["cannot open"], "a missing trace")
    expect(["report", trace, "--elf", notes], 1, ["not an ELF"], "--elf of a text file")
    expect(["report", trace, "--elf", tmp + "/x86.elf"], 1, ["not a little-endian aarch64"],
           "--elf of an x86-64 ELF")
    expect(["report", trace, "--elf", tmp + "/notables.elf"], 1, ["no .bt_tables"],
           "--elf of an ELF without .bt_tables")
    expect(["stats", trace, "--elf", tmp + "/other.elf"], 1,
           ["does not match this trace", "image hash"], "--elf of another build")
    rc, out, err = run([tool, "report", trace, "--elf", tmp + "/other.elf"])
    tap.ok(rc == 1 and err.count("does not match") == 1,
           "report --elf of another build says so once (it reads the file twice)", err)
    expect(["export", "--format=ctf", "-o", tmp + "/ctf-bad", trace, "--elf", tmp + "/other.elf"],
           1, ["does not match"], "export refuses another build's ELF too")


def chrome_checks(tap, doc):
    ev = doc.get("traceEvents", [])
    names = {e["args"]["name"] for e in ev if e.get("ph") == "M" and e["name"] == "thread_name"}
    tap.ok(names == {"CPU 0", "CPU 1"}, "chrome: one named thread per CPU", names)
    xs = [e for e in ev if e["ph"] == "X"]
    tap.ok(sorted(e["name"] for e in xs) == ["leaf", "leaf", "mid", "mid", "outer"],
           "chrome: one complete event per call with an exit", xs)
    outer = [e for e in xs if e["name"] == "outer"][0]
    tap.ok(abs(outer["dur"] - 108.208) < 1e-6 and abs(outer["ts"] - 1000000.160) < 1e-6
           and outer["args"] == {"retval": -5}, "chrome: outer's start, duration and retval", outer)
    nested = True
    for a in xs:
        for b in xs:
            if a is b or a["tid"] != b["tid"]:
                continue
            a0, a1, b0, b1 = a["ts"], a["ts"] + a["dur"], b["ts"], b["ts"] + b["dur"]
            if not (a1 <= b0 or b1 <= a0 or (a0 <= b0 and b1 <= a1) or (b0 <= a0 and a1 <= b1)):
                nested = False
    tap.ok(nested, "chrome: calls on one CPU nest or are disjoint")
    inst = [e for e in ev if e["ph"] == "i"]
    kinds = sorted((e["cat"], e["name"]) for e in inst)
    tap.ok(kinds.count(("function", "leaf")) == 5 and kinds.count(("function", "main")) == 2,
           "chrome: function entries are instants", kinds)
    tap.ok(("tracepoint", "irq_entry") in kinds and ("tracepoint", "sched_tick") in kinds
           and ("printf", "value 42 = 0xff (?)") in kinds, "chrome: tracepoints and messages", kinds)
    lost = sorted((e["tid"] - 1, e["name"], e["args"]["count"], e["args"]["cause"], e["ts"])
                  for e in inst if e["cat"] == "lost")
    tap.ok(lost == [(0, "lost 9 events", 9, "ring full (stop mode) or frames lost", 1000000 + 300000 / 62.5),
                    (1, "lost 3 events", 3, "frames lost on the wire", 1000000 + (50 + 2000) / 62.5)],
           "chrome: one lost-events instant per hole, at the block after it, with its count "
           "and cause (none from the kind-6 record)", lost)
    opened = [e for e in ev if e["ph"] == "B"]
    tap.ok([(e["name"], e["tid"] - 1) for e in opened] == [("mid", 1)],
           "chrome: a call still open at the end is begun, never ended", opened)


def checks(tap, tool, tmp, update):
    good_hash = wire.elf(os.path.join(tmp, "good.elf"))
    wire.elf(os.path.join(tmp, "other.elf"), funcs=wire.FUNCS[:5] + [("helper2", 0x240, 0x40)])
    wire.elf(os.path.join(tmp, "x86.elf"), machine=62)
    wire.elf(os.path.join(tmp, "notables.elf"), tables=False)
    raw, text = wire.raw_log(good_hash)
    rawp, trace = os.path.join(tmp, "raw.log"), os.path.join(tmp, "trace.bt")
    with open(rawp, "wb") as f:
        f.write(raw)

    rc, out, err = run([tool, "capture", "--file", rawp, "-o", trace])
    tap.ok(rc == 0, "capture --file exits 0", err)
    tap.ok(out == text, "capture passes console text through unchanged", repr(out))
    # Counted as the target counts (frames it sent before its END frame);
    # the END frame and the console text are named apart.
    end = len(wire.escape(wire.payload(4, 0, 0, wire.end_totals(wire.END_TOTALS))))
    want = ("baretrace capture: 7 frames, 1 damaged, 2 sequence gaps, 22 events, 12 lost, "
            f"{len(raw) - len(text) - end} wire bytes in ")
    lines = err.splitlines()
    tap.ok(len(lines) == 2 and lines[0].startswith(want) and lines[0].endswith(
        f"-> {trace}; besides: the end-of-stream frame ({end} bytes), {len(text)} bytes of "
        "console text"),
           "capture summary: frames, damaged, gaps, events, lost (target + wire), bytes "
           "counted as the target counts them, END frame and console text apart", err)
    tap.ok(lines[-1] == "baretrace capture: target produced 34 events: 22 decoded + 7 lost on "
           "the target (0 overwritten, 7 stop mode, 0 discarded) + 5 lost on the wire",
           "capture summary: where the 34 produced events went, from the END totals", err)
    data = open(trace, "rb").read()
    n, at = 0, 8
    while at + 4 <= len(data):
        at += 4 + struct.unpack_from("<I", data, at)[0]
        n += 1
    tap.ok(data[:8] == b"BTRACE\0\1" and n == 8 and at == len(data),
           "the trace file is the magic and the 8 good frames", f"{n} frames, {at}/{len(data)}")

    rc, rep, err = run([tool, "report", trace])
    tap.ok(rc == 0, "report exits 0", err)
    golden(tap, "report_dump.txt", rep, update)
    rc, rep_elf, err = run([tool, "report", trace, "--elf", tmp + "/good.elf"])
    tap.ok(rc == 0 and err == "", "report --elf accepts the matching ELF silently", err)
    golden(tap, "report_elf.txt", rep_elf, update)
    rc, out, err = run([tool, "stats", trace])
    tap.ok(rc == 0, "stats exits 0", err)
    golden(tap, "stats.txt", out, update)

    folded = os.path.join(tmp, "out.folded")
    rc, out, err = run([tool, "export", "--format=folded", "-o", folded, trace,
                        "--elf", tmp + "/good.elf"])
    tap.ok(rc == 0, "export folded exits 0", err)
    golden(tap, "folded.txt", open(folded).read() if rc == 0 else "", update)

    js = os.path.join(tmp, "out.json")
    rc, out, err = run([tool, "export", "--format", "chrome-json", "-o", js, trace])
    tap.ok(rc == 0, "export chrome-json exits 0", err)
    try:
        doc = json.load(open(js))
        tap.ok(True, "chrome-json parses as JSON")
        chrome_checks(tap, doc)
    except (ValueError, OSError, KeyError, IndexError) as e:
        tap.ok(False, "chrome-json parses as JSON", e)

    ctf = os.path.join(tmp, "ctf")
    rc, out, err = run([tool, "export", "--format=ctf", "-o", ctf, trace])
    tap.ok(rc == 0 and sorted(os.listdir(ctf)) == ["metadata", "stream_0", "stream_1"],
           "export ctf writes metadata and one stream per CPU", err)
    count = [l for l in rep.splitlines() if l.startswith("# ") and l.endswith(" events")]
    reported = int(count[0].split()[1])
    markers = sum(1 for l in rep.splitlines() if "[LOST " in l)
    if shutil.which("babeltrace2"):
        rc, out, err = run(["babeltrace2", ctf])
        lines = out.splitlines()
        holes = [l for l in lines if "lost_events" in l]
        tap.ok(rc == 0 and len(lines) == reported + markers and len(holes) == 2
               and "count = 3" in holes[0] and "count = 9" in holes[1],
               f"babeltrace2 reads the CTF: {len(lines)} events, report counts {reported} "
               f"and {markers} loss markers", err + out)
        tap.ok(any("lttng_ust_cyg_profile:func_exit" in l and 'func = "outer"' in l and "retval = -5" in l
                   for l in lines), "babeltrace2 shows outer's exit with its retval", out)
        tap.ok(any("irq_entry" in l and "irq = 27" in l and 'name = "uart"' in l
                   and "delta = -3" in l for l in lines), "babeltrace2 shows tracepoint fields",
               out)
    else:
        print("# babeltrace2 not installed (apt-get install babeltrace2): CTF not read back")
    golden(tap, "babeltrace_count.txt", f"{reported}\n", update)

    # A trace with function entries only.
    entp, ent = os.path.join(tmp, "entries.log"), os.path.join(tmp, "entries.bt")
    with open(entp, "wb") as f:
        f.write(wire.raw_log_entries(good_hash))
    rc, out, err = run([tool, "capture", "--file", entp, "-o", ent])
    tap.ok(rc == 0 and out == "", "capture of an entry-only log", err)
    rc, out, err = run([tool, "stats", ent])
    tap.ok(rc == 0, "stats of an entry-only trace exits 0", err)
    golden(tap, "stats_entries.txt", out, update)
    rc, out, err = run([tool, "export", "--format=folded", "-o", folded, ent])
    tap.ok(rc == 0, "export folded of an entry-only trace exits 0", err)
    golden(tap, "folded_entries.txt", open(folded).read() if rc == 0 else "", update)
    rc, out, err = run([tool, "export", "--format=chrome-json", "-o", js, ent])
    ev = json.load(open(js))["traceEvents"] if rc == 0 else []
    tap.ok(rc == 0 and [e["ph"] for e in ev if e["ph"] != "M"] == ["i"] * 8,
           "chrome-json of an entry-only trace: 8 instants", ev)

    # Profile dumps, extension records, threshold exits, the SVG flame graph.
    import e2e_features  # it uses this file's encoder: imported once this one is
    e2e_features.checks(tap, tool, tmp, update, trace, ent, tmp + "/good.elf")
    # Holes, causes and totals; damaged files, same-file outputs, QEMU's end.
    import e2e_loss
    e2e_loss.checks(tap, tool, tmp, update)

    # Damage after capture: a trace cut inside its last frame still reads.
    cut = os.path.join(tmp, "cut.bt")
    with open(cut, "wb") as f:
        f.write(data[:-3])
    rc, out, err = run([tool, "report", cut])
    tap.ok(rc == 0 and err.count("cut short") == 1 and out.startswith(rep.splitlines()[0]),
           "a trace cut inside a frame reads up to it, with one warning", err)
    # A raw log cut inside a frame: the capture counts it and stays valid.
    with open(rawp + ".cut", "wb") as f:
        f.write(raw[:raw.index(b"\x02", 200) + 9])
    rc, out, err = run([tool, "capture", "--file", rawp + ".cut", "-o", cut])
    rc2, out2, _ = run([tool, "report", cut])
    tap.ok(rc == 0 and " 1 damaged" in err and "(no end-of-stream frame)" in err and rc2 == 0,
           "capture of a log cut mid-frame counts the cut frame, the file reads", err)
    # A stream format the tool does not know: one past wire.h's newest.
    with open(os.path.join(HERE, "..", "..", "wire", "wire.h")) as f:
        later = int(re.search(r"^#define WIRE_VERSION\s+(\d+)", f.read(), re.M).group(1)) + 1
    with open(rawp + ".vlater", "wb") as f:
        f.write(wire.raw_log(good_hash, version=later)[0])
    rc, out, err = run([tool, "capture", "--file", rawp + ".vlater", "-o", tmp + "/vlater.bt"])
    tap.ok(rc == 0 and f"stream format version {later}" in err,
           f"capture stores a version-{later} stream, warns", err)
    rc, out, err = run([tool, "report", tmp + "/vlater.bt"])
    tap.ok(rc == 1 and f"format version {later} is not supported" in err,
           "report refuses a stream version it does not know: exit 1", err)
    errors(tap, tool, tmp, trace, rawp)


def write_seeds(d):
    """Seeds for test/fuzz/fuzz_decoder.c, each a few hundred bytes."""
    os.makedirs(d, exist_ok=True)
    h = wire.bt_tables(wire.FUNCS, wire.SITES)[0]
    raw = wire.raw_log(zlib.crc32(h))[0]
    damaged = bytearray(raw)
    for i in range(40, len(damaged), 97):
        damaged[i] ^= 0x11
    seeds = {"capture.raw": raw, "entries.raw": wire.raw_log_entries(zlib.crc32(h)),
             "block-body": wire.cpu0_block0(), "damaged.raw": bytes(damaged),
             "metadata.raw": b"boot\n" + wire.escape(wire.payload(2, 0, 0, wire.metadata(1))) + b"ok\n"}
    import e2e_features
    seeds.update(e2e_features.seeds())
    import e2e_loss
    seeds.update(e2e_loss.seeds())
    for name, blob in seeds.items():
        with open(os.path.join(d, name), "wb") as f:
            f.write(blob)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--write-seeds":
        write_seeds(sys.argv[2])
        return 0
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    tool = os.path.abspath(sys.argv[1])
    update = "--update-golden" in sys.argv
    keep = sys.argv[sys.argv.index("--keep") + 1] if "--keep" in sys.argv else None
    tmp = keep or tempfile.mkdtemp(prefix="bt-e2e-")
    os.makedirs(tmp, exist_ok=True)
    tap = Tap()
    try:
        checks(tap, tool, tmp, update)
    finally:
        if not keep:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
