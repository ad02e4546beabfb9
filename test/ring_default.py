"""test/ring_default.py: the default ring follows the RAM the device tree
reports (boot stage). The rule is computed here from the RAM QEMU was
given, not read from the target: 1/16 of RAM over the CPUs online, whole
64 KiB, at least 64 KiB, at most 64 MiB (trace/control/control.c); with
128 MiB, too little for the region kept across resets to grow, at most
that (the fixed 8 MiB region holds two sets: under 1 MiB per CPU). Each
boot reads the size the target prints when the tracer starts; the rings
must also sit in the region kept across resets (no "do not fit" line),
and trace_buf= still overrides the default and is still refused past
64M.
"""
import re

from harness import expect, qemu_boot

KIB = 1024
ON = re.compile(r"^trace: function tracer on, (\d+) KiB per CPU, overwrite mode$", re.M)


def expected_kib(ram_bytes, cpus):
    per_cpu = ram_bytes // 16 // cpus // (64 * KIB) * (64 * KIB)
    return min(max(per_cpu, 64 * KIB), 64 * KIB * KIB) // KIB


def check_ring_default(res, demo):
    args = "panic=poweroff trace=function trace_filter=demo_main"
    for mem, ram in (("512M", 512 << 20), ("2G", 2 << 30), ("128M", 128 << 20)):
        small = ram < 256 << 20
        st, out = qemu_boot(demo, args, mem=mem)
        m = ON.search(out)
        cpus = re.search(r"^smp: (\d+) CPUs online$", out, re.M)
        given = re.search(r"RAM [0-9a-f]+\+([0-9a-f]+)$", out, re.M)
        want = expected_kib(ram, int(cpus.group(1))) if cpus else None
        if small and want:
            # just under 4 MiB per set (the note and the header): under 1 MiB per CPU
            want = min(want, (8 * KIB // 2 - 1) // int(cpus.group(1)) // 64 * 64)
        res.record(f"ring default with -m {mem}: {want} KiB per CPU (1/16 of RAM over "
                   f"the CPUs{', within the 8 MiB kept' if small else ''}), printed at "
                   "boot, in the region kept across resets",
                   st == 0 and m is not None and given is not None and
                   int(given.group(1), 16) == ram and int(m.group(1)) == want and
                   "do not fit" not in out,
                   f"printed: {m.group(0) if m else None}\n" + out[-1500:])
    st, out = qemu_boot(demo, args + " trace_buf=256K", mem="2G")
    expect(res, "trace_buf=256K overrides the default ring", st, out,
           present=[r"^trace: function tracer on, 256 KiB per CPU, overwrite mode$"])
    st, out = qemu_boot(demo, args + " trace_buf=65M", mem="2G")
    expect(res, "trace_buf=65M is still refused (at most 64M)", st, out, status=2,
           present=[r"^trace: not applied: trace_buf"], absent=[r"tracer on"])
