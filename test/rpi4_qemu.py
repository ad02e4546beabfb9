"""test/rpi4_qemu.py: stage "rpi4-qemu", the Raspberry Pi 4 image booted on
QEMU's raspi4b (QEMU 9.0 or later: tools/fetch-qemu's, board/rpi4/board.mk
QEMU_BIN) as the Pi firmware hands it over: kernel8.img by -kernel, at
EL2, CPUs 1-3 parked on the spin table, Debian's bcm2711-rpi-4-b.dtb.
The stage "rpi4-uboot" (test/rpi_uboot.py) boots the same image through
Debian's U-Boot from the card.

  ktap      every KTAP suite, single-threaded and multi-threaded TCG
  demo      untraced with the DTB (the GIC-400, UART and CPUs taken from
            it), and without one (board.h's defaults); a crash report
  endrun    'make BOARD=rpi4 run' (traced, captured) three times: the
            target's totals, the capture and the host's decode agree,
            nothing lost
  uart      uart_baud= set and refused; a byte typed on the console raises
            UART0's receive interrupt through the GIC-400 (SPI 121)
  hang      the break key (Ctrl-\\ twice; QEMU's BREAK) and the lockup
            detector (test/hang_scenarios.py's checks)
  watchdog  panic=reset resets through the PM watchdog (QEMU's raspi4b
            models it: -no-reboot makes the reset an exit); without
            semihosting, power-off through it stops QEMU; the trace of the
            boot before a watchdog reset reaches the next boot's capture
"""
import os
import re

PI = "rpi4"


def have_qemu(h, res):
    """Records whether the raspi4b QEMU is there; the message names what
    is missing (tools/fetch-qemu --check)."""
    st, out = h.run(["tools/fetch-qemu", "--check"])
    if st != 0:
        res.record("rpi4: a QEMU with the raspi4b machine (tools/setup runs tools/fetch-qemu)",
                   False, out)
    return st == 0


def dtb_file(h):
    return os.path.join(h.ROOT, h.make_var(PI, "QEMU_DTB_FILE"))


def qemu_cmd(h, image_dir, bootargs, flags="", dtb=True, capture=None):
    cmd = ["tools/qemu-run", "--image", os.path.join(image_dir, "Image"),
           "--machine", h.make_var(PI, "QEMU_MACHINE"), "--cpu", h.make_var(PI, "QEMU_CPU"),
           "--smp", h.make_var(PI, "QEMU_SMP"), "--mem", h.make_var(PI, "QEMU_MEM"),
           "--qemu", h.make_var(PI, "QEMU_BIN"), "--bootargs", bootargs]
    if dtb:
        cmd += ["--dtb", dtb_file(h)]
    if flags:
        cmd += ["--qemu-flags", flags]
    if capture:
        cmd += ["--capture", capture]
    return cmd


def boot(h, image_dir, bootargs, flags="", dtb=True, capture=None, timeout=None):
    st, out = h.run(qemu_cmd(h, image_dir, bootargs, flags, dtb, capture),
                    timeout=timeout or h.QEMU_TIMEOUT)
    out = out.replace("\r", "")
    return st, (out if capture else h.strip_frames(out))


def input_boot(h, image_dir, bootargs, ready, data):
    """Boots, writes 'data' to the console once 'ready' appears; returns
    (status or None on timeout, console text)."""
    return h.input_boot_cmd(qemu_cmd(h, image_dir, bootargs), ready, data)


def stage_rpi4_qemu(h, res, board):
    if not have_qemu(h, res):
        return
    for app in ("examples/demo", "test/target", "test/uartirq"):
        st, out = h.run(["make", f"BOARD={PI}", f"APP={app}"], timeout=600)
        if st != 0:
            res.record(f"rpi4: build APP={app}", False, out)
            return
    st, out = h.run(["make", "-s", f"BOARD={PI}", "host-tools"]
                    + h.make_var(PI, "QEMU_DTB_DEP").split())
    if st != 0 or not os.path.isfile(dtb_file(h)):
        res.record("rpi4: Debian's bcm2711-rpi-4-b.dtb is there (tools/fetch-pi)", False, out)
        return
    demo, tgt = h.make_dir(PI, "examples/demo"), h.make_dir(PI, "test/target")
    ktap(h, res, tgt)
    demos(h, res, demo, tgt)
    import end_of_run
    end_of_run.repeat(h, res, PI, 3, "make run", lossless=True)
    uart(h, res, demo)
    hang(h, res, tgt)
    watchdog(h, res, demo, tgt)


