"""test/probe_boot.py: probes from the kernel command line (trace_probe=,
trace/control/probe_ctl.c) on the test image: planted before main() where
the ELF says the probed instruction is, several in one word; their records
captured and shown by the host by name and type (report, Chrome JSON,
CTF read by babeltrace2, trace-cmd's kprobe-style events read by
trace-cmd report); a
probe on an instruction that reads the PC, one inside an exclusive
sequence (the test's own and newlib's lock), and a malformed one, each
refused with its reason and the run ended before main(). Return probes
(SYMBOL%return, $retval) the same way, and refused on a function without
a patch site."""
import json
import os
import re
import subprocess

from harness import HOST, ROOT, boot, expect, run


def offsets(image_dir):
    """{name: address} of the test's probe functions and labels (nm)."""
    nm = subprocess.run(["aarch64-linux-gnu-nm", os.path.join(image_dir, "baretrace.elf")],
                        capture_output=True, text=True).stdout
    return {m.group(2): int(m.group(1), 16)
            for m in re.finditer(r"^([0-9a-f]+) [tT] (pb_\w+)$", nm, re.M)}


def check_probe_boot(res, board, image_dir):
    a = offsets(image_dir)
    need = ["pb_mt", "pb_mt_at", "pb_add", "pb_add_at", "pb_refused", "pb_adrp_at",
            "pb_excl", "pb_excl_add_at"]
    if any(n not in a for n in need):
        res.record("probe boot: the test's probe labels are in the ELF", False, str(a))
        return
    mt, add = a["pb_mt_at"] - a["pb_mt"], a["pb_add_at"] - a["pb_add"]
    args = (f"panic=poweroff trace_probe=bp=pb_mt+{mt},x2:u32,sum=x3:s32;"
            f"bq=pb_add+0x{add:x},a=x2:u8,b=x3:x32 -- ktest probe_boot")
    st, out = boot(board, image_dir, "direct", args)
    expect(res, "probe boot: trace_probe= plants two probes in one word before main()",
           st, out, present=[r"^ok \d+ probe_boot_planted_probes_count_and_fetch$"])
    check_probe_report(res, board, image_dir, args)
    check_return_probe_boot(res, board, image_dir)
    adrp = a["pb_adrp_at"] - a["pb_refused"]
    st, out = boot(board, image_dir, "direct",
                   f"panic=poweroff trace_probe=bad=pb_refused+{adrp} -- ktest probe_boot")
    expect(res, "probe boot: a probe on ADRP is refused with its reason, the run ends",
           st, out, status=2,
           present=[rf"^probe: bad at pb_refused\+0x{adrp:x}: an address relative to the PC "
                    r"\(ADR, ADRP\); nothing planted$", r"trace: not applied: trace_probe"],
           absent=[r"^ok 1"])
    check_exclusive_boot(res, board, image_dir, a)
    st, out = boot(board, image_dir, "direct",
                   "panic=poweroff trace_probe=p=pb_mt+6 -- ktest probe_boot")
    expect(res, "probe boot: a malformed trace_probe= is named and the run ends",
           st, out, status=2,
           present=[r"trace_probe: 'p=pb_mt\+6': the offset is not a multiple of 4"],
           absent=[r"^ok 1"])


EXCLUSIVE_WHY = (r"inside an exclusive sequence \(from a load-exclusive to its "
                 r"store-exclusive\): the probe's exception clears the monitor, so the "
                 r"store-exclusive would fail every time; nothing planted$")
LOAD_EXCLUSIVE = re.compile(r"^\s*([0-9a-f]+):\s+[0-9a-f]{8}\s+ld(a?)x(r[bh]?|p)\s")
STORE_EXCLUSIVE = re.compile(r"^\s*([0-9a-f]+):\s+[0-9a-f]{8}\s+st(l?)x(r[bh]?|p)\s")


def inside_exclusive(image_dir, func):
    """The offset in func of the first word strictly between a
    load-exclusive and the store-exclusive after it, read from the
    disassembly (objdump), or None."""
    dis = subprocess.run(["aarch64-linux-gnu-objdump", "-d", f"--disassemble={func}",
                          os.path.join(image_dir, "baretrace.elf")],
                         capture_output=True, text=True).stdout
    start = re.search(rf"^([0-9a-f]+) <{re.escape(func)}>:$", dis, re.M)
    ldx = None
    for line in dis.splitlines():
        if LOAD_EXCLUSIVE.match(line):
            ldx = int(LOAD_EXCLUSIVE.match(line).group(1), 16)
        elif STORE_EXCLUSIVE.match(line) and ldx is not None:
            stx = int(STORE_EXCLUSIVE.match(line).group(1), 16)
            if start and stx - ldx >= 8:
                return ldx + 4 - int(start.group(1), 16)
            ldx = None
    return None


