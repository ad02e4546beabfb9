"""test/readme_probes.py: the checks of docs/probes.md's examples, each a
`make ... run` line with probes in BOOTARGS ('$retval', ';' between
probes: what make, the shell and U-Boot's shell must carry as typed).
Each compares the probes' events with what the demo computes or prints
about itself, never with values written here."""
import binascii
import os
import re

from readme_asking import demo_said, run_trace_text
from readme_run import match_output, run_example

FSM_STATES = ["idle", "warming", "measuring", "alarm", "cooldown"]


def check_probe_two(h, res, board, code, output):
    """Two probes in one trace_probe=, separated by ';': an instruction
    probe on fsm_step (the machine's state before the step) and a return
    probe ($retval: the state after it). Each call hits both, and each
    return's state is what the next call's st reads."""
    st, out = run_example(h, code)
    miss = match_output(output or "", out)
    said = demo_said(out)
    trace = run_trace_text(h)
    hits = re.findall(r"probe (st: state=(\d+) value=-?\d+|ret \(return\): retval=(\d+))$",
                      trace, re.M)
    before = [int(a) for _, a, b in hits if a]
    after = [int(b) for _, a, b in hits if b]
    paired = all(hits[i][1] and hits[i + 1][2] for i in range(0, len(hits) - 1, 2))
    res.record("readme: example 'probe-two' (docs/probes.md: st;ret on fsm_step) prints what "
               "the page shows; both probes hit once per fsm_step call, each return's $retval "
               "is the state the next call starts from, the last the demo's final state",
               st == 0 and output is not None and miss is None and said is not None and
               len(before) == len(after) == said[0] and paired and
               after[:-1] == before[1:] and FSM_STATES[after[-1]] == said[3],
               f"status {st}; missing line {miss!r}; demo said {said}; {len(before)} st, "
               f"{len(after)} ret hits, paired {paired}\n" + out[-3000:])


def crc32_table_entry(n):
    """Entry n of the reflected CRC-32 table (polynomial 0xedb88320)."""
    c = n
    for _ in range(8):
        c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
    return c


def fletcher32(data):
    """Fletcher-32 over 16-bit little-endian words, a zero pad byte."""
    if len(data) % 2:
        data += b"\0"
    a = b = 0
    for i in range(0, len(data), 2):
        a = (a + data[i] + (data[i + 1] << 8)) % 65535
        b = (b + a) % 65535
    return b << 16 | a


def check_probe_return(h, res, board, code, output):
    """Return probes with a global: csum_selftest's CRC-32 of "123456789"
    and Fletcher-32 of "abcde" (computed here from the algorithms), the
    CRC table's entry 1 read by @symbol, and the last CRC the demo
    printed."""
    st, out = run_example(h, code)
    miss = match_output(output or "", out)
    trace = run_trace_text(h)
    crc = re.findall(r"probe crc \(return\): retval=0x([0-9a-f]+) t1=0x([0-9a-f]+)$", trace, re.M)
    f16 = re.findall(r"probe f16 \(return\): retval=(\d+)$", trace, re.M)
    printed = re.findall(r"^demo: .*\bcrc32=([0-9a-f]{8})\b", h.strip_frames(out), re.M)
    want = (f"{binascii.crc32(b'123456789'):x}", f"{crc32_table_entry(1):x}")
    res.record("readme: example 'probe-return' (docs/probes.md) prints what the page shows; "
               "the first CRC-32 return is the check value of \"123456789\", t1 the CRC "
               "table's entry 1, the first Fletcher-32 return that of \"abcde\", the last "
               "CRC the one the demo printed",
               st == 0 and output is not None and miss is None and crc and f16 and
               crc[0] == want and all(t == want[1] for _, t in crc) and
               int(f16[0]) == fletcher32(b"abcde") and printed and
               int(crc[-1][0], 16) in [int(p, 16) for p in printed],
               f"status {st}; missing line {miss!r}; first crc {crc[:1]}, want {want}; "
               f"first f16 {f16[:1]}, want {fletcher32(b'abcde')}; last crc "
               f"{crc[-1:]}, demo printed {printed}\n" + out[-3000:])


def ktap_problems(out, case):
    """What of the test image's KTAP run is wrong: the case not ok, or
    any case not ok."""
    bad = [l for l in out.splitlines() if l.startswith("not ok")]
    if not re.search(rf"^ok \d+ {case}$", out, re.M):
        bad.append(f"no 'ok N {case}'")
    return bad


def check_probe_boot_return(h, res, board, code, output):
    """Return probes on the test image: what the page shows, and the KTAP
    case that counts the returns passes."""
    st, out = run_example(h, code, timeout=600)     # builds the test image when needed
    miss = match_output(output or "", out)
    bad = ktap_problems(out, "probe_boot_planted_return_probes_count")
    res.record("readme: example 'probe-boot-return' (docs/probes.md) prints what the page "
               "shows, and the test image's return-probe case passes",
               st == 0 and output is not None and miss is None and not bad,
               f"status {st}; missing line {miss!r}; {bad}\n" + out[-3000:])


def label_offsets(h, elf):
    """{function: its _at label's offset in it} for pb_mt and pb_add."""
    st, out = h.run(["aarch64-linux-gnu-nm", elf])
    syms = {f[2]: int(f[0], 16) for f in (l.split() for l in out.splitlines()) if len(f) == 3}
    return {fn: syms[fn + "_at"] - syms[fn] for fn in ("pb_mt", "pb_add")
            if fn in syms and fn + "_at" in syms}


def check_probe_boot(h, res, board, code, output):
    """Instruction probes on the test image: the page's offsets are the
    ELF's labels, the KTAP case that checks the fetched values passes,
    and the run prints what the page shows."""
    st, out = run_example(h, code, timeout=600)     # builds the test image when needed
    miss = match_output(output or "", out)
    bad = ktap_problems(out, "probe_boot_planted_probes_count_and_fetch")
    said = {fn: int(off, 0) for fn, off in re.findall(r"=(pb_mt|pb_add)\+(0x[0-9a-f]+|\d+),",
                                                       code)}
    elf = os.path.join(h.make_dir(board, "test/target"), "baretrace.elf")
    got = label_offsets(h, elf)
    res.record("readme: example 'probe-boot' (docs/probes.md) prints what the page shows, its "
               "offsets are the ELF's pb_mt_at and pb_add_at, and the test image's case that "
               "checks the fetches passes",
               st == 0 and output is not None and miss is None and not bad and
               len(said) == 2 and said == got,
               f"status {st}; missing line {miss!r}; {bad}; page offsets {said}, ELF {got}\n"
               + out[-3000:])
