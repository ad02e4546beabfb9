"""test/reset_scenarios.py: the trace survives a reset (trace/output/prev.h,
docs/wire.md 2.10).

The test image's 'reset' scenario (test/target/scenario_reset.c) traces
rs_alpha and rs_beta 300 times each on CPU 0 while CPU 1 loops in rs_spin,
calls rs_last and resets through PSCI SYSTEM_RESET with no drain (as a
watchdog would); QEMU keeps RAM and reloads the image; the second boot
finds the first one's trace, calls rs_after 300 times and powers off. One
capture holds both boots.

  send     the report's previous-boot section holds exactly the 300 + 300
           calls, rs_last as CPU 0's last event, rs_spin on CPU 1, and
           its books balance; the second boot's own events follow
  mttcg    the same under multi-threaded TCG (the reset lands while CPU 1
           writes for real)
  drop     trace_prev=drop: no frame of the previous boot in the capture
  block    a damaged block is dropped and counted, the rest is sent
  crc      a damaged header is refused, with the reason, nothing sent
  image    a header of another image is refused, with both hashes
  rings_off  a header whose CRC checks but whose ring state is 1 TiB
           outside the region is refused, with the field named; the
           boot does not fault and main() runs
  books    CPU 0's counters made impossible (more overwritten than stored):
           CPU 0's ring state is refused with a line, CPU 1's blocks are
           still sent
"""
import os
import re
import struct

BOOT = "panic=poweroff trace=function trace_filter=rs_*"
CALLS = 300


def frame_types(path):
    """Type of every frame in a .bt file (docs/wire.md 3)."""
    with open(path, "rb") as f:
        data = f.read()
    types, at = [], 8
    while at + 4 <= len(data):
        (n,) = struct.unpack_from("<I", data, at)
        if n == 0 or at + 4 + n > len(data):
            break
        types.append(data[at + 4])
        at += 4 + n
    return types


def sections(report):
    """(previous boot's section, this boot's section) of a report."""
    m = re.search(r"^# ==== previous boot \d+.*?$(.*?)^# ==== this boot ====$(.*)",
                  report, re.M | re.S)
    return (m.group(1), m.group(2)) if m else ("", report)


def count(text, cpu, func):
    return len(re.findall(rf"^\[{cpu:03d}\] \d+\.\d+: {func} <-", text, re.M))


def books_balance(prev):
    """The previous boot's books: produced = decoded + before + after."""
    m = re.search(r"^# previous boot \d+: (\d+) events recorded before the reset: (\d+) kept "
                  r"and decoded, (\d+) before or between the blocks kept, (\d+) after the last$",
                  prev, re.M)
    if not m:
        return False, None
    p, d, b, a = map(int, m.groups())
    return p == d + b + a and "do not balance" not in prev, (p, d, b, a)


