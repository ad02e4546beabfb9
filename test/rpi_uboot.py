"""test/rpi_uboot.py: stages "rpi-uboot" and "rpi4-uboot", the Raspberry
Pi card's U-Boot flow end to end on QEMU raspi3b (make BOARD=rpi3
run-uboot) and raspi4b (make BOARD=rpi4 run-uboot, QEMU 9.0 or later:
tools/fetch-qemu's).

The card is what 'make sdcard SDCARD_FLOW=uboot' writes, less the
closed-source firmware: QEMU stands in for it and loads Debian's rpi_arm64
U-Boot (u-boot-rpi, arm64) with Debian's bcm2837-rpi-3-b.dtb (from the
arm64 kernel package; bcm2711-rpi-4-b.dtb on raspi4b), both fetched into
build/debs by tools/fetch-pi.
U-Boot finds boot.scr on the card, which sets the card's boot arguments
and boots kernel8.img with that device tree.

  demo      the card's default arguments are make run's tracing; the boot
            passes through U-Boot (its banner on the PL011, its script run
            on the mini UART), the arguments reach the kernel, RAM and the
            CPUs come from the real DTB, the demo passes, and the captured
            trace is complete: the target's own event count is what the
            host decodes from the file, with nothing lost or damaged
  dtb       the console lines name the UART, the interrupt controllers
            (the Pi 4: the GIC-400's distributor and CPU interface) and the
            CPUs' enable-method the kernel took from the DTB, equal to what
            fdtget reads from the same file; (rpi3) a copy edited (dtc) to
            give CPU 3 enable-method "psci" (CPU 2 none, the local interrupt
            controller an address /soc does not map) boots with that CPU
            not started (and board.h's base kept)
  ktap      the KTAP suites booted through the same U-Boot and card
  rpi4      (rpi-uboot) make BOARD=rpi4 sdcard SDCARD_FLOW=uboot puts the
            same downloaded U-Boot on the Pi 4 card (firmware: placeholders)
"""
import os
import re
import subprocess

TIMEOUT = 180


# What differs between the boards: U-Boot's name for the board, and the
# devices whose console lines are held against fdtget: (line, compatible
# or None for the serial0 alias, reg index).
PI = {"rpi3": dict(model="RPI 3 Model B", ram="3c000000",
                   devices=[("uart0", None, 0), ("local-intc", "brcm,bcm2836-l1-intc", 0),
                            ("armctrl-ic", "brcm,bcm2836-armctrl-ic", 0)]),
      "rpi4": dict(model="RPI 4 Model B", ram=None,
                   devices=[("uart0", None, 0), ("gicd", "arm,gic-400", 0),
                            ("gicc", "arm,gic-400", 1)])}


def run_uboot(h, app, extra, pi="rpi3"):
    return h.run(["make", f"BOARD={pi}", f"APP={app}", "run-uboot"] + extra, timeout=TIMEOUT)


def stage_rpi_uboot(h, res, board):
    stage_rpi4_card(h, res)
    uboot_flow(h, res, "rpi3")


def stage_rpi4_uboot(h, res, board):
    import rpi4_qemu
    if rpi4_qemu.have_qemu(h, res):
        uboot_flow(h, res, "rpi4")


