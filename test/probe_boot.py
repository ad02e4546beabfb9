"""test/probe_boot.py: probes from the kernel command line (trace_probe=,
trace/control/probe_ctl.c) on the test image: planted before main() where
the ELF says the probed instruction is, several in one word; a probe on an
instruction that reads the PC, and a malformed one, each refused with its
reason and the run ended before main()."""
import os
import re
import subprocess

from harness import boot, expect


def offsets(image_dir):
    """{name: address} of the test's probe functions and labels (nm)."""
    nm = subprocess.run(["aarch64-linux-gnu-nm", os.path.join(image_dir, "baretrace.elf")],
                        capture_output=True, text=True).stdout
    return {m.group(2): int(m.group(1), 16)
            for m in re.finditer(r"^([0-9a-f]+) [tT] (pb_\w+)$", nm, re.M)}


def check_probe_boot(res, board, image_dir):
    a = offsets(image_dir)
    need = ["pb_mt", "pb_mt_at", "pb_add", "pb_add_at", "pb_refused", "pb_adrp_at"]
    if any(n not in a for n in need):
        res.record("probe boot: the test's probe labels are in the ELF", False, str(a))
        return
    mt, add = a["pb_mt_at"] - a["pb_mt"], a["pb_add_at"] - a["pb_add"]
    st, out = boot(board, image_dir, "direct",
                   f"panic=poweroff trace_probe=bp=pb_mt+{mt},x2:u32,x3;bq=pb_add+0x{add:x} "
                   "-- ktest probe_boot")
    expect(res, "probe boot: trace_probe= plants two probes in one word before main()",
           st, out, present=[r"^ok 1 probe_boot_planted_probes_count_and_fetch$"])
    adrp = a["pb_adrp_at"] - a["pb_refused"]
    st, out = boot(board, image_dir, "direct",
                   f"panic=poweroff trace_probe=bad=pb_refused+{adrp} -- ktest probe_boot")
    expect(res, "probe boot: a probe on ADRP is refused with its reason, the run ends",
           st, out, status=2,
           present=[rf"^probe: bad at pb_refused\+0x{adrp:x}: an address relative to the PC "
                    r"\(ADR, ADRP\); nothing planted$", r"trace: not applied: trace_probe"],
           absent=[r"^ok 1"])
    st, out = boot(board, image_dir, "direct",
                   "panic=poweroff trace_probe=p=pb_mt+6 -- ktest probe_boot")
    expect(res, "probe boot: a malformed trace_probe= is named and the run ends",
           st, out, status=2,
           present=[r"trace_probe: 'p=pb_mt\+6': the offset is not a multiple of 4"],
           absent=[r"^ok 1"])