def stage_reset(h, res, board):
    if board != "qemu-virt":
        return
    import trace_scenarios as ts
    st, out = h.run(["make", "-s", f"BOARD={board}", "host-tools"])
    st2, out2 = h.run(["make", "-s", f"BOARD={board}", "APP=test/target"])
    if st or st2:
        res.record("reset: build the test image and host tools", False, out + out2)
        return
    tool = os.path.join(h.HOST, "baretrace")
    tgt = h.make_dir(board, "test/target")
    elf = os.path.join(tgt, "baretrace.elf")

    def boot(name, bootargs, flags=""):
        bt = os.path.join(h.HOST, f"reset-{name}.bt")
        st, out = ts.capture(h, tgt, bootargs, bt, flags)
        rst, report = h.run([tool, "report", bt, "--elf", elf])
        return st, out, rst, report, bt

    from reset_probe import check_reset_probe
    check_reset_probe(h, res, tgt, tool)

    for name, flags in (("send", ""), ("mttcg", "-accel tcg,thread=multi")):
        st, out, rst, report, bt = boot(name, BOOT + " -- reset", flags)
        prev, this = sections(report)
        last0 = re.findall(r"^\[000\] \d+\.\d+: (\w+) <-", prev, re.M)
        ok_books, figures = books_balance(prev)
        detail = (f"status {st}, report {rst}; alpha {count(prev, 0, 'rs_alpha')}, "
                  f"beta {count(prev, 0, 'rs_beta')}, last on CPU 0 "
                  f"{last0[-1] if last0 else None}, spin {count(prev, 1, 'rs_spin')}, "
                  f"after {count(this, 0, 'rs_after')}, books {figures}\n"
                  + "\n".join(out.splitlines()[-12:]) + "\n" + report[-1500:])
        res.record(f"reset ({name}): the next boot's capture holds the previous boot's "
                   f"{CALLS}+{CALLS} calls up to the reset, marked, then its own",
                   st == 0 and rst == 0 and
                   "reset: second boot: previous boot 1 (kept)" in out and
                   re.search(r"^trace: previous boot 1 left \d+ blocks .*; sent first$",
                             out, re.M) is not None and
                   count(prev, 0, "rs_alpha") == CALLS and count(prev, 0, "rs_beta") == CALLS and
                   last0 and last0[-1] == "rs_last" and count(prev, 1, "rs_spin") > 0 and
                   count(this, 0, "rs_after") == CALLS and count(this, 0, "rs_alpha") == 0 and
                   ok_books, detail)

    st, out, rst, report, bt = boot("drop", "trace_prev=drop " + BOOT + " -- reset")
    types = frame_types(bt)
    res.record("reset (drop): trace_prev=drop sends nothing of the previous boot",
               st == 0 and rst == 0 and "reset: second boot: previous boot 1 (kept)" in out and
               re.search(r"^trace: previous boot 1 left \d+ blocks .*; dropped "
                         r"\(trace_prev=drop\)$", out, re.M) is not None and
               6 not in types and 7 not in types and "previous boot" not in report and
               count(report, 0, "rs_after") == CALLS,
               f"status {st}, frame types {sorted(set(types))}\n" + out[-1500:])

    st, out, rst, report, bt = boot("block", BOOT + " -- reset spoil=block")
    prev, this = sections(report)
    ok_books, figures = books_balance(prev)
    m = re.search(r"^trace: previous boot 1 left (\d+) blocks .*\((\d+) blocks did not check\)",
                  out, re.M)
    res.record("reset (block): a damaged block is dropped and counted, the rest still sent",
               st == 0 and rst == 0 and m is not None and int(m.group(2)) == 1 and
               re.search(r"^# previous boot 1: \d+ blocks kept, \d+ sent here, 1 did not check",
                         prev, re.M) is not None and
               re.search(r"^CPU:0 \[LOST \d+ EVENTS\] \(previous boot: before the oldest "
                         r"block kept\)$", prev, re.M) is not None and
               0 < count(prev, 0, "rs_beta") < CALLS and ok_books,
               f"status {st}, books {figures}\n" + out[-1500:] + report[-800:])

    for spoil, why in (("crc", r"its header is damaged \(CRC-32 does not match\)"),
                       ("image", r"it is from another image \(hash 0x[0-9a-f]{8}, "
                                 r"this image 0x[0-9a-f]{8}\)"),
                       ("rings_off", r"its ring state offset is 0x10000000000, "
                                     r"this image's 0x1000")):
        st, out, rst, report, bt = boot(spoil, BOOT + f" -- reset spoil={spoil}")
        types = frame_types(bt)
        res.record(f"reset ({spoil}): the previous boot's trace is refused with a clear line",
                   st == 0 and "reset: second boot: previous boot 0 (refused)" in out and
                   re.search(r"^trace: the previous boot's trace is not used: " + why + "$",
                             out, re.M) is not None and
                   6 not in types and 7 not in types and "previous boot" not in report and
                   "Data abort" not in out and
                   len(re.findall(r"^trace: the previous boot's", out, re.M)) == 1,
                   f"status {st}, frame types {sorted(set(types))}\n" + out[-1500:])

    st, out, rst, report, bt = boot("books", BOOT + " -- reset spoil=books")
    prev, this = sections(report)
    lines = re.findall(r"^trace: the previous boot's .*$", out, re.M)
    res.record("reset (books): impossible counters refuse that CPU's ring state alone, "
               "with a line; the other CPU's blocks are still sent",
               st == 0 and rst == 0 and "reset: second boot: previous boot 1 (kept)" in out and
               lines == ["trace: the previous boot's ring of CPU 0 is not used: "
                         "its event counters overflow or do not add up"] and
               count(prev, 0, "rs_alpha") == 0 and count(prev, 1, "rs_spin") > 0 and
               count(this, 0, "rs_after") == CALLS and "Data abort" not in out,
               f"status {st}, report {rst}, lines {lines}, alpha {count(prev, 0, 'rs_alpha')}, "
               f"spin {count(prev, 1, 'rs_spin')}\n" + out[-1500:] + report[-800:])