def uboot_flow(h, res, pi):
    tag = "rpi-uboot" if pi == "rpi3" else f"{pi}-uboot"
    model = PI[pi]["model"]
    # The demo with the card's default arguments (no BOOTARGS=).
    st, out = run_uboot(h, "examples/demo", [], pi)
    out = out.replace("\r", "")
    text = h.strip_frames(out)
    demo = h.make_dir(pi, "examples/demo")
    card = os.path.join(demo, "run-uboot")
    try:
        with open(os.path.join(card, "miniuart.log"), errors="replace") as f:
            mini = f.read().replace("\r", "")
    except OSError:
        mini = ""
    machine = h.make_var(pi, "QEMU_MACHINE")
    res.record(f"{tag}: Debian's U-Boot starts on {machine} and runs the card's boot.scr",
               re.search(r"^U-Boot 20\d\d\.\d\d", text, re.M) is not None and
               model in text and "Found U-Boot script /boot.scr" in mini and
               "Starting kernel" in mini and
               re.search(rf"^baretrace: {pi}, entered at EL2", text, re.M) is not None,
               f"status {st}\n--- mini UART:\n{mini[-1500:]}\n--- console:\n{text[-3000:]}")

    # make run's boot line: panic=poweroff, then its tracing, as make
    # itself prints it (not spelled here).
    trace_args = h.make_var(pi, "TRACE_ARGS").strip()
    got = re.search(r'^bootargs: "(.*)"$', text, re.M)
    with open(os.path.join(demo, "cmdline.txt")) as f:
        card = f.read().strip()
    want = "panic=poweroff " + trace_args
    res.record(f"{tag}: the card's default boot arguments (make run's: panic=poweroff, its "
               "tracing) reach the kernel through boot.scr",
               bool(trace_args) and got is not None and got.group(1) == want and
               card == want,
               f"kernel saw {got.group(1) if got else None!r}, make run traces {trace_args!r}, "
               f"the card's cmdline.txt {card!r}")

    # QEMU's raspi3b has 1 GiB less 64 MiB of video RAM, which it writes
    # into the DTB's /memory; the board default (no DTB) is 0x3b400000.
    dtb_name = h.make_var(pi, "RPI_QEMU_DTB")
    ram = PI[pi]["ram"]
    res.record(f"{tag}: the kernel reads the real {dtb_name}: "
               + ("RAM from /memory, " if ram else "")
               + "4 CPUs from /cpus by their spin-table release addresses",
               (not ram or re.search(rf"RAM 0\+{ram}$", text, re.M) is not None) and
               "no valid DTB" not in text and "spin-table:" not in text and
               re.search(r"^smp: 4 CPUs online$", text, re.M) is not None,
               text[-3000:])
    res.record(f"{tag}: the demo passes through U-Boot and exits 0",
               st == 0 and re.search(r"^demo: PASS$", text, re.M) is not None and
               re.search(r"^baretrace: exit status 0$", text, re.M) is not None,
               f"status {st}\n" + text[-3000:])

    check_dtb_lines(h, res, text, pi, tag)

    # Completeness: the target's END totals, the capture's balance and the
    # events the host tool itself decodes from the file must all agree.
    bt = os.path.join(h.ROOT, "build", "run", "trace.bt")
    target = re.search(r"^trace: (\d+) events, (\d+) lost", text, re.M)
    cap = re.search(r"^baretrace capture: \d+ frames?, (\d+) damaged, (\d+) sequence gaps?, "
                    r"(\d+) events?, (\d+) lost", text, re.M)
    bal = re.search(r"target produced (\d+) events?: (\d+) decoded \+ (\d+) lost on the target"
                    r".* \+ (\d+) lost on the wire", text)
    sst, stats = h.run([os.path.join(h.HOST, "baretrace"), "stats", bt,
                        "--elf", os.path.join(demo, "baretrace.elf")])
    host = re.search(r"^# (\d+) events$", stats, re.M)
    n = int(target.group(1)) if target else -1
    res.record(f"{tag}: the trace is complete: the target's {n} events are all in the "
               "captured file, none lost or damaged",
               n > 0 and target.group(2) == "0" and cap is not None and
               cap.groups() == ("0", "0", str(n), "0") and bal is not None and
               bal.groups() == (str(n), str(n), "0", "0") and sst == 0 and host is not None
               and int(host.group(1)) == n and
               os.path.getsize(os.path.join(h.ROOT, "build", "run", "trace.txt")) > 0,
               f"target {target and target.groups()}, capture {cap and cap.groups()}, "
               f"balance {bal and bal.groups()}, stats {host and host.group(1)}\n"
               + stats[-500:] + text[-1500:])

    if pi == "rpi3":
        check_bad_enable_method(h, res)

    # The KTAP suites through the same flow; BOOTARGS= goes after make
    # run's panic=poweroff (TRACE=: no tracing), as on a real card.
    st, out = run_uboot(h, "test/target", ["BOOTARGS=-- ktest", "TRACE="], pi)
    text = h.strip_frames(out.replace("\r", ""))
    if st is None:
        res.record(f"{tag} ktap: finished within {TIMEOUT}s (hang: QEMU killed)",
                   False, text)
        return
    res.record(f"{tag} ktap: booted through U-Boot with the card's arguments",
               re.search(r"^U-Boot 20\d\d\.\d\d", text, re.M) is not None and
               re.search(r'^bootargs: "panic=poweroff -- ktest"$', text, re.M) is not None,
               text[-2000:])
    h.parse_ktap(f"{tag} ktap", text, res)
    res.record(f"{tag} ktap: exit status 0 reaches the host", st == 0, text[-2000:])


