"""test/reset_probe.py: probes on both sides of a reset (issue 39 item 8).

The test image's 'resetprobe' scenario (test/target/scenario_reset_probe.c)
plants probe pa (a = x2:u32, b = x3:u32) in its first boot, hits it
RP_HITS times with b = a + 1000 and resets; the second boot plants
another probe, pb (p = x5:x64), with the console command while it still
sends the first boot's kept blocks, hits it once and powers off. One
capture holds both boots.

Probe numbers restart each boot; a boot that used the number of the boot
before for another probe had the host name hits by the wrong definition:
boot 2's pb hit came out as "probe pa: a=1076225504" (pb's pointer cut
to pa's u32), and kept hits that go out after pb's schema would read as
pb. Checks: the two probes' numbers differ (the console says them); the
report's previous-boot section holds every kept hit as pa with b = a +
1000, in order; this boot's section holds one hit and not as pa.
"""
import os
import re

from reset_scenarios import sections

RP_HITS = 20000


def check_reset_probe(h, res, tgt, tool):
    import trace_scenarios as ts
    elf = os.path.join(tgt, "baretrace.elf")
    bt = os.path.join(h.HOST, "reset-probe.bt")
    st, out = ts.capture(h, tgt, "panic=poweroff -- resetprobe", bt)
    rst, report = h.run([tool, "report", bt, "--elf", elf])
    prev, this = sections(report)
    first = re.search(r"^resetprobe: first boot: probe pa \(number (\d+)\)", out, re.M)
    second = re.search(r"^resetprobe: second boot: previous boot 1; probe pb \(number (\d+)\)",
                       out, re.M)
    kept = re.findall(r"^\[000\] \d+\.\d+: probe (\S+): (.*)$", prev, re.M)
    want = [("pa", f"a={i} b={1000 + i}") for i in range(RP_HITS)]
    mine = re.findall(r"^\[\d+\] \d+\.\d+: probe (\S+?):? (.*)$", this, re.M)
    detail = (f"status {st}, report {rst}; numbers {first and first.group(1)}, "
              f"{second and second.group(1)}; {len(kept)} kept hits, first "
              f"{kept[:2]}, wrong {[k for k, w in zip(kept, want) if k != w][:3]}; "
              f"this boot {mine}\n" + "\n".join(out.splitlines()[-8:]))
    res.record("reset probe: the two boots' first probes have numbers of their own",
               st == 0 and first is not None and second is not None and
               first.group(1) != second.group(1), detail)
    res.record(f"reset probe: the previous boot's {RP_HITS} kept hits are named by its "
               "own probe, pa, with its values", rst == 0 and kept == want, detail)
    res.record("reset probe: this boot's hit is not named by the previous boot's probe",
               rst == 0 and len(mine) == 1 and mine[0][0] != "pa", detail)
