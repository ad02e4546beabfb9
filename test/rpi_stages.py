"""test/rpi_stages.py: the 'rpi3' stage (QEMU raspi3b runs the Pi 3 code:
spin table, watchdog, no DTB, all four CPUs) and the 'rpi4' stage (the
rpi4 image, its boot files and its board values checked against the
documented addresses without booting; rpi4_qemu.py boots it on raspi4b).
"""
import os
import subprocess
import time

from api_target import check_api_rpi3_dtb
from harness import QEMU_TIMEOUT, ROOT, boot, expect, make_dir, parse_ktap, pi3_dtb, run

# Documented Pi 4 values (board/rpi4/board.h cites the sources), asserted
# here rather than read back from the board data under test.
RPI4_EXPECTED = {"BOARD_PERIPH_BASE": 0xfe000000, "BOARD_UART_BASE": 0xfe201000,
                 "BOARD_UART_CLK_HZ": 48000000, "BOARD_UART_IRQ": 153,
                 "BOARD_GICD_BASE": 0xff841000, "BOARD_GICC_BASE": 0xff842000,
                 "BOARD_TIMER_IRQ": 27, "BOARD_TIMER_HZ_FALLBACK": 54000000,
                 "BOARD_SPIN_RELEASE_ADDRS": [0xd8, 0xe0, 0xe8, 0xf0]}
# Register blocks the code must reach (base, size) and QEMU virt's, which
# it must not (hw/arm/virt.c: GIC distributor and CPU interface 64 KiB
# each, UART 4 KiB).
RPI4_BLOCKS = {"BOARD_UART_BASE": 0x1000, "BOARD_GICD_BASE": 0x1000, "BOARD_GICC_BASE": 0x2000}



def stage_rpi3(res, board):
    for app in ("examples/demo", "test/target"):
        st, out = run(["make", "BOARD=rpi3", f"APP={app}"])
        if st != 0:
            res.record(f"rpi3: build APP={app}", False, out)
            return
    demo, tgt = make_dir("rpi3", "examples/demo"), make_dir("rpi3", "test/target")
    if board != "rpi3":  # else the target and boot stages ran these on rpi3
        st, out = boot("rpi3", tgt, "direct", "panic=poweroff -- ktest")
        if st is None:
            res.record(f"rpi3 ktap: finished within {QEMU_TIMEOUT}s (hang: QEMU killed)",
                       False, out)
        else:
            parse_ktap("rpi3 ktap", out, res)
            res.record("rpi3 ktap: exit status 0 reaches the host", st == 0, out)
        check_api_rpi3_dtb(res, tgt)
        st, out = boot("rpi3", tgt, "direct", "panic=poweroff -- crash null")
        expect(res, "rpi3: RAM starts at 0, yet a low load faults and is reported", st, out,
               status=139, present=[r"^ELR .* crash_null_deref\+0x",
                                  r"^ESR .*FAR 0000000000001000"])
    st, out = boot("rpi3", demo, "direct", "panic=poweroff")
    expect(res, "rpi3: raspi3b boots the demo at EL2 without a DTB, 4 CPUs by spin table",
           st, out, present=[r"^baretrace: rpi3, entered at EL2, image at 0x200000",
                             r"no valid DTB .* using board defaults",
                             r'^bootargs: "panic=poweroff"$',  # from semihosting
                             r"^smp: 4 CPUs online$", r"^demo: PASS$",
                             r"^baretrace: exit status 0$"])

    # uart_baud=: the divisors for the 48 MHz UART clock are set after the
    # banner and the demo still prints. QEMU's PL011 ignores the divisors,
    # so this shows the parameter is parsed and applied without breaking
    # output, not the line rate (test_pl011_div checks the numbers).
    st, out = boot("rpi3", demo, "direct", "panic=poweroff uart_baud=921600")
    expect(res, "rpi3: uart_baud=921600 switches the PL011 after the banner; output goes on",
           st, out, present=[r"^bootargs: \"panic=poweroff uart_baud=921600\"$",
                             r"^uart: switching to 921600 baud \(IBRD 3, FBRD 16: 923077 baud\)$",
                             r"^uart: now at 921600 baud$", r"^smp: 4 CPUs online$",
                             r"^demo: PASS$", r"^baretrace: exit status 0$"])
    st, out = boot("rpi3", demo, "direct", "panic=poweroff uart_baud=4000000")
    expect(res, "rpi3: uart_baud=4000000 is refused with the reason; the rate stays",
           st, out, present=[r"^uart_baud: 4000000: above 3000000 baud \(UART clock "
                             r"48000000 Hz\); keeping 115200$", r"^demo: PASS$"],
           absent=[r"^uart: switching"])

    # With a device tree, as the Pi firmware always passes one: CPUs from
    # /cpus and their cpu-release-addr, arguments from /chosen, RAM from
    # /memory (which QEMU sets to the 1 GiB less its 64 MiB of video RAM).
    dtb = os.path.join(ROOT, "build", "rpi3", "raspi3b-test.dtb")
    with open(dtb, "wb") as f:
        f.write(pi3_dtb())
    st, out = run(["tools/qemu-run", "--image", os.path.join(demo, "Image"),
                   "--machine", "raspi3b", "--cpu", "cortex-a53", "--smp", "4", "--mem", "1G",
                   "--bootargs", "panic=poweroff tick_hz=250", "--qemu-flags", f"-dtb {dtb}"],
                  timeout=QEMU_TIMEOUT)
    expect(res, "rpi3: with a DTB, RAM, boot arguments and the 4 CPUs come from it",
           st, out.replace("\r", ""),
           present=[r"RAM 0\+3c000000$", r'^bootargs: "panic=poweroff tick_hz=250"$',
                    r"tick 250 Hz", r"^smp: 4 CPUs online$", r"^demo: PASS$"],
           absent=[r"no valid DTB", r"spin-table:"])

    # The VideoCore interrupt controller behind the local one: bytes sent
    # once the guest is ready raise UART0's receive interrupt (ID 153).
    st, out = run(["make", "BOARD=rpi3", "APP=test/uartirq"])
    if st == 0:
        st, out = uart_input_boot(os.path.join(make_dir("rpi3", "test/uartirq"), "Image"),
                                  "uartirq: ready", b"abc")
    expect(res, "rpi3: a byte on the console raises UART0's interrupt through both "
           "controllers", st, out, present=[r"^uartirq: [1-9]\d* interrupts, 3 bytes$"])

    # The watchdog: reset (QEMU -no-reboot turns it into an exit) ...
    st, out = run(["tools/qemu-run", "--image", os.path.join(tgt, "Image"),
                   "--machine", "raspi3b", "--cpu", "cortex-a53", "--smp", "4", "--mem", "1G",
                   "--bootargs", "panic=reset -- crash null", "--qemu-flags", "-no-reboot"],
                  timeout=QEMU_TIMEOUT)
    out = out.replace("\r", "")
    res.record("rpi3: panic=reset resets the board through the PM watchdog",
               st == 0 and "baretrace: reset" in out and out.count("baretrace: rpi3,") == 1
               and "baretrace: exit status" not in out, f"status {st}\n" + out)
    # ... and power-off (RSTS partition 63) with no semihosting to exit by.
    st, out = run(["qemu-system-aarch64", "-M", "raspi3b", "-nographic", "-net", "none",
                   "-accel", "tcg,thread=single", "-kernel", os.path.join(demo, "Image")],
                  timeout=QEMU_TIMEOUT)
    out = out.replace("\r", "")
    res.record("rpi3: without semihosting, power-off through the watchdog stops QEMU",
               st == 0 and "baretrace: exit status 0" in out and "power-off failed" not in out,
               f"status {st}\n" + out)