# Multi-threaded TCG runs each of the 4 vCPUs on its own host thread: on
# a 2-core host shared with other jobs a preempted lock holder stalls the
# others for whole host time slices (the contended-spinlock suite took
# 4 minutes beside a make test, 40 s alone), so its bound is wide. For
# the same reason a vCPU's thread can go unscheduled past lockup_ms (make
# fresh-check beside a make test: "CPU 1 took no timer tick for 3039 ms"
# after test 6, and the run ended as a hang): there the detector reports
# and the suite goes on (lockup_action=continue, as the soak does), since
# it says how fast the host ran, not what the suite checks.
MTTCG_TIMEOUT = 480


def ktap(h, res, tgt):
    for name, flags, limit, args in (
            ("", "", h.QEMU_TIMEOUT, ""),
            ("[mttcg]", "-accel tcg,thread=multi", MTTCG_TIMEOUT, "lockup_action=continue ")):
        st, out = boot(h, tgt, f"panic=poweroff {args}-- ktest", flags, timeout=limit)
        prefix = f"rpi4 ktap{name}"
        if st is None:
            res.record(f"{prefix}: finished within {limit}s (hang: QEMU killed)",
                       False, out)
            continue
        h.parse_ktap(prefix, out, res)
        res.record(f"{prefix}: exit status 0 reaches the host", st == 0, out[-3000:])


def demos(h, res, demo, tgt):
    # With the firmware's device tree: the GIC-400 and UART0 from it (the
    # lines are held against fdtget in the rpi4-uboot stage), 4 CPUs by
    # their cpu-release-addr.
    st, out = boot(h, demo, "panic=poweroff tick_hz=250")
    h.expect(res, "rpi4: raspi4b boots kernel8.img at EL2 with the DTB: GIC-400 and UART0 "
             "from it, 4 CPUs by spin table, the demo passes", st, out,
             present=[r"^baretrace: rpi4, entered at EL2, image at 0x200000",
                      r'^bootargs: "panic=poweroff tick_hz=250"$', r"tick 250 Hz",
                      r"^gicd: ff841000 \(DTB ", r"^gicc: ff842000 \(DTB ",
                      r'^smp: enable-method "spin-table" \(DTB\) on 4 of 4 CPUs$',
                      r"^smp: 4 CPUs online$", r"^demo: PASS$", r"^baretrace: exit status 0$"],
             absent=[r"no valid DTB", r"spin-table:", r"==== baretrace crash"])
    st, out = boot(h, demo, "panic=poweroff", dtb=False)
    h.expect(res, "rpi4: without a DTB, board.h's GIC-400, UART and spin table: 4 CPUs, "
             "the demo passes", st, out,
             present=[r"^baretrace: rpi4, entered at EL2", r"no valid DTB .* using board defaults",
                      r"^smp: 4 CPUs online$", r"^demo: PASS$", r"^baretrace: exit status 0$"],
             absent=[r"^gicd: ", r"==== baretrace crash"])
    st, out = boot(h, tgt, "panic=poweroff -- crash null")
    h.expect(res, "rpi4: RAM starts at 0, yet a low load faults and is reported", st, out,
             status=139, present=[r"^==== baretrace crash on CPU 0",
                                r"^ELR .* crash_null_deref\+0x", r"^  #1 .* crash_caller\+",
                                r"^ESR .*FAR 0000000000001000",
                                r"^baretrace: exit status 139 \(crash\)$"])


