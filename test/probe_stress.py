"""test/probe_stress.py: the probe stress test (issue 39), run by the
thirdparty stage (it needs mbed TLS's source). test/apps/probe_stress
plants a probe on each instruction, in turn, of 53 functions of the
demo, of mbed TLS and of the locks, runs the workload that calls them,
and checks on the target that the workload's results are the unprobed
run's, that the instruction is back after removal and that every hit
left exactly one record in the rings (sweep.c). Here, from its lines and
the image's disassembly (baretrace.lst, objdump's, not the target's
decoder):

  icount  `-icount shift=0,sleep=off`, CPU 0 runs each slice: exit 0, no
          failure, every offset of every function tried once; every
          branch, PC-relative, exclusive and exception-generating
          instruction and the patch site refused; no address inside a
          load-exclusive/store-exclusive window accepted; hits equal
          within each basic block; the entry block's hits equal the
          calls an ops counted on the function's patch site
  mttcg   `-accel tcg,thread=multi`, every CPU runs each slice at once
          (the demo's and the locks' groups: a stop costs about 9 ms of
          host time there): exit 0, no failure (the locks' shared
          counters included; a ring a waiting CPU filled must count each
          hit it could not take as the probe does), and each of the
          demo's hit counts four times the icount run's, each of the
          locks' at least that (contention only adds turns of the wait
          loops)

About 35 s once built.
"""
import os
import re

APP = "test/apps/probe_stress"
MT_GROUPS = "demo lock"
FUNC_RE = re.compile(r"^ps-func (\S+) (\S+) 0x[0-9a-f]+ size (\d+) calls (\d+)$", re.M)
OFF_RE = re.compile(r"^ps (\S+) (\S+) 0x([0-9a-f]+) (hits|refused) ?(.*)$", re.M)
TOTAL_RE = re.compile(r"^probe-stress: (\d+) functions, (\d+) offsets: (\d+) accepted, "
                      r"(\d+) refused; (\d+) hits \((\d+) unrecorded: rings full\); "
                      r"(\d+) failures; (\d+) us$", re.M)
BRANCH = {"b", "bl", "cbz", "cbnz", "tbz", "tbnz", "br", "blr", "ret", "eret"}
ENDS_BLOCK = {"b", "cbz", "cbnz", "tbz", "tbnz", "br", "ret", "eret"}
EXCEPTION = {"svc", "hvc", "smc", "brk", "hlt", "udf", "dcps1", "dcps2", "dcps3"}


def boot(h, image_dir, flags, args):
    cmd = ["tools/qemu-run", "--image", os.path.join(image_dir, "Image"), "--machine", "virt",
           "--cpu", "cortex-a72", "--smp", "4", "--mem", "512M", "--qemu-flags", flags,
           "--bootargs", f"panic=poweroff lockup_action=continue -- {args}".strip()]
    st, out = h.run(cmd, timeout=900)
    return st, h.strip_frames(out).replace("\r", "")


def parse(out):
    """{func: (group, size, calls)}, {(func, off): (what, value)}, totals."""
    funcs = {m.group(2): (m.group(1), int(m.group(3)), int(m.group(4)))
             for m in FUNC_RE.finditer(out)}
    offs = {}
    for m in OFF_RE.finditer(out):
        key = (m.group(2), int(m.group(3), 16))
        val = int(m.group(5).split()[0]) if m.group(4) == "hits" else m.group(5)
        offs[key] = offs.get(key, []) + [(m.group(4), val)]
    t = TOTAL_RE.search(out)
    return funcs, offs, [int(x) for x in t.groups()] if t else None


def listing(path, names):
    """{func: [(offset, mnemonic, operands, target offset or None)]} from
    the build's disassembly, for the functions named."""
    funcs, cur, base = {}, None, 0
    head = re.compile(r"^([0-9a-f]+) <(.+)>:$")
    line = re.compile(r"^\s*([0-9a-f]+):\s+[0-9a-f]{8}\s+(\S+)\s*(.*)$")
    with open(path) as f:
        for ln in f:
            m = head.match(ln)
            if m:
                cur = m.group(2) if m.group(2) in names else None
                base = int(m.group(1), 16)
                if cur:
                    funcs[cur] = []
                continue
            m = line.match(ln) if cur else None
            if m:
                ops = m.group(3).split("//")[0].strip()
                t = re.search(r"\b([0-9a-f]+) <", ops)
                funcs[cur].append((int(m.group(1), 16) - base, m.group(2), ops,
                                   int(t.group(1), 16) - base if t else None))
    return funcs


