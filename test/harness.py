"""test/harness.py: what every stage uses: running commands and make, booting
an image under QEMU (boot, qemu_boot), reading TAP and KTAP, the results,
and the DTBs the stages boot with.
"""
import os
import re
import signal
import subprocess
import threading
import time


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


HOST = os.path.join(ROOT, "build", "host")


QEMU_TIMEOUT = 90


class Results:
    """The results of a run, printed as one TAP 14 stream (docs/tests.md,
    "The output is TAP 14"): start() prints the version line, record()
    one numbered test point each (a failure's detail follows it as "#"
    comment lines, so nested KTAP or TAP in it is never read as test
    points), finish() the plan, at the end as TAP allows, and last the
    line "N passed, N failed"."""

    def __init__(self, verbose):
        self.passed = 0
        self.failed = 0
        self.failures = []
        self.verbose = verbose
        self.started = False

    def start(self):
        if not self.started:
            self.started = True
            print("TAP version 14", flush=True)

    def record(self, name, ok, detail=""):
        self.start()
        # A description is one line; "#" starts a directive unless escaped.
        desc = " ".join(str(name).split()).replace("\\", "\\\\").replace("#", "\\#")
        if ok:
            self.passed += 1
            print(f"ok {self.passed + self.failed} - {desc}", flush=True)
        else:
            self.failed += 1
            self.failures.append(name)
            print(f"not ok {self.passed + self.failed} - {desc}", flush=True)
            lines = detail.strip().splitlines()
            # The last 25 lines; a longer detail keeps its first line too
            # (where a test puts its verdict before a long console tail).
            if len(lines) > 25:
                lines = lines[:1] + ["[...]"] + lines[-24:]
            for line in lines:
                print(f"#   {line}")

    def finish(self, comments=()):
        """Prints the comments, the plan and the closing line."""
        self.start()
        for line in comments:
            print(f"# {line}")
        print(f"1..{self.passed + self.failed}")
        print(f"{self.passed} passed, {self.failed} failed", flush=True)


def run(cmd, timeout=None, cwd=ROOT, env=None):
    """Runs cmd; returns (status, output). Status None means timed out."""
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                            env=env, start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out.decode(errors="replace")
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out, _ = proc.communicate()
        return None, out.decode(errors="replace")


def typed_session(cmd, lines, mark=b""):
    """Runs cmd, types each line (str or bytes) at a 'bt> ' prompt, after
    'mark' (the capture's, when the test stands in for it); returns
    (status or None on timeout, every byte it printed)."""
    proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    out, sent, deadline = b"", 0, time.time() + QEMU_TIMEOUT
    try:
        while sent < len(lines) and time.time() < deadline:
            chunk = proc.stdout.read1(4096)
            if not chunk:
                break
            out += chunk
            while sent < len(lines) and out.count(b"bt> ") > sent:
                line = lines[sent]
                proc.stdin.write(mark + (line.encode() if isinstance(line, str) else line) + b"\n")
                proc.stdin.flush()
                sent += 1
        rest, _ = proc.communicate(timeout=max(1, deadline - time.time()))
        return proc.returncode, out + rest
    except (subprocess.TimeoutExpired, BrokenPipeError):
        os.killpg(proc.pid, 9)
        rest, _ = proc.communicate()
        return None, out + rest


def make_var(board, var):
    _, out = run(["make", "-s", f"BOARD={board}", f"print-{var}"])
    return out.strip().splitlines()[-1] if out.strip() else ""


def parse_tap(name, out, res, status):
    seen = 0
    for line in out.splitlines():
        m = re.match(r"(not ok|ok)\s+(\d+)\s*-?\s*(.*)", line)
        if m:
            seen += 1
            res.record(f"{name}: {m.group(3)}", m.group(1) == "ok",
                       "" if m.group(1) == "ok" else out)
    if status != 0 and not any(l.startswith("not ok") for l in out.splitlines()):
        res.record(f"{name}: exits 0", False, out)
    elif seen == 0:
        res.record(f"{name}: produced TAP", False, out)


def host_dtb():
    path = os.path.join(HOST, "virt.dtb")
    if not os.path.exists(path):
        run(["qemu-system-aarch64", "-M", f"virt,dumpdtb={path}", "-smp", "4",
             "-m", "512M", "-nographic", "-net", "none"], timeout=30)
    return path


