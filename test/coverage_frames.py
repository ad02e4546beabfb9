"""test/coverage_frames.py: the coverage frames (type 8, docs/wire.md 2.11)
read from the raw console bytes of a boot by this file itself, not by the
host tool: at the end of a trace=coverage run, and in the crash dump.
Sites are named by the run's own symbol frames (type 3, 2.3)."""
import os
import re
import struct
import subprocess
import zlib

from doc_costs import check_doc_costs
from harness import ROOT, boot, input_boot_cmd, make_var

STX, ETX, DLE, MASK = 0x02, 0x03, 0x10, 0xE0


def raw_boot(board, image_dir, bootargs, timeout=120):
    """(status or None, console bytes with the frames in them)."""
    cmd = ["tools/qemu-run", "--image", os.path.join(image_dir, "Image"),
           "--machine", make_var(board, "QEMU_MACHINE"), "--cpu", make_var(board, "QEMU_CPU"),
           "--smp", make_var(board, "QEMU_SMP"), "--mem", make_var(board, "QEMU_MEM"),
           "--bootargs", bootargs]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        return None, proc.communicate()[0]


def varint(b, i):
    v = shift = 0
    while True:
        v |= (b[i] & 0x7f) << shift
        shift += 7
        i += 1
        if not b[i - 1] & 0x80:
            return v, i


def frames(data):
    """(type, cpu, seq, body) of every frame whose CRC checks (section 1
    and 2: unescape, unmask, then type, cpu, seq, length, body, crc)."""
    out, i = [], 0
    while (i := data.find(bytes([STX]), i)) >= 0:
        end = data.find(bytes([ETX]), i + 1)
        if end < 0:
            break
        esc, p, k = data[i + 1:end], bytearray(), 0
        while k < len(esc):
            if esc[k] == DLE and k + 1 < len(esc):
                p.append(esc[k + 1] ^ 0x20)
                k += 2
            else:
                p.append(esc[k])
                k += 1
        if p and p[0] & 0x80:
            p = bytearray(c ^ MASK for c in p)
        i = end + 1
        if len(p) < 8 or zlib.crc32(bytes(p[:-4])) != struct.unpack_from("<I", p, len(p) - 4)[0]:
            continue
        seq, j = varint(p, 2)
        n, j = varint(p, j)
        out.append((p[0], p[1], seq, bytes(p[j:j + n])))
    return out


def site_names(fr):
    """Site number -> name from the symbol frames (type 3): front-coded
    names, each sharing its first bytes with the name before."""
    names = {}
    for t, _, _, b in fr:
        if t != 3:
            continue
        first, j = varint(b, 0)
        count, j = varint(b, j)
        prev = b""                          # each entry against the one before
        for s in range(first, first + count):
            _, j = varint(b, j)             # gap (wire.md 2.3, version 4)
            _, j = varint(b, j)             # size
            shared = b[j]
            ln, j = varint(b, j + 1)
            prev = prev[:shared] + b[j:j + ln]
            names[s] = prev.decode()
            j += ln
    return names