def uart_input_boot(image, ready, data):
    """Boots an rpi3 image, sends 'data' on its console once the line
    'ready' appears; returns (status or None on timeout, console text)."""
    cmd = ["qemu-system-aarch64", "-M", "raspi3b", "-nographic", "-net", "none",
           "-accel", "tcg,thread=single", "-semihosting-config", "enable=on,target=native",
           "-kernel", image]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    deadline, text = time.time() + QEMU_TIMEOUT, b""
    try:
        while time.time() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            text += line
            if ready.encode() in line:
                proc.stdin.write(data)
                proc.stdin.flush()
                break
        rest, _ = proc.communicate(timeout=max(1, deadline - time.time()))
        return proc.returncode, (text + rest).decode(errors="replace").replace("\r", "")
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        rest, _ = proc.communicate()
        return None, (text + rest).decode(errors="replace")


VIRT_BLOCKS = {"BOARD_UART_BASE": 0x1000, "BOARD_GICD_BASE": 0x10000, "BOARD_GICC_BASE": 0x10000}


def stage_rpi4(res, board):
    import image_check as ic

    st, out = run(["make", "BOARD=rpi4"])
    d = make_dir("rpi4", "examples/demo")
    files = ["kernel8.img", "config.txt", "cmdline.txt", "boot.scr", "baretrace.lst"]
    missing = [f for f in files if not os.path.exists(os.path.join(d, f))]
    res.record("rpi4: make BOARD=rpi4 writes kernel8.img, config.txt, cmdline.txt, boot.scr",
               st == 0 and not missing, f"missing {missing}\n" + out)
    if st != 0 or missing:
        return

    img = os.path.join(d, "kernel8.img")
    h = ic.arm64_header(img)
    with open(img, "rb") as a, open(os.path.join(d, "Image"), "rb") as b:
        same = a.read() == b.read()
    res.record("rpi4: kernel8.img is the Image with a valid arm64 header (branch, magic, "
               "text_offset 0, size, little endian, 4 KiB, place anywhere)",
               same and h["code0_is_branch"] and h["magic"] == ic.ARM64_MAGIC
               and h["text_offset"] == 0 and h["file_size"] <= h["image_size"]
               and h["image_size"] % 4096 == 0 and h["flags"] == 0b1010, repr(h))

    with open(os.path.join(d, "config.txt")) as f:
        cfg = [l.rstrip("\n") for l in f]
    settings = [i for i, l in enumerate(cfg) if l and not l.startswith("#")]
    bare = [cfg[i] for i in settings if i == 0 or not cfg[i - 1].startswith("#")]
    want = ["arm_64bit=1", "enable_uart=1", "enable_gic=1", "kernel=kernel8.img"]
    res.record("rpi4: config.txt sets arm_64bit, enable_uart, enable_gic, kernel8.img, "
               "each line commented",
               all(w in cfg for w in want) and not bare, f"uncommented {bare}\n" + "\n".join(cfg))

    ok, itype, body = ic.mkimage_script(os.path.join(d, "boot.scr"))
    res.record("rpi4: boot.scr is a U-Boot script that loads kernel8.img and runs booti",
               ok and itype == 6 and b"kernel8.img" in body and b"booti" in body, repr(body[:400]))

    # A card boots as make run does: cmdline.txt holds make run's boot
    # line (panic=poweroff, its tracing: function_graph on the demo's
    # trace_filter), then BOOTARGS as typed; boot.scr carries the same.
    with open(os.path.join(ROOT, "examples/demo/trace_filter")) as f:
        demo_filter = f.read().strip()
    st_p, run_args = run(["make", "-s", "BOARD=rpi4", "print-TRACE_ARGS"])

    def cmdline():
        with open(os.path.join(d, "cmdline.txt")) as f:
            return f.read()

    want = f"panic=poweroff trace=function_graph trace_filter={demo_filter}\n"
    line = cmdline()
    res.record("rpi4: cmdline.txt holds make run's boot line (panic=poweroff, its tracing) "
               "without BOOTARGS=",
               line == want and line == "panic=poweroff " + run_args.strip() + "\n" and
               want.strip().encode() in body, f"cmdline.txt {line!r}, make run {run_args!r}")
    st, out = run(["make", "BOARD=rpi4", "BOOTARGS=uart_baud=921600 trace=function"])
    _, _, body2 = ic.mkimage_script(os.path.join(d, "boot.scr"))
    line = cmdline()
    res.record("rpi4: BOOTARGS= goes after make run's words in cmdline.txt and boot.scr",
               st == 0 and line == want.strip() + " uart_baud=921600 trace=function\n" and
               (want.strip() + " uart_baud=921600 trace=function").encode() in body2,
               f"cmdline.txt {line!r}\n" + out)
    st, out = run(["make", "BOARD=rpi4", "TRACE=", "BOOTARGS="])
    line = cmdline()
    res.record("rpi4: TRACE= BOOTARGS= leaves cmdline.txt with panic=poweroff alone: no tracing",
               st == 0 and line == "panic=poweroff\n", f"cmdline.txt {line!r}\n" + out)
    run(["make", "BOARD=rpi4"])

    try:
        rpi4, virt = ic.board_constants("rpi4"), ic.board_constants("qemu-virt")
    except Exception as e:  # a board.h that does not compile on the host
        res.record("rpi4: board.h values compile on the host", False, str(e))
        return
    wrong = {k: (rpi4.get(k), v) for k, v in RPI4_EXPECTED.items() if rpi4.get(k) != v}
    res.record("rpi4: board data holds the documented UART, GIC, timer and spin-table values",
               not wrong, f"(board.h, documented): {wrong}")

    refs = ic.referenced_values(os.path.join(d, "baretrace.elf"), os.path.join(d, "baretrace.lst"))
    unused = [k for k, size in RPI4_BLOCKS.items() if not ic.in_window(refs, rpi4[k], size)]
    res.record("rpi4: the image's code reaches the UART and the GIC at the board's addresses",
               not unused, f"no reference into {unused}")

    def virt_refs(values):
        return {k: [hex(v) for v in ic.in_window(values, virt[k], size)]
                for k, size in VIRT_BLOCKS.items() if ic.in_window(values, virt[k], size)}

    found = virt_refs(refs)
    res.record("rpi4: disassembly and data reference no QEMU virt device address",
               not found, f"found {found}")
    # The same check must see them in the qemu-virt image, or it proves nothing.
    st, out = run(["make", "BOARD=qemu-virt"])
    v = make_dir("qemu-virt", "examples/demo")
    control = virt_refs(ic.referenced_values(os.path.join(v, "baretrace.elf"),
                                             os.path.join(v, "baretrace.lst"))) if st == 0 else {}
    res.record("rpi4: the same check finds the virt addresses in the qemu-virt image",
               len(control) == len(VIRT_BLOCKS), f"found only {control}\n" + out[-2000:])