def qemu_dtb(h, pi="rpi3"):
    """The Debian DTB run-uboot hands QEMU (the Makefile's own choice)."""
    st, out = h.run(["sh", "-c", "ls $0/usr/lib/linux-image-*/broadcom/$1 | head -n 1",
                     os.path.join(h.ROOT, h.make_var(pi, "RPI_KERNEL_DEB").strip()),
                     h.make_var(pi, "RPI_QEMU_DTB").strip()])
    return out.strip() if st == 0 else None


def fdtget(dtb, node, prop, typ="x"):
    r = subprocess.run(["fdtget", "-t", typ, dtb, node, prop], capture_output=True, text=True)
    return r.stdout.split() if r.returncode == 0 else None


def host_cpu_addr(dtb, node, index=0):
    """reg[index] of 'node' as a CPU address, by the devicetree
    specification's rule, with fdtget: up through each parent's ranges
    (absent: not CPU-visible; empty: identity). Cells are 32 bits."""
    def cells(n, name, dflt):
        v = fdtget(dtb, n, name)
        return int(v[0], 16) if v else dflt

    def num(words):
        x = 0
        for w in words:
            x = (x << 32) | int(w, 16)
        return x

    bus = node.rsplit("/", 1)[0] or "/"
    ac, sc = cells(bus, "#address-cells", 2), cells(bus, "#size-cells", 1)
    reg = fdtget(dtb, node, "reg")
    entry = reg[index * (ac + sc):(index + 1) * (ac + sc)]
    addr = num(entry[:ac])
    while bus != "/":
        up = bus.rsplit("/", 1)[0] or "/"
        ca, cs, pa = cells(bus, "#address-cells", 2), cells(bus, "#size-cells", 1), \
            cells(up, "#address-cells", 2)
        r = subprocess.run(["fdtget", "-t", "x", dtb, bus, "ranges"], capture_output=True,
                           text=True)
        if r.returncode != 0:
            return None
        words, step = r.stdout.split(), ca + pa + cs
        for i in range(0, len(words) - step + 1, step):
            child, parent = num(words[i:i + ca]), num(words[i + ca:i + ca + pa])
            if child <= addr < child + num(words[i + ca + pa:i + step]):
                addr = parent + addr - child
                break
        else:
            if words:
                return None
        bus = up
    return addr


def host_compatible(dtb, compat):
    """The path of the first node (depth first) whose compatible holds
    'compat', with fdtget -l."""
    def walk(node):
        for child in subprocess.run(["fdtget", "-l", dtb, node], capture_output=True,
                                    text=True).stdout.split():
            path = node.rstrip("/") + "/" + child
            if compat in (fdtget(dtb, path, "compatible", "s") or []):
                return path
            found = walk(path)
            if found:
                return found
        return None
    return walk("/")


def check_dtb_lines(h, res, text, pi="rpi3", tag="rpi-uboot"):
    """The kernel's lines for what it took from the DTB, against fdtget on
    the same file."""
    dtb = qemu_dtb(h, pi)
    if not dtb:
        res.record(f"{tag} dtb: the DTB run-uboot boots with is there", False, "")
        return
    want = {}
    for what, compat, index in PI[pi]["devices"]:
        node = fdtget(dtb, "/aliases", "serial0", "s")[0] if compat is None else \
            host_compatible(dtb, compat)
        want[what] = (node, host_cpu_addr(dtb, node, index) if node else None)
    bad = []
    for what, (node, addr) in want.items():
        line = f"{what}: {addr:x} (DTB {node.rsplit('/', 1)[1]})" if addr else None
        if not line or not re.search("^" + re.escape(line) + "$", text, re.M):
            bad.append(f"{what}: want {line!r}")
    cpus = [c for c in subprocess.run(["fdtget", "-l", dtb, "/cpus"], capture_output=True,
                                      text=True).stdout.split() if c.startswith("cpu@")]
    methods = [(fdtget(dtb, "/cpus/" + c, "enable-method", "s") or ["?"])[0] for c in cpus]
    smp = (f'smp: enable-method "spin-table" (DTB) on '
           f'{methods.count("spin-table")} of {len(cpus)} CPUs')
    if len(cpus) != 4 or not re.search("^" + re.escape(smp) + "$", text, re.M):
        bad.append(f"want {smp!r} (DTB: {cpus} {methods})")
    res.record(f"{tag} dtb: the kernel names the UART, interrupt controllers and "
               f"enable-method it took from {os.path.basename(dtb)}, as fdtget reads them "
               "(" + ", ".join(f"{w} {a:x}" for w, (_, a) in want.items() if a) + ")",
               not bad, "\n".join(bad) + "\n--- console:\n" + "\n".join(
                   ln for ln in text.splitlines() if re.match(r"(uart0|local-intc|armctrl-ic|"
                                                              r"smp|gic.):", ln)))
    return want


