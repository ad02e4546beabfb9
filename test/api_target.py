"""test/api_target.py: the application API's runs beyond the target
stage's KTAP boots (test/target/test_api_*.c): its locks and per-CPU data
with truly parallel CPUs (multi-threaded TCG), and console reads fed
through QEMU's standard input (the 'conread' scenario prints KTAP)."""
import glob
import os

import re

from harness import (QEMU_TIMEOUT, ROOT, boot, input_boot_cmd, make_var, parse_ktap, run,
                     strip_frames)

# What the harness types, and (test_api_console.c fed_want) what the
# application must read: a lone Ctrl-\ and a DLE not followed by CAN are
# delivered like any byte.
TYPED = b"ab\x1cc\x10xd\n"


def qemu_cmd(board, image_dir, bootargs):
    """tools/qemu-run for the board's 'direct' boot, as harness.boot."""
    cmd = ["tools/qemu-run", "--image", os.path.join(image_dir, "Image"),
           "--machine", make_var(board, "QEMU_MACHINE"), "--cpu", make_var(board, "QEMU_CPU"),
           "--smp", make_var(board, "QEMU_SMP"), "--mem", make_var(board, "QEMU_MEM"),
           "--bootargs", bootargs]
    qemu_bin, dtb = make_var(board, "QEMU_BIN"), make_var(board, "QEMU_DTB_FILE")
    return cmd + (["--qemu", qemu_bin] if qemu_bin else []) + (["--dtb", dtb] if dtb else [])


def check_api(res, board, image_dir):
    if board == "qemu-virt":
        st, out = boot(board, image_dir, "mttcg", "panic=poweroff -- ktest api_lock api_percpu")
        parse_ktap("ktap[mttcg api locks]", out, res)
        res.record("ktap[mttcg api locks]: exit status 0", st == 0, out[-3000:])

    st, out = input_boot_cmd(qemu_cmd(board, image_dir, "panic=poweroff -- conread"),
                             "conread: ready", TYPED)
    if st is None:
        res.record(f"ktap[conread]: finished within {QEMU_TIMEOUT}s", False, out)
        return
    parse_ktap("ktap[conread]", out, res)
    res.record("ktap[conread]: exit status 0", st == 0, out[-3000:])


def check_api_rpi3_dtb(res, tgt):
    """QEMU raspi3b boots without a device tree, so the device suites skip
    there; with Debian's Pi 3 tree (fetched for the U-Boot stages) they
    run: the PL011 behind the Pi 3's own interrupt controller
    (brcm,bcm2836-armctrl-ic, <2 25> = ID 153)."""
    deb = os.path.join(ROOT, make_var("rpi3", "RPI_KERNEL_DEB"))
    dtbs = sorted(glob.glob(os.path.join(deb, "usr/lib/linux-image-*/broadcom/",
                                         make_var("rpi3", "RPI_QEMU_DTB"))))
    if not dtbs:
        res.record("rpi3 ktap[dtb]: device suites with bcm2837-rpi-3-b.dtb (skipped: "
                   "no Debian kernel package under build/debs)", True)
        return
    st, out = run(qemu_cmd("rpi3", tgt, "panic=poweroff -- ktest api_dev") + ["--dtb", dtbs[0]],
                  timeout=QEMU_TIMEOUT)
    out = strip_frames(out)
    parse_ktap("rpi3 ktap[dtb]", out, res)
    res.record("rpi3 ktap[dtb]: the PL011 found and read through the API, exit status 0",
               st == 0 and bool(re.search(r"^ok \d+ api_dev_finds_maps_and_reads_the_pl011$", out, re.M)),
               out[-3000:])