def reached(fr, ftype=8):
    """The sites set in the last complete set of coverage frames (type 8,
    or 9: the previous boot's), the number of frame sets, and the sites
    the frames cover."""
    bits, covered, sets = set(), 0, 0
    for t, cpu, _, b in fr:
        if t != ftype:
            continue
        first, j = varint(b, 0)
        nbits, j = varint(b, j)
        if first == 0:
            bits, covered, sets = set(), 0, sets + 1
        for k in range(nbits):
            if b[j + k // 8] >> (k % 8) & 1:
                bits.add(first + k)
        covered = max(covered, first + nbits)
    return bits, sets, covered


def check_coverage_frames(res, board, image_dir):
    st, out = raw_boot(board, image_dir, "panic=poweroff trace=coverage trace_filter=tt_* -- golden")
    fr = frames(out)
    names = site_names(fr)
    bits, sets, covered = reached(fr)
    got = sorted(names.get(s, f"#{s}") for s in bits)
    want = ["tt_alpha", "tt_args", "tt_beta", "tt_inner", "tt_outer"]
    text = out.decode(errors="replace")
    res.record("trace=coverage: the end of the run sends one set of type-8 frames over every "
               "site with exactly the tt_* functions the golden scenario called",
               st == 0 and sets == 1 and covered == len(names) > 0 and got == want,
               f"status {st}, {sets} sets, {covered} of {len(names)} sites, reached {got}\n"
               + text[-1500:])
    chosen = sum(1 for n in names.values() if n.startswith("tt_"))
    line = f"coverage: 5 of {chosen} functions reached ({len(names)} patchable)"
    res.record("trace=coverage: the console summary counts them and the chosen ones",
               line in text, f"wanted '{line}'\n" + text[-1500:])

    check_folders(res, image_dir, names, text)
    check_beside(res, board, image_dir)
    check_console(res, image_dir)
    check_break_key(res, board, image_dir)
    check_forgotten(res, board, image_dir)

    # Exact instruction counts need -icount (the PMU reads 0 without).
    st, out = boot(board, image_dir, "icount", "panic=poweroff -- ktest coverage_cost",
                   timeout=120)
    res.record("coverage under -icount: a covered function after its batch costs exactly "
               "what an untraced one costs",
               st == 0 and "ok 1 coverage_cost_after_the_first_hit_is_an_untraced_call\n" in out
               and "SKIP" not in out, out[-1500:])
    check_doc_costs(res, ["coverage_cost"], out)     # docs/coverage.md's cost table

    st, out = raw_boot(board, image_dir,
                       "panic=poweroff trace=coverage trace_filter=crash_*,tt_* -- crash null")
    fr = frames(out)
    names = site_names(fr)
    got = sorted(names.get(s, f"#{s}") for s in reached(fr)[0])
    check_prev_boot(res, board, image_dir)
    res.record("a crash sends the coverage frames with the crashing function reached",
               st == 139 and "crash_null_deref" in got and "tt_alpha" not in got,
               f"status {st}, reached {got}\n" + out.decode(errors="replace")[-1500:])


def map_folders(map_path):
    """Function name -> folder under obj/ ("app" for the application),
    from the '.text.NAME' input sections of the link map; names that
    occur in two folders are left out."""
    out, pending = {}, None
    for line in open(map_path, errors="replace"):
        m = re.match(r"^ \.text\.(\S+)(.*)$", line)
        if m:
            name, rest = m.group(1), m.group(2)
            if not rest.strip():
                pending = name
                continue
        elif pending:
            name, rest, pending = pending, line, None
        else:
            continue
        o = re.search(r"/obj/([^/\s]+)/\S+\.o\s*$", rest)
        if o:
            out.setdefault(name, set()).add(o.group(1))
    return {n: f.pop() for n, f in out.items() if len(f) == 1}


def check_folders(res, image_dir, names, text):
    """The per-folder lines of the summary (the target's table from
    tools/mktables_map.c) against the map read here: patchable sites of
    each folder, counted by name."""
    folders = map_folders(os.path.join(image_dir, "baretrace.1.elf.map"))
    want = {}
    for n in names.values():
        if n in folders:
            want[folders[n]] = want.get(folders[n], 0) + 1
    got = {m.group(1): int(m.group(2)) for m in
           re.finditer(r"coverage:   (\S+)\s+\d+ of\s+\d+ reached,\s+(\d+) patchable", text)}
    # A static function named in two folders is not counted here: the
    # target's count may only be higher, by those.
    ok = bool(got) and set(got) >= set(want) and sum(got.values()) == len(names) and \
        all(got[f] >= want[f] for f in want) and \
        sum(got[f] - want.get(f, 0) for f in got) == len(names) - sum(want.values())
    res.record("coverage summary per folder: each folder's patchable sites as the link map "
               f"says ({', '.join(f'{f} {n}' for f, n in sorted(got.items()))})",
               ok, f"target {got}, map {want}, {len(names)} sites")


def check_prev_boot(res, board, image_dir):
    """The reset scenario (test/target/scenario_reset.c) under coverage: the
    first boot reaches rs_alpha, rs_beta, rs_spin (CPU 1) and rs_last and
    resets with no drain; the second boot sends those as type 9 right
    after the previous boot's summary (type 7), and its own rs_after as
    type 8 at its end."""
    st, out = raw_boot(board, image_dir,
                       "panic=poweroff trace=coverage trace_filter=rs_* -- reset", timeout=200)
    fr = frames(out)
    names = site_names(fr)
    prev = sorted(names.get(s, f"#{s}") for s in reached(fr, 9)[0])
    now = sorted(names.get(s, f"#{s}") for s in reached(fr, 8)[0])
    types = [t for t, _, _, _ in fr]
    after_info = 7 in types and types[types.index(7) + 1:types.index(7) + 2] == [9]
    res.record("coverage across a reset: the next boot sends the previous boot's bits (type 9) "
               "right after its summary, its own (type 8) at its end",
               st == 0 and prev == ["rs_alpha", "rs_beta", "rs_last", "rs_spin"] and
               now == ["rs_after"] and after_info,
               f"status {st}, type 9 {prev}, type 8 {now}, types {types}\n" +
               out.decode(errors="replace")[-1500:])


def strip_times(report):
    """A report's events without their timestamps, and its header."""
    return [re.sub(r"^\[(\d{3})\] [+\d.]+:", r"[\1]", ln) for ln in report.splitlines()
            if ln.startswith("[")]


def check_beside(res, board, image_dir):
    """trace_coverage= beside the function tracer on the same sites: the
    coverage bits are the tt_* functions the golden scenario called, and
    the tracer still records every call, as test/golden/function.txt
    lists them (times aside: the coverage ops on a shared site goes
    through the list trampoline, and its first hits cost instructions)."""
    st, out = raw_boot(board, image_dir, "panic=poweroff trace=function trace_filter=tt_* "
                       "trace_coverage=tt_* -- golden")
    fr = frames(out)
    names = site_names(fr)
    got = sorted(names.get(s, f"#{s}") for s in reached(fr)[0])
    raw = os.path.join(ROOT, "build", "host", "beside.raw")
    with open(raw, "wb") as f:
        f.write(out)
    tool = os.path.join(ROOT, "build", "host", "baretrace")
    subprocess.run([tool, "capture", "--file", raw, "-o", raw + ".bt"], cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, timeout=60)
    rep = subprocess.run([tool, "report", raw + ".bt", "--elf", os.path.join(image_dir, "baretrace.elf")],
                         cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
    with open(os.path.join(ROOT, "test", "golden", "function.txt")) as f:
        want = strip_times(f.read())
    events = strip_times(rep)
    res.record("trace_coverage=tt_* beside trace=function on the same sites: coverage has "
               "the 5 tt_* functions called, the tracer every call of test/golden/function.txt",
               st == 0 and got == ["tt_alpha", "tt_args", "tt_beta", "tt_inner", "tt_outer"]
               and events == want and len(want) == 15,
               f"status {st}, reached {got}\n--- events:\n" + "\n".join(events) +
               "\n--- golden:\n" + "\n".join(want))
    st, out = boot(board, image_dir, "direct", "panic=poweroff trace=coverage trace_coverage=* "
                   "-- golden")
    res.record("trace=coverage with trace_coverage= is refused, exit 2, before main()",
               st == 2 and "trace_coverage= is coverage beside another tracer" in out
               and "not applied: trace_coverage" in out and "baretrace: main()" not in out,
               out[-1500:])


def check_console(res, image_dir):
    """The 'coverage' console command after a trace_coverage=tt_* boot ran
    the golden scenario (5 of the 14 tt_* functions): the summary, a
    second 'on' refused, 'off' keeping the bits, bad globs and words
    refused with nothing changed, a new 'on' starting from nothing."""
    import harness as h
    from trace_scenarios import console_session
    nm = subprocess.run(["aarch64-linux-gnu-nm", os.path.join(image_dir, "baretrace.elf")],
                        capture_output=True, text=True).stdout
    funcs = re.findall(r"^[0-9a-f]+ [tT] (tt_\w+)$", nm, re.M)    # every one has a site
    chosen, al = len(funcs), sum(f.startswith("tt_al") for f in funcs)
    session = [
        (b"coverage", rf"^coverage: 5 of {chosen} functions reached"),
        (b"coverage on tt_*", r"^coverage: already on \('coverage off' first\)"),
        (b"coverage off", None),
        (b"coverage", rf"^bt> coverage\ncoverage: 5 of {chosen} functions reached \(\d+ patchable\), "
                      r"0 waiting"),
        (b"coverage on [bad", r"^coverage: invalid glob"),
        (b"coverage bogus", r"^coverage: on \[GLOB\.\.\.\], off, send, or nothing for the summary"),
        (b"coverage on tt_al*", rf"^coverage: on, {al} functions"),
        (b"coverage", rf"^bt> coverage\ncoverage: 0 of {al} functions reached"),
        (b"coverage send", None),
        (b"exit 0", rf"^coverage: 0 of {al} functions reached"),
    ]
    keys = b"".join(k + b"\n" for k, _ in session)
    st, out = console_session(h, image_dir, "panic=poweroff trace_coverage=tt_* shell -- golden", keys)
    out = re.sub("\x02[^\x03]*\x03", "", out)
    missing = [k.decode() for k, p in session if p and not re.search(p, out, re.M)]
    res.record(f"console 'coverage': {len(session)} commands, the summary of {chosen} tt_* "
               "functions, refusals that change nothing, off keeps the bits, on starts anew",
               st == 0 and not missing and chosen > 5,
               out[-3000:] + f"\nstatus {st}, unmatched: {missing}")


def check_break_key(res, board, image_dir):
    """The break key (Ctrl-\\ twice) while CPUs 0 and 1 spin under
    trace=coverage: the break report carries a set of type-8 frames with
    the two spinning functions reached, and the run goes on to its own
    set at the end."""
    cmd = ["tools/qemu-run", "--image", os.path.join(image_dir, "Image"), "--smp", "4",
           "--bootargs", "panic=poweroff trace=coverage -- spin 3"]
    st, out = input_boot_cmd(cmd, "spin: CPUs 0 and 1 spin", b"\x1c\x1c", raw=True)
    start = out.find(b"==== baretrace break on CPU 0")
    end = out.find(b"==== end of break report", start)
    fr = frames(out[start:end]) if 0 <= start < end else []
    names = site_names(frames(out))
    got = sorted(names.get(s, f"#{s}") for s in reached(fr)[0])
    sets_at_end = reached(frames(out[end:]))[1] if end > 0 else 0
    res.record("break key under trace=coverage: the report sends the bits, with the spinning "
               "hang_spin_main and hang_spin_other reached, and the run ends with its own set",
               st == 0 and reached(fr)[1] == 1 and {"hang_spin_main", "hang_spin_other"} <= set(got)
               and sets_at_end == 1,
               f"status {st}, report at {start}..{end}, reached in it {got[:30]}, "
               f"sets after it {sets_at_end}\n" + out[-1500:].decode(errors="replace"))


def check_forgotten(res, board, image_dir):
    """A plain KTAP run of the coverage suite, whose tests turn coverage
    on and off and then forget it (trace_coverage_forget): no coverage
    frames at its end, so a farm or CI reading the trace does not take
    it for a coverage run."""
    st, out = raw_boot(board, image_dir, "panic=poweroff -- ktest coverage_")
    text = out.decode(errors="replace").replace("\r", "")
    types = [t for t, _, _, _ in frames(out)]
    res.record("the coverage suite forgets what it ran: a plain 'ktest coverage_' run sends no "
               "coverage frames (type 8) and prints no summary",
               st == 0 and re.search(r"^# ktest: \d+ tests, 0 failed$", text, re.M) and 8 not in types
               and "coverage: " not in text and 4 in types,
               f"status {st}, frame types {sorted(set(types))}\n" + text[-1500:])
