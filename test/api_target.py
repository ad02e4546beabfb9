"""test/api_target.py: the application API's runs beyond the target
stage's KTAP boots (test/target/test_api_*.c): its locks and per-CPU data
with truly parallel CPUs (multi-threaded TCG), and console reads fed
through QEMU's standard input (the 'conread' scenario prints KTAP)."""
import os

from harness import QEMU_TIMEOUT, boot, input_boot_cmd, make_var, parse_ktap

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