def check_bad_enable_method(h, res):
    """The same DTB with CPU 3's enable-method edited to "psci", CPU 2's
    removed, and the
    local interrupt controller's reg moved out of /soc's ranges (dtc out
    and back): CPU 3 is not started, board.h's local-intc base is kept
    with a line saying why, and the rest of the boot is fine."""
    dtb = qemu_dtb(h)
    out_dir = os.path.join(h.make_dir("rpi3", "examples/demo"), "run-uboot")
    bad = os.path.join(out_dir, "cpu3-psci.dtb")
    dts = subprocess.run(["dtc", "-q", "-I", "dtb", "-O", "dts", dtb], capture_output=True,
                         text=True).stdout
    at = dts.find("cpu@3 {")
    edited = dts[:at] + dts[at:].replace('enable-method = "spin-table";',
                                         'enable-method = "psci";', 1) if at >= 0 else dts
    # cpu@2 without one: started by the board's method, said once.
    at = edited.find("cpu@2 {")
    edited = edited[:at] + edited[at:].replace('enable-method = "spin-table";', "", 1)
    # And the local interrupt controller's reg moved where /soc's ranges
    # do not reach: the kernel must keep board.h's base.
    at = edited.find("local_intc@40000000 {")
    edited = edited[:at] + edited[at:].replace("reg = <0x40000000 0x100>;",
                                               "reg = <0x50000000 0x100>;", 1)
    os.makedirs(out_dir, exist_ok=True)
    r = subprocess.run(["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", bad, "-"], input=edited,
                       capture_output=True, text=True)
    got = fdtget(bad, "/cpus/cpu@3", "enable-method", "s") if r.returncode == 0 else None
    intc = fdtget(bad, "/soc/local_intc@40000000", "reg") if r.returncode == 0 else None
    gone = subprocess.run(["fdtget", bad, "/cpus/cpu@2", "enable-method"],
                          capture_output=True).returncode != 0
    if got != ["psci"] or intc != ["50000000", "100"] or not gone:
        res.record("rpi-uboot dtb: a copy with cpu@3 enable-method \"psci\" made with dtc",
                   False, f"dtc: {r.returncode} {r.stderr}; cpu@3 enable-method {got}, "
                   f"local_intc reg {intc}, cpu@2's removed {gone}")
        return
    # QEMU takes the last -dtb: this one, after run-uboot's own.
    st, out = run_uboot(h, "examples/demo", ["TRACE=", f"QEMU_FLAGS=-dtb {bad}"])
    text = h.strip_frames(out.replace("\r", ""))
    res.record("rpi-uboot dtb: with cpu@3's enable-method \"psci\" the kernel says so, "
               "starts CPUs 0-2 only (cpu@2, without one, by the board's spin-table); an "
               "untranslatable local_intc reg keeps board.h's "
               "base; the demo passes",
               st == 0 and re.search(r'^smp: cpu@3: enable-method "psci" is not this '
                                     r'board\'s "spin-table"; not starting it$', text, re.M)
               is not None and
               re.search(r'^smp: cpu@2 has no enable-method; using the board\'s '
                         r'"spin-table"$', text, re.M) is not None and
               re.search(r'^smp: enable-method "spin-table" \(DTB\) on 2 of 4 CPUs, '
                         r'\(board\) on 1$', text, re.M) is not None and
               re.search(r"^smp: 3 CPUs online$", text, re.M) is not None and
               re.search(r"^local-intc: DTB local_intc@40000000 reg\[0\] does not translate "
                         r"to a CPU address; keeping 40000000 \(board\)$", text, re.M)
               is not None and
               re.search(r"^demo: PASS$", text, re.M) is not None and
               re.search(r"^baretrace: exit status 0$", text, re.M) is not None,
               f"status {st}\n" + text[-3000:])


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