def check_exclusive_boot(res, board, image_dir, a):
    """issue 39: a probe between a load-exclusive and its store-exclusive
    is refused with its reason and the run ends before main(); planted,
    the store-exclusive would fail on every pass and the CPU loop: the
    test's own atomic add (ktest probe_boot_exclusive_sequence_runs calls
    it if the probe got through: the run then hangs, and QEMU is killed
    after 60 s) and newlib's lock, a real function of the image."""
    add = a["pb_excl_add_at"] - a["pb_excl"]
    st, out = boot(board, image_dir, "direct",
                   f"panic=poweroff trace_probe=bx=pb_excl+{add},x0 -- ktest probe_boot",
                   timeout=60)
    expect(res, "probe boot: a probe inside an exclusive sequence is refused with its "
           "reason, the run ends (not hangs)", st, out, status=2,
           present=[rf"^probe: bx at pb_excl\+0x{add:x}: " + EXCLUSIVE_WHY,
                    r"trace: not applied: trace_probe"],
           absent=[r"^ok 1", r"^not ok"])
    func = "__retarget_lock_acquire_recursive"
    off = inside_exclusive(image_dir, func)
    if off is None:
        res.record(f"probe boot: {func} has a word inside an exclusive sequence", False,
                   "none found by objdump")
        return
    st, out = boot(board, image_dir, "direct",
                   f"panic=poweroff trace_probe=bn={func}+{off} -- ktest probe_boot",
                   timeout=60)
    expect(res, f"probe boot: a probe inside newlib's lock ({func}+0x{off:x}) is refused "
           "with its reason, the run ends", st, out, status=2,
           present=[rf"^probe: bn at {func}\+0x{off:x}: " + EXCLUSIVE_WHY],
           absent=[r"^ok 1"])


def check_probe_report(res, board, image_dir, bootargs):
    """The same boot under a capture: report prints each hit with its
    fields by name and type, the Chrome export has them as args, the CTF
    export a class per probe that babeltrace2 reads."""
    st, out = run(["make", "-s", f"BOARD={board}", "build/host/baretrace"])
    if st != 0:
        res.record("probe report: the host tool builds", False, out)
        return
    tool, bt = os.path.join(HOST, "baretrace"), os.path.join(HOST, "probe_boot.bt")
    st, out = run(["tools/qemu-run", "--image", os.path.join(image_dir, "Image"),
                   "--bootargs", bootargs, "--capture", bt], timeout=120)
    rep = subprocess.run([tool, "report", bt, "--elf", os.path.join(image_dir, "baretrace.elf")],
                         cwd=ROOT, capture_output=True, text=True, timeout=60).stdout
    lines = [l.split(": ", 1)[1] for l in rep.splitlines() if ": probe " in l]
    want = ["probe bp: x2=5 sum=6", "probe bp: x2=7 sum=8", "probe bq: a=1 b=0x2"]
    res.record("probe report: each hit of a trace_probe= boot by name and type, in order",
               st == 0 and lines == want, f"status {st}, lines {lines}\n{rep[-3000:]}\n{out[-2000:]}")
    js = os.path.join(HOST, "probe_boot.json")
    subprocess.run([tool, "export", "--format=chrome-json", "-o", js, bt, "--elf",
                    os.path.join(image_dir, "baretrace.elf")], cwd=ROOT,
                   capture_output=True, text=True, timeout=60)
    try:
        with open(js) as f:
            evs = json.load(f)
        evs = evs.get("traceEvents", evs) if isinstance(evs, dict) else evs
        got = [(e["name"], e.get("args")) for e in evs if e.get("cat") == "probe"]
    except (OSError, ValueError, KeyError) as e:
        got = [repr(e)]
    res.record("probe report: Chrome JSON has each hit as an instant event, fields as args",
               got == [("probe bp", {"x2": "5", "sum": "6"}), ("probe bp", {"x2": "7", "sum": "8"}),
                       ("probe bq", {"a": "1", "b": "0x2"})], str(got))
    ctf = os.path.join(HOST, "probe_boot.ctf")
    subprocess.run([tool, "export", "--format=ctf", "-o", ctf, bt, "--elf",
                    os.path.join(image_dir, "baretrace.elf")], cwd=ROOT,
                   capture_output=True, text=True, timeout=60)
    st, out = run(["babeltrace2", ctf], timeout=60)
    got = [re.sub(r".*\{ (faulted = .*) \}$", r"\1", l) for l in out.splitlines() if " probe:" in l]
    res.record("probe report: the CTF export read by babeltrace2 has a class per probe, "
               "fields by name and type",
               st == 0 and got == ["faulted = 0, x2 = 5, sum = 6", "faulted = 0, x2 = 7, sum = 8",
                                   "faulted = 0, a = 1, b = 0x2"]
               and sum(" probe:bp:" in l for l in out.splitlines()) == 2, f"{got}\n{out[-2000:]}")
    dat = os.path.join(HOST, "probe_boot.dat")
    subprocess.run([tool, "export", "--format=trace-cmd", "-o", dat, bt, "--elf",
                    os.path.join(image_dir, "baretrace.elf")], cwd=ROOT,
                   capture_output=True, text=True, timeout=60)
    st, out = run(["trace-cmd", "report", dat], timeout=60)
    got = [re.sub(r".*\s(b[pq]):\s+\([0-9a-f]+\) ", r"\1: ", l) for l in out.splitlines()
           if re.search(r"\sb[pq]:\s+\(", l)]
    res.record("probe report: trace-cmd report reads the .dat's kprobes events, fields by name",
               st == 0 and got == ["bp: x2=5 sum=6", "bp: x2=7 sum=8", "bq: a=1 b=0x2"],
               f"{got}\n{out[-2000:]}")