def boot(board, image_dir, mode, bootargs, timeout=QEMU_TIMEOUT):
    """Boots an image; returns (status or None on timeout, console text)."""
    cpu = make_var(board, "QEMU_CPU")
    machine = make_var(board, "QEMU_MACHINE")
    smp = make_var(board, "QEMU_SMP")
    cmd = ["tools/qemu-run", "--image", os.path.join(image_dir, "Image"),
           "--machine", machine, "--cpu", cpu, "--smp", smp,
           "--mem", make_var(board, "QEMU_MEM"), "--bootargs", bootargs]
    # A board's own QEMU and the device tree its firmware passes (rpi4).
    qemu_bin, dtb = make_var(board, "QEMU_BIN"), make_var(board, "QEMU_DTB_FILE")
    cmd += (["--qemu", qemu_bin] if qemu_bin else []) + (["--dtb", dtb] if dtb else [])
    if mode == "uboot":
        cmd += ["--uboot", make_var(board, "UBOOT_BIN")]
    elif mode == "el2":
        cmd[cmd.index("--machine") + 1] = machine + ",virtualization=on"
    elif mode == "smp1":
        cmd[cmd.index("--smp") + 1] = "1"
    elif mode == "cpumax":
        cmd[cmd.index("--cpu") + 1] = "max"
    elif mode == "mttcg":
        cmd += ["--qemu-flags", "-accel tcg,thread=multi"]
    elif mode == "icount":
        cmd += ["--qemu-flags", "-icount shift=0"]
    st, out = run(cmd, timeout=timeout)
    return st, strip_frames(out)


def strip_frames(out):
    """Console text without trace frames (STX ... ETX, docs/wire.md; ETX
    never occurs inside one), which may sit between console lines."""
    return re.sub("\x02[^\x03]*\x03", "", out).replace("\r", "")