def uart(h, res, demo):
    # QEMU's PL011 ignores the divisors: this shows the parameter parsed
    # and applied without breaking the output (test_pl011_div: the numbers).
    st, out = boot(h, demo, "panic=poweroff uart_baud=921600")
    h.expect(res, "rpi4: uart_baud=921600 switches the PL011 after the banner; output goes on",
             st, out, present=[r"^uart: switching to 921600 baud \(IBRD 3, FBRD 16: 923077 baud\)$",
                               r"^uart: now at 921600 baud$", r"^smp: 4 CPUs online$",
                               r"^demo: PASS$", r"^baretrace: exit status 0$"])
    st, out = boot(h, demo, "panic=poweroff uart_baud=4000000")
    h.expect(res, "rpi4: uart_baud=4000000 is refused with the reason; the rate stays",
             st, out, present=[r"^uart_baud: 4000000: above 3000000 baud \(UART clock "
                               r"48000000 Hz\); keeping 115200$", r"^demo: PASS$"],
             absent=[r"^uart: switching"])
    st, out = input_boot(h, h.make_dir(PI, "test/uartirq"), "panic=poweroff",
                         "uartirq: ready", b"abc")
    h.expect(res, "rpi4: a byte on the console raises UART0's interrupt through the GIC-400 "
             "(SPI 121)", st, out, present=[r"^uartirq: [1-9]\d* interrupts, 3 bytes$"])


def hang(h, res, tgt):
    import hang_scenarios as hs
    trace = hs.TRACE
    ready = "spin: CPUs 0 and 1 spin"
    st, out = input_boot(h, tgt, f"panic=poweroff {trace} -- spin 3", ready, b"\x1c\x1c")
    hs.check_break(h, res, "rpi4: Ctrl-\\ twice while main spins traced: every CPU's "
                   "registers (SGI through the GIC-400), the trace, the run goes on",
                   st, out, True)
    st, out = input_boot(h, tgt, "panic=poweroff -- spin 3", ready, b"\x01b")
    hs.check_break(h, res, "rpi4: a BREAK on the line (QEMU Ctrl-A b) is the break key too",
                   st, out, False)
    st, out = boot(h, tgt, f"panic=poweroff lockup_ms=1000 lockup_action=continue {trace} "
                           "-- lockup 2 4000")
    hs.check_lockup(h, res, "rpi4: CPU 2 with interrupts masked is reported within lockup_ms "
                    "with its last records", st, out, 1000)


def watchdog(h, res, demo, tgt):
    st, out = boot(h, tgt, "panic=reset -- crash null", flags="-no-reboot")
    res.record("rpi4: panic=reset resets the board through the PM watchdog",
               st == 0 and "baretrace: reset" in out and out.count("baretrace: rpi4,") == 1
               and "baretrace: exit status" not in out, f"status {st}\n" + out[-3000:])
    qemu = os.path.join(h.ROOT, h.make_var(PI, "QEMU_BIN"))
    st, out = h.run([qemu, "-M", h.make_var(PI, "QEMU_MACHINE"), "-nographic", "-net", "none",
                     "-accel", "tcg,thread=single", "-kernel", os.path.join(demo, "Image"),
                     "-dtb", dtb_file(h)], timeout=h.QEMU_TIMEOUT)
    out = out.replace("\r", "")
    res.record("rpi4: without semihosting, power-off through the watchdog stops QEMU",
               st == 0 and "baretrace: exit status 0" in out and "power-off failed" not in out,
               f"status {st}\n" + out[-3000:])
    # The trace survives the watchdog reset (test/reset_scenarios.py's
    # scenario: QEMU keeps RAM and loads the image again).
    import reset_scenarios as rs
    bt = os.path.join(h.HOST, "rpi4-reset.bt")
    st, out = boot(h, tgt, rs.BOOT + " -- reset", capture=bt)
    rst, report = h.run([os.path.join(h.HOST, "baretrace"), "report", bt,
                         "--elf", os.path.join(tgt, "baretrace.elf")])
    prev, this = rs.sections(report)
    last0 = re.findall(r"^\[000\] \d+\.\d+: (\w+) <-", prev, re.M)
    ok_books, figures = rs.books_balance(prev)
    res.record(f"rpi4: after a watchdog reset the next boot's capture holds the previous "
               f"boot's {rs.CALLS}+{rs.CALLS} calls up to the reset, then its own",
               st == 0 and rst == 0 and
               "reset: second boot: previous boot 1 (kept)" in out and
               rs.count(prev, 0, "rs_alpha") == rs.CALLS and
               rs.count(prev, 0, "rs_beta") == rs.CALLS and
               bool(last0) and last0[-1] == "rs_last" and rs.count(prev, 1, "rs_spin") > 0 and
               rs.count(this, 0, "rs_after") == rs.CALLS and ok_books,
               f"status {st}, report {rst}, books {figures}, last on CPU 0 "
               f"{last0[-1] if last0 else None}\n" + h.strip_frames(out)[-2000:]
               + report[-1000:])