def must_refuse(mn, ops):
    """objdump's word for a class the planting check refuses, or None."""
    base = mn.split(".")[0]
    if base in BRANCH or mn.startswith(("b.", "bc.")):
        return "branch"
    if mn in ("adr", "adrp") or (mn in ("ldr", "ldrsw", "prfm") and "[" not in ops):
        return "reads the PC"
    if re.match(r"^(ld|st)(a|l)?x[rp]", mn):
        return "exclusive"
    if mn in EXCEPTION:
        return "exception"
    return None


def windows(insns):
    """Offsets strictly between a load-exclusive and its store-exclusive."""
    inside, out = False, set()
    for off, mn, _, _ in insns:
        if re.match(r"^lda?x[rp]", mn):
            inside = True
        elif re.match(r"^stl?x[rp]", mn):
            inside = False
        elif inside:
            out.add(off)
    return out


def block_problems(name, insns, hits, calls):
    """Hits that differ inside a basic block, and an entry block whose hits
    are not the calls (functions without a register branch: a jump
    table's targets are not in the listing)."""
    if any(mn == "br" for _, mn, _, _ in insns):
        return []
    starts = {t for _, _, _, t in insns if t is not None and 0 <= t < 4 * len(insns)}
    bad, block, entry = [], [], True
    for off, mn, _, _ in insns:
        if off in starts and off >= 8:
            entry = False
            block = []
        if off >= 8 and off in hits:
            if block and hits[off] != hits[block[0]]:
                bad.append(f"{name}+0x{off:x}: {hits[off]} hits, +0x{block[0]:x} {hits[block[0]]}")
            if entry and hits[off] != calls:
                bad.append(f"{name}+0x{off:x}: entry block, {hits[off]} hits for {calls} calls")
            block.append(off)
        if mn.split(".")[0] in ENDS_BLOCK or mn.startswith("b."):
            entry = False
            block = []
    return bad


