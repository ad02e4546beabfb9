"""test/rpi_uboot.py: stage "rpi-uboot", the Raspberry Pi card's U-Boot
flow end to end on QEMU raspi3b (make BOARD=rpi3 run-uboot).

The card is what 'make sdcard SDCARD_FLOW=uboot' writes, less the
closed-source firmware: QEMU stands in for it and loads Debian's rpi_arm64
U-Boot (u-boot-rpi, arm64) with Debian's bcm2837-rpi-3-b.dtb (from the
arm64 kernel package), both fetched into build/debs by tools/fetch-pi.
U-Boot finds boot.scr on the card, which sets the card's boot arguments
and boots kernel8.img with that device tree.

  demo      the card's default arguments are make run's tracing; the boot
            passes through U-Boot (its banner on the PL011, its script run
            on the mini UART), the arguments reach the kernel, RAM and the
            CPUs come from the real DTB, the demo passes, and the captured
            trace is complete: the target's own event count is what the
            host decodes from the file, with nothing lost or damaged
  ktap      the KTAP suites booted through the same U-Boot and card
  rpi4      make BOARD=rpi4 sdcard SDCARD_FLOW=uboot puts the same
            downloaded U-Boot on the Pi 4 card (firmware: placeholders)
"""
import os
import re
import subprocess

TIMEOUT = 180


def run_uboot(h, app, extra):
    return h.run(["make", "BOARD=rpi3", f"APP={app}", "run-uboot"] + extra, timeout=TIMEOUT)


def stage_rpi_uboot(h, res, board):
    stage_rpi4_card(h, res)
    # The demo with the card's default arguments (no BOOTARGS=).
    st, out = run_uboot(h, "examples/demo", [])
    out = out.replace("\r", "")
    text = h.strip_frames(out)
    demo = h.make_dir("rpi3", "examples/demo")
    card = os.path.join(demo, "run-uboot")
    try:
        with open(os.path.join(card, "miniuart.log"), errors="replace") as f:
            mini = f.read().replace("\r", "")
    except OSError:
        mini = ""
    res.record("rpi-uboot: Debian's U-Boot starts on raspi3b and runs the card's boot.scr",
               re.search(r"^U-Boot 20\d\d\.\d\d", text, re.M) is not None and
               "RPI 3 Model B" in text and "Found U-Boot script /boot.scr" in mini and
               "Starting kernel" in mini and
               re.search(r"^baretrace: rpi3, entered at EL2", text, re.M) is not None,
               f"status {st}\n--- mini UART:\n{mini[-1500:]}\n--- console:\n{text[-3000:]}")

    # make run's tracing, as make itself prints it (not spelled here).
    trace_args = h.make_var("rpi3", "TRACE_ARGS").strip()
    got = re.search(r'^bootargs: "(.*)"$', text, re.M)
    res.record("rpi-uboot: the card's default boot arguments (make run's tracing) reach "
               "the kernel through boot.scr",
               bool(trace_args) and got is not None and got.group(1) == trace_args,
               f"kernel saw {got.group(1) if got else None!r}, make run traces {trace_args!r}")

    # QEMU's raspi3b has 1 GiB less 64 MiB of video RAM, which it writes
    # into the DTB's /memory; the board default (no DTB) is 0x3b400000.
    res.record("rpi-uboot: the kernel reads the real bcm2837-rpi-3-b.dtb: RAM from /memory, "
               "4 CPUs from /cpus by their spin-table release addresses",
               re.search(r"RAM 0\+3c000000$", text, re.M) is not None and
               "no valid DTB" not in text and "spin-table:" not in text and
               re.search(r"^smp: 4 CPUs online$", text, re.M) is not None,
               text[-3000:])
    res.record("rpi-uboot: the demo passes through U-Boot and exits 0",
               st == 0 and re.search(r"^demo: PASS$", text, re.M) is not None and
               re.search(r"^baretrace: exit status 0$", text, re.M) is not None,
               f"status {st}\n" + text[-3000:])

    # Completeness: the target's END totals, the capture's balance and the
    # events the host tool itself decodes from the file must all agree.
    bt = os.path.join(h.ROOT, "build", "run", "trace.bt")
    target = re.search(r"^trace: (\d+) events, (\d+) lost", text, re.M)
    cap = re.search(r"^baretrace capture: \d+ frames, (\d+) damaged, (\d+) sequence gaps, "
                    r"(\d+) events, (\d+) lost", text, re.M)
    bal = re.search(r"target produced (\d+) events: (\d+) decoded \+ (\d+) lost on the target"
                    r".* \+ (\d+) lost on the wire", text)
    sst, stats = h.run([os.path.join(h.HOST, "baretrace"), "stats", bt,
                        "--elf", os.path.join(demo, "baretrace.elf")])
    host = re.search(r"^# (\d+) events$", stats, re.M)
    n = int(target.group(1)) if target else -1
    res.record(f"rpi-uboot: the trace is complete: the target's {n} events are all in the "
               "captured file, none lost or damaged",
               n > 0 and target.group(2) == "0" and cap is not None and
               cap.groups() == ("0", "0", str(n), "0") and bal is not None and
               bal.groups() == (str(n), str(n), "0", "0") and sst == 0 and host is not None
               and int(host.group(1)) == n and
               os.path.getsize(os.path.join(h.ROOT, "build", "run", "trace.txt")) > 0,
               f"target {target and target.groups()}, capture {cap and cap.groups()}, "
               f"balance {bal and bal.groups()}, stats {host and host.group(1)}\n"
               + stats[-500:] + text[-1500:])

    # The KTAP suites through the same flow; BOOTARGS= replaces the card's
    # arguments, as on a real card.
    st, out = run_uboot(h, "test/target", ["BOOTARGS=panic=poweroff -- ktest", "TRACE="])
    text = h.strip_frames(out.replace("\r", ""))
    if st is None:
        res.record(f"rpi-uboot ktap: finished within {TIMEOUT}s (hang: QEMU killed)",
                   False, text)
        return
    res.record("rpi-uboot ktap: booted through U-Boot with the card's arguments",
               re.search(r"^U-Boot 20\d\d\.\d\d", text, re.M) is not None and
               re.search(r'^bootargs: "panic=poweroff -- ktest"$', text, re.M) is not None,
               text[-2000:])
    h.parse_ktap("rpi-uboot ktap", text, res)
    res.record("rpi-uboot ktap: exit status 0 reaches the host", st == 0, text[-2000:])


