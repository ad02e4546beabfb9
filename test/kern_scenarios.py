"""test/kern_scenarios.py: the 'kern' stage: kernel protections on qemu-virt
(stack overflow, guard pages, W^X, a CPU that does not start, SError, crash
printing).
"""
import os
import re

from harness import HOST, ROOT, dtb_set_cpu1_cell, expect, host_dtb, make_dir, parse_ktap, pi3_dtb, qemu_boot, run


def virt_dtb_with_cpu1_at(mpidr):
    """QEMU virt's own DTB (4 CPUs, 512M) whose cpu@1 names MPIDR 'mpidr'."""
    with open(host_dtb(), "rb") as f:
        blob = dtb_set_cpu1_cell(f.read(), "reg", mpidr)
    path = os.path.join(HOST, "virt-cpu1-%x.dtb" % mpidr)
    with open(path, "wb") as f:
        f.write(blob)
    return path


def crash_report_lines(out):
    """The lines from a crash report's first line to the end of the boot."""
    lines = out.splitlines()
    first = [i for i, l in enumerate(lines) if l.startswith("==== baretrace crash on CPU")]
    return lines[first[0]:] if first else []


def stage_kern(res, board):
    if board != "qemu-virt":
        return
    for app in ("examples/demo", "test/target"):
        st, out = run(["make", f"BOARD={board}", f"APP={app}"])
        if st != 0:
            res.record(f"kern: build APP={app}", False, out)
            return
    demo, tgt = make_dir(board, "examples/demo"), make_dir(board, "test/target")

    # 3.5: cpu@1 names MPIDR 0xf0f, which QEMU has not: CPU_ON fails.
    dtb = virt_dtb_with_cpu1_at(0xf0f)
    st, out = qemu_boot(tgt, "panic=poweroff -- ktest", flags=f"-dtb {dtb}")
    expect(res, "kern: a CPU that does not start: 3 CPUs online, the suite passes",
           st, out, present=[r"^psci: CPU_ON f0f failed", r"^smp: 3 CPUs online$",
                             r"^ok \d+ cpus_online_ids_are_dense$",
                             r"^ok \d+ cpus_every_running_cpu_has_an_id_below_the_count$",
                             r"^ok \d+ cpus_each_cpu_traces$", r"^# ktest: \d+ tests, 0 failed$"],
           absent=[r"^not ok", r"==== baretrace crash"])
    if st is not None:
        parse_ktap("kern: ktap[cpu@1 missing]", out, res)
    # The traced demo under 'baretrace capture': events from CPUs 0, 1, 2.
    st, out = run(["make", "-s", f"BOARD={board}", "host-tools"])
    bt = os.path.join(HOST, "kern-cpu1-missing.bt")
    filt = open(os.path.join(ROOT, "examples/demo/trace_filter")).read().strip()
    st, out = qemu_boot(demo, f"panic=poweroff trace=function_graph trace_filter={filt}",
                        flags=f"-dtb {dtb}", capture=bt)
    rst, report = run([os.path.join(HOST, "baretrace"), "report", bt,
                       "--elf", os.path.join(demo, "baretrace.elf")])
    cpus = sorted(set(re.findall(r"^ *(\d+)\) ", report, re.M)), key=int)
    expect(res, "kern: a CPU that does not start: the demo traced on CPUs 0-2 decodes",
           st if rst == 0 and cpus == ["0", "1", "2"] else f"{st}, report {rst}, CPUs {cpus}",
           out, present=[r"^smp: 3 CPUs online$", r"^demo: PASS$",
                         r"^trace: \d+ events, 0 lost", r"^baretrace: exit status 0$"],
           absent=[r"==== baretrace crash"])

    # A CPU that accepts the start but never arrives: on raspi3b, cpu@1's
    # cpu-release-addr points where no CPU polls. Start-up gives up after
    # 1 s, abandons the slot, and CPU 2 and 3 become ids 1 and 2.
    st, out = run(["make", "BOARD=rpi3", "APP=test/target"])
    if st != 0:
        res.record("kern: rpi3: build APP=test/target", False, out)
    else:
        pdtb = os.path.join(ROOT, "build", "rpi3", "raspi3b-cpu1-unreleased.dtb")
        with open(pdtb, "wb") as f:
            f.write(dtb_set_cpu1_cell(pi3_dtb(), "cpu-release-addr", 0x3000))
        st, out = qemu_boot(make_dir("rpi3", "test/target"), "panic=poweroff -- ktest cpus",
                            machine="raspi3b", cpu="cortex-a53", mem="1G",
                            flags=f"-dtb {pdtb}")
        expect(res, "kern: rpi3: a CPU that never arrives is given up, ids stay dense",
               st, out, present=[r"^smp: CPU 1 did not come up; its id 1 goes to the next$",
                                 r"^smp: 3 CPUs online$", r"^ok \d+ cpus_online_ids_are_dense$",
                                 r"^# ktest: \d+ tests, 0 failed$"])

    # 3.10b: unbounded recursion runs into the guard page below the stack.
    for cpu in ("0", "1"):
        st, out = qemu_boot(tgt, f"panic=poweroff -- overflow {cpu}")
        expect(res, f"kern: unbounded recursion on CPU {cpu} is reported as a stack overflow",
               st, out, status=139, present=[
                   rf"^overflow: recursing on CPU {cpu}$",
                   rf"^==== baretrace crash on CPU {cpu}: stack overflow on CPU {cpu} ",
                   r"^ELR .* recurse[.\w]*\+0x", r"^  #\d+ .* recurse[.\w]*\+0x",
                   r"^==== end of crash report ====$",
                   r"^baretrace: exit status 139 \(crash\)$"],
               absent=[r"overflow: survived", r"crash while reporting"])
    # A store into another CPU's guard page with room on the own stack:
    # the report names that CPU and still runs on the emergency stack.
    st, out = qemu_boot(tgt, "panic=poweroff -- guardwrite 2")
    expect(res, "kern: a store into CPU 2's guard page is named a stack overflow on CPU 2",
           st, out, status=139, present=[
               r"^==== baretrace crash on CPU 0: stack overflow on CPU 2 ",
               r"^ELR .* scenario_guardwrite\+0x", r"^==== end of crash report ====$"],
           absent=[r"guardwrite: survived", r"crash while reporting"])

    # 3.10a: a virtual SError from the EL2 stub reaches the crash report;
    # with RAS (cpu max) the stub also sets the syndrome.
    st, out = qemu_boot(tgt, "panic=poweroff -- serror", machine="virt,virtualization=on")
    expect(res, "kern: an SError is reported (kind named, ESR decoded)", st, out, status=139,
           present=[r"^==== baretrace crash on CPU 0: SError \(asynchronous external abort\)"
                    r": uncategorized", r"^exception: SError \(EC 0x2f\)",
                    r"^ESR 00000000be000000 ", r"^ELR .* scenario_serror\+0x"],
           absent=[r"serror: survived"])
    st, out = qemu_boot(tgt, "panic=poweroff -- serror", machine="virt,virtualization=on",
                        cpu="max")
    expect(res, "kern: an SError's RAS syndrome is decoded", st, out, status=139,
           present=[r"^==== baretrace crash on CPU 0: SError \(asynchronous external abort\)"
                    r": asynchronous SError interrupt, restartable \(AET UEO\)",
                    r"^ESR 00000000be000811 "],
           absent=[r"serror: survived"])

    # Crash report in one piece: CPUs 1-3 print without pause while CPU 0
    # crashes. Printing the report before stopping them mixed lines in
    # about one boot in two with truly parallel CPUs (multi-threaded TCG),
    # rarely single-threaded: five parallel boots, then one single.
    for flags in ["-accel tcg,thread=multi"] * 5 + [""]:
        st, out = qemu_boot(tgt, "panic=poweroff -- crashprint", flags=flags)
        report = crash_report_lines(out)
        before = out.split("==== baretrace crash on CPU")[0]
        foreign = [l for l in report if "cp cpu" in l]
        printed = all(f"cp cpu{c} n" in before for c in (1, 2, 3))
        res.record(f"kern: a crash report while 3 CPUs print is not interleaved "
                   f"[{flags or 'single-threaded'}]",
                   st == 139 and printed and report and not foreign
                   and any(l == "==== end of crash report ====" for l in report),
                   f"status {st}, others printed before: {printed}, "
                   f"{len(foreign)} foreign lines in the report: {foreign[:3]}\n" + out[-3000:])