def check_icount(h, res, image_dir, lst):
    st, out = boot(h, image_dir, "-icount shift=0,sleep=off", "")
    funcs, offs, tot = parse(out)
    fails = re.findall(r"^ps-fail .*$", out, re.M)
    res.record(f"probe stress (icount): {tot[0] if tot else '?'} functions, {tot[1] if tot else '?'} "
               f"offsets, {tot[2] if tot else '?'} probes accepted and run: every result the "
               f"unprobed run's, every hit recorded ({tot[4] if tot else '?'} hits), exit 0",
               st == 0 and tot is not None and tot[6] == 0 and tot[5] == 0 and not fails
               and len(funcs) == tot[0] and tot[2] > 0, f"{out[-3000:]}\nexit {st}; {fails[:10]}")
    if tot is None:
        return None
    dis = listing(lst, set(funcs))
    for name, (_, size, _) in funcs.items():  # the padding and the next literal out
        dis[name] = [i for i in dis.get(name, []) if i[0] < size]
    problems = []
    for name, (_, size, _) in funcs.items():
        want = list(range(0, size, 4))
        got = sorted(off for (f, off) in offs if f == name)
        if got != want or any(len(offs[(name, o)]) != 1 for o in got):
            problems.append(f"{name}: offsets tried {len(got)} (some twice?), want 0..{size - 4}")
        if [o for o, _, _, _ in dis.get(name, [])] != want:
            problems.append(f"{name}: the listing's instructions are not its {size // 4}")
    acc = sum(1 for v in offs.values() if v[0][0] == "hits")
    res.record(f"probe stress (icount): each function's every offset tried once, as the "
               f"listing has them; the totals line agrees ({acc} accepted, "
               f"{sum(v[0][1] for v in offs.values() if v[0][0] == 'hits')} hits)",
               not problems and acc == tot[2] and len(offs) == tot[1]
               and sum(v[0][1] for v in offs.values() if v[0][0] == "hits") == tot[4],
               "\n".join(problems[:20]))
    wrong, excl, nexcl, classes = [], [], 0, {}
    for name, insns in dis.items():
        win = windows(insns)
        nexcl += len(win)
        for off, mn, ops, _ in insns:
            what = offs.get((name, off), [("?", "")])[0][0]
            cls = "patch site" if off < 8 else must_refuse(mn, ops)
            if cls:
                classes[cls] = classes.get(cls, 0) + 1
            if cls and what != "refused":
                wrong.append(f"{name}+0x{off:x} {mn} {ops}: {what}, a {cls} must be refused")
            if off in win and what != "refused":
                excl.append(f"{name}+0x{off:x} {mn}: {what} inside an exclusive window")
    res.record(f"probe stress (icount): refused as they must be: {classes}", not wrong,
               "\n".join(wrong[:20]))
    res.record(f"probe stress (icount): every address inside a load/store-exclusive window "
               f"refused ({nexcl} such instructions)", nexcl > 0 and not excl, "\n".join(excl))
    bad = []
    for name, insns in dis.items():
        hits = {off: v[0][1] for (f, off), v in offs.items() if f == name and v[0][0] == "hits"}
        bad += block_problems(name, insns, hits, funcs[name][2])
    hit = sum(1 for v in offs.values() if v[0][0] == "hits" and v[0][1] > 0)
    res.record(f"probe stress (icount): hits equal within each basic block, the entry "
               f"block's equal to the calls an ops counted ({hit} of {acc} probes hit)",
               not bad and hit > acc // 2, "\n".join(bad[:20]))
    return offs, funcs


def check_mttcg(h, res, image_dir, icount):
    st, out = boot(h, image_dir, "-accel tcg,thread=multi", f"mt {MT_GROUPS}")
    funcs, offs, tot = parse(out)
    fails = re.findall(r"^ps-fail .*$", out, re.M)
    groups = set(MT_GROUPS.split())
    res.record(f"probe stress (mttcg, 4 CPUs at once): {tot[1] if tot else '?'} offsets of the "
               f"{MT_GROUPS} groups, every result the unprobed run's, the locks' shared "
               f"counters exact, every hit recorded or, when a CPU waiting for a lock "
               f"filled its ring, counted by the probe and the ring alike "
               f"({tot[4] if tot else '?'} hits, {tot[5] if tot else '?'} unrecorded), exit 0",
               st == 0 and tot is not None and tot[6] == 0 and not fails and tot[2] > 0,
               f"{out[-3000:]}\nexit {st}; {fails[:10]}")
    if icount is None or tot is None:
        return
    ioffs, ifuncs = icount
    bad = []
    for (name, off), v in ioffs.items():
        if ifuncs[name][0] not in groups:
            continue
        got = offs.get((name, off), [("missing", "")])[0]
        if v[0][0] != got[0]:
            bad.append(f"{name}+0x{off:x}: {got[0]} here, {v[0][0]} under icount")
        elif got[0] == "hits" and not (got[1] == 4 * v[0][1] or
                                       (ifuncs[name][0] == "lock" and got[1] >= 4 * v[0][1])):
            bad.append(f"{name}+0x{off:x}: {got[1]} hits, {v[0][1]} under icount on one CPU")
    res.record("probe stress (mttcg): the same probes accepted as under icount, each with four "
               "times its hits (the locks' wait loops at least)", not bad, "\n".join(bad[:20]))


def check(h, res):
    st, out = h.run(["make", f"APP={APP}"], timeout=900)
    res.record(f"probe stress: make APP={APP} builds", st == 0, out)
    if st != 0:
        return
    image_dir = h.make_dir("qemu-virt", APP)
    icount = check_icount(h, res, image_dir, os.path.join(image_dir, "baretrace.lst"))
    check_mttcg(h, res, image_dir, icount)