def stage_rpi4_card(h, res):
    """The Pi 4 card in the U-Boot flow: only the firmware is the user's
    (placeholder files here); U-Boot is the one make fetched."""
    fw = os.path.join(h.ROOT, "build", "rpi4", "fake-firmware")
    os.makedirs(fw, exist_ok=True)
    for f in h.make_var("rpi4", "RPI_FIRMWARE").split():
        with open(os.path.join(fw, f), "w") as out:
            out.write("placeholder for the user's Pi firmware file\n")
    st, out = h.run(["make", "BOARD=rpi4", "sdcard", "SDCARD_FLOW=uboot",
                     f"FIRMWARE_DIR={fw}"], timeout=TIMEOUT)
    img = os.path.join(h.make_dir("rpi4", "examples/demo"), "sdcard.img")
    uboot = os.path.join(h.ROOT, h.make_var("rpi4", "RPI_UBOOT_DEB"))

    def fat(name):  # a file of the card image's FAT partition (1 MiB in)
        r = subprocess.run(["mtype", "-i", img + "@@1M", "::" + name], capture_output=True)
        return r.stdout if r.returncode == 0 else None
    try:
        with open(uboot, "rb") as f:
            want = f.read()
    except OSError:
        want = None
    cfg = fat("config.txt") or b""
    res.record("rpi-uboot: make BOARD=rpi4 sdcard SDCARD_FLOW=uboot puts Debian's downloaded "
               "rpi_arm64 U-Boot on the card and boots it from config.txt",
               st == 0 and want is not None and fat("u-boot.bin") == want and
               re.search(rb"^kernel=u-boot.bin$", cfg, re.M) is not None and
               fat("boot.scr") is not None and fat("kernel8.img") is not None,
               f"status {st}, U-Boot {uboot}\n" + out[-2000:] + cfg.decode(errors="replace"))