def input_boot_cmd(cmd, ready, data, raw=False):
    """Runs the boot command 'cmd' (in the tree's root), writes 'data' to
    its stdin half a second after a line holding 'ready' appears (well
    inside the loop the image runs next); returns (status, or None if it
    ran past QEMU_TIMEOUT and was killed, console text without frames;
    raw: the console bytes, frames and all)."""
    proc = subprocess.Popen(cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    timed_out = []

    def kill():
        timed_out.append(1)
        os.killpg(proc.pid, signal.SIGKILL)
    timer = threading.Timer(QEMU_TIMEOUT, kill)
    timer.start()
    text = b""
    try:
        for line in iter(proc.stdout.readline, b""):
            text += line
            if data and ready.encode() in line:
                time.sleep(0.5)
                proc.stdin.write(data)
                proc.stdin.flush()
                data = b""
        proc.wait()
    finally:
        timer.cancel()
    st = None if timed_out else proc.returncode
    return st, (text if raw else strip_frames(text.decode(errors="replace")))


def parse_ktap(prefix, out, res):
    """Records one result per KTAP test line, checking the plan."""
    plan = re.search(r"^KTAP version 1\n1\.\.(\d+)$", out, re.M)
    if not plan:
        res.record(f"{prefix}: prints a KTAP header and plan", False, out)
        return
    lines = re.findall(r"^(not ok|ok) (\d+) (\S+)(.*)$", out, re.M)
    for i, (verdict, num, name, rest) in enumerate(lines):
        detail = "\n".join(re.findall(rf"^    # .*$", out, re.M)) if verdict != "ok" else ""
        res.record(f"{prefix}: {name}{rest}", verdict == "ok" and int(num) == i + 1, detail)
    if len(lines) != int(plan.group(1)):
        res.record(f"{prefix}: ran all {plan.group(1)} planned tests (got {len(lines)})",
                   False, out)


def ktap_failures(out):
    """Each failed KTAP case of out with the lines it printed since the
    case before it (its diagnostics), for a detail whose last lines are
    the ones shown; '' when none failed."""
    lines, since, found = out.replace("\r", "").splitlines(), [], []
    for line in lines:
        if re.match(r"\s*not ok \d+ ", line):
            found += since[-12:] + [line]
        if re.match(r"\s*(not )?ok \d+ ", line):
            since = []
        else:
            since.append(line)
    return "\nfailed cases:\n" + "\n".join(found) if found else ""


def make_dir(board, app):
    return os.path.join(ROOT, "build", board,
                        "" if app == "examples/demo" else "app-" + app.replace("/", "-"))


def expect(res, name, st, out, status=0, present=(), absent=()):
    missing = [p for p in present if not re.search(p, out, re.M)]
    found = [p for p in absent if re.search(p, out, re.M)]
    ok = st == status and not missing and not found
    why = (f"exit status {st}, wanted {status}; missing {missing}; unwanted {found}\n"
           + out)
    res.record(name, ok, why)


def pi3_dtb():
    """A device tree shaped like the Pi 3 firmware's (bcm2837.dtsi /cpus,
    one memory bank), in the devicetree specification v0.4 chapter 5
    format; QEMU adds /chosen/bootargs and rewrites /memory."""
    import struct

    strings, st = b"", b""

    def prop(name, value):
        nonlocal strings, st
        key = name.encode() + b"\0"
        if key not in strings:
            strings += key
        st += struct.pack(">III", 3, len(value), strings.index(key))
        st += value + b"\0" * (-len(value) % 4)

    def begin(name):
        nonlocal st
        n = name.encode() + b"\0"
        st += struct.pack(">I", 1) + n + b"\0" * (-len(n) % 4)

    def end():
        nonlocal st
        st += struct.pack(">I", 2)

    def cells(*v):
        return struct.pack(f">{len(v)}I", *v)

    begin("")
    prop("#address-cells", cells(1))
    prop("#size-cells", cells(1))
    prop("compatible", b"raspberrypi,3-model-b\0brcm,bcm2837\0")
    begin("memory@0")
    prop("device_type", b"memory\0")
    prop("reg", cells(0, 0x3b400000))
    end()
    begin("chosen")
    end()
    begin("cpus")
    prop("#address-cells", cells(1))
    prop("#size-cells", cells(0))
    for n in range(4):
        begin(f"cpu@{n}")
        prop("device_type", b"cpu\0")
        prop("compatible", b"arm,cortex-a53\0")
        prop("reg", cells(n))
        prop("enable-method", b"spin-table\0")
        prop("cpu-release-addr", cells(0, 0xd8 + 8 * n))
        end()
    end()
    end()
    st += struct.pack(">I", 9)
    off_rsv = 40
    off_st = off_rsv + 16
    off_str = off_st + len(st)
    total = off_str + len(strings)
    hdr = struct.pack(">10I", 0xd00dfeed, total, off_st, off_str, off_rsv, 17, 16, 0,
                      len(strings), len(st))
    return hdr + b"\0" * 16 + st + strings


def dtb_set_cpu1_cell(blob, prop, value):
    """A copy of the DTB 'blob' whose /cpus/cpu@1 property 'prop' has its
    last 32-bit cell set to 'value', cut to its real size (QEMU pads a
    dumped DTB to 1 MiB, which the kernel takes for no DTB at all).
    Walks the structure block (devicetree specification v0.4 chapter 5)."""
    import struct

    blob = bytearray(blob)
    _, _, off_st, off_str = struct.unpack(">4I", blob[:16])
    size_str, size_st = struct.unpack(">II", blob[32:40])
    pos, path = off_st, []
    while True:
        tok, = struct.unpack(">I", blob[pos:pos + 4])
        pos += 4
        if tok == 1:            # FDT_BEGIN_NODE, name, padded
            end = blob.index(b"\0", pos)
            path.append(blob[pos:end].decode())
            pos = (end + 4) & ~3
        elif tok == 2:          # FDT_END_NODE
            path.pop()
        elif tok == 3:          # FDT_PROP: len, nameoff, value
            ln, nameoff = struct.unpack(">II", blob[pos:pos + 8])
            pos += 8
            name = blob[off_str + nameoff:blob.index(b"\0", off_str + nameoff)]
            if path[1:] == ["cpus", "cpu@1"] and name == prop.encode():
                blob[pos + ln - 4:pos + ln] = struct.pack(">I", value)
                break
            pos = (pos + ln + 3) & ~3
        elif tok == 4:          # FDT_NOP
            continue
        else:
            raise ValueError(f"DTB without /cpus/cpu@1 {prop}")
    total = max(off_st + size_st, off_str + size_str)
    blob[4:8] = struct.pack(">I", total)
    return bytes(blob[:total])


def qemu_boot(image_dir, bootargs, machine="virt", cpu="cortex-a72", flags="", capture="",
              mem="512M"):
    cmd = ["tools/qemu-run", "--image", os.path.join(image_dir, "Image"),
           "--machine", machine, "--cpu", cpu, "--smp", "4", "--mem", mem,
           "--bootargs", bootargs]
    if flags:
        cmd += ["--qemu-flags", flags]
    if capture:
        cmd += ["--capture", capture]
    st, out = run(cmd, timeout=QEMU_TIMEOUT)
    return st, strip_frames(out) if not capture else out.replace("\r", "")