def exports(bt, image_dir, name):
    """(report text, Chrome events of category probe, babeltrace2 lines,
    trace-cmd report lines) of capture bt."""
    tool, elf = os.path.join(HOST, "baretrace"), os.path.join(image_dir, "baretrace.elf")
    rep = subprocess.run([tool, "report", bt, "--elf", elf], cwd=ROOT, capture_output=True,
                         text=True, timeout=60).stdout
    js, ctf, dat = (os.path.join(HOST, name + ext) for ext in (".json", ".ctf", ".dat"))
    for fmt, out in (("chrome-json", js), ("ctf", ctf), ("trace-cmd", dat)):
        subprocess.run([tool, "export", "--format=" + fmt, "-o", out, bt, "--elf", elf],
                       cwd=ROOT, capture_output=True, text=True, timeout=60)
    try:
        with open(js) as f:
            evs = json.load(f)
        evs = evs.get("traceEvents", evs) if isinstance(evs, dict) else evs
        chrome = [(e["name"], e.get("args")) for e in evs if e.get("cat") == "probe"]
    except (OSError, ValueError, KeyError) as e:
        chrome = [repr(e)]
    _, babel = run(["babeltrace2", ctf], timeout=60)
    _, tcmd = run(["trace-cmd", "report", dat], timeout=60)
    return rep, chrome, babel.splitlines(), tcmd.splitlines()


def check_return_probe_boot(res, board, image_dir):
    """Two return probes from trace_probe=, one fetching memory at the
    returned pointer: ktest probe_boot_planted_return_probes_count calls
    pb_mt(5, 6), pb_mt(7, 8) and pb_ret_ptr(2); each return shows with what
    the function returned in the report and every export."""
    args = ("panic=poweroff trace_probe=br=pb_mt%return,$retval:u32;"
            "bw=pb_ret_ptr%return,w=+0($retval):x32,v=+4($retval):u32 -- ktest probe_boot")
    bt = os.path.join(HOST, "retprobe_boot.bt")
    st, out = run(["tools/qemu-run", "--image", os.path.join(image_dir, "Image"),
                   "--bootargs", args, "--capture", bt], timeout=120)
    expect(res, "return probe boot: trace_probe= plants two return probes before main()",
           st, out, present=[r"ok \d+ probe_boot_planted_return_probes_count\r?$"],
           absent=[r"not ok"])
    rep, chrome, babel, tcmd = exports(bt, image_dir, "retprobe_boot")
    lines = [l.split(": ", 1)[1] for l in rep.splitlines() if ": probe " in l]
    res.record("return probe report: each return by name, $retval and memory at it",
               lines == ["probe br (return): retval=11", "probe br (return): retval=15",
                         "probe bw (return): w=0xdeadbeef v=1145324612"],
               f"{lines}\n{rep[-2000:]}")
    res.record("return probe report: Chrome JSON has each return as an instant event",
               chrome == [("probe br", {"retval": "11"}), ("probe br", {"retval": "15"}),
                          ("probe bw", {"w": "0xdeadbeef", "v": "1145324612"})], str(chrome))
    got = [re.sub(r".*\{ (faulted = .*) \}$", r"\1", l) for l in babel if " probe:" in l]
    res.record("return probe report: babeltrace2 reads them from the CTF export",
               got == ["faulted = 0, retval = 11", "faulted = 0, retval = 15",
                       "faulted = 0, w = 0xDEADBEEF, v = 1145324612"], str(got))  # babeltrace2's hex
    got = [re.sub(r".*\s(b[rw]):\s+\([0-9a-f]+\) ", r"\1: ", l) for l in tcmd
           if re.search(r"\sb[rw]:\s+\(", l)]
    res.record("return probe report: trace-cmd report reads them from the .dat",
               got == ["br: retval=11", "br: retval=15", "bw: w=0xdeadbeef v=1145324612"],
               str(got))
    st, out = boot(board, image_dir, "direct",
                   "panic=poweroff trace_probe=bad=ring_reserve%return -- ktest probe_boot")
    expect(res, "return probe boot: a function without a patch site is refused, the run ends",
           st, out, status=2,
           present=[r"^probe: bad at ring_reserve%return: the function has no patch site"],
           absent=[r"^ok 1"])
