"""test/mk_quote.py: issue 40 items 1 and 2: what a user puts in single
quotes in BOOTARGS (and EXEC) reaches the kernel (and the capture's
shell) unchanged, and every run target boots make run's boot line
(panic=poweroff, make run's tracing where captured, then BOOTARGS).

- make run (qemu-virt: through U-Boot, tools/mkdisk's boot.scr) with a
  return probe's $retval, two probes separated by ';' and a word in
  double quotes holding $, ;, a single quote, a backslash and make's own
  $(...) and $$: the kernel's "bootargs:" line is make run's words and
  then BOOTARGS exactly, and both probes' events are in the trace, one
  per fsm_step call the demo made;
- run-direct: the same text boots exactly (no trace setting), and with
  the probes it is refused with a make line that a shell reads back to
  BOOTARGS as typed; make debug's --bootargs and make run's --exec
  (make -n, read back as sh would);
- a newline is refused before anything is built, named, and no earlier
  run's status is left; tools/mkdisk
  refuses a control character, named, and writes nothing;
- the farms' card for a scenario holds the scenario's line exactly;
- BOARD=rpi4 run-uboot (the Pi card's boot.scr and cmdline.txt) with
  '-- crash null' and the quoted word: the kernel gets the card's line
  (panic=poweroff, make run's tracing, BOOTARGS), and the run ends as a
  crash (139), not a hang (TIMEOUT= bounds it).
"""
import os
import re
import subprocess
import sys
import tempfile

# A word the kernel reports as an invalid value and ignores (a known
# name: make refuses an unknown one before the boot, and checks names,
# not values: test/mk_names.py), holding what make, a shell and U-Boot's
# shell would each change: $, ;, a single quote, a backslash, make's
# $(...) and $$, ${...}.
ODD_WORD = 'tick_hz="a;$b \'c\'\\d $(e) $$f ${g}"'
PROBES = "trace_probe=r=fsm_step%return,$retval:u32;s=fsm_step+0x1c,x1:s32"
TYPED = f"{PROBES} {ODD_WORD} -- q"


def kernel_bootargs(h, out):
    m = re.findall(r'^bootargs: "(.*)"$', h.strip_frames(out), re.M)
    return m[0] if m else None


def sh_words(line):
    """The words a shell reads from a command line (bash parses it and
    prints each word)."""
    r = subprocess.run(["bash", "-c", "printf '%s\\0' " + line], capture_output=True,
                       text=True, stdin=subprocess.DEVNULL)
    return r.stdout.split("\0")[:-1] if r.returncode == 0 else None


def check(h, res, board):
    if board != "qemu-virt":
        return
    st, out = h.run(["make", "all", "host-tools"], timeout=900)
    if st != 0:
        res.record("mk_quote: make all host-tools", False, out[-3000:])
        return
    check_run(h, res)
    check_direct(h, res)
    check_dry_runs(h, res)
    check_refusals(h, res)
    check_farm_card(h, res)
    check_run_uboot(h, res)


def check_run(h, res):
    st, out = h.run(["make", "TRACE=", f"BOOTARGS={TYPED}", "TIMEOUT=120", "run"], timeout=400)
    got = kernel_bootargs(h, out)
    res.record("mk_quote: make TRACE= BOOTARGS='<probes with $retval and ;, a word with "
               "$ ; \" \\' \\\\ $(..) $$>' run: the kernel's boot line is panic=poweroff, "
               "then BOOTARGS exactly (through U-Boot's boot.scr)",
               st == 0 and got == "panic=poweroff " + TYPED,
               f"status {st}; kernel saw {got!r}\nwanted {'panic=poweroff ' + TYPED!r}\n"
               + h.strip_frames(out)[-2000:])
    try:
        with open(os.path.join(h.ROOT, "build", "run", "trace.txt"), errors="replace") as f:
            trace = f.read()
    except OSError:
        trace = ""
    samples = re.search(r"^demo: samples=(\d+)", h.strip_frames(out), re.M)
    ret = re.findall(r"probe r \(return\): retval=(\d+)$", trace, re.M)
    ins = re.findall(r"probe s: x1=(-?\d+)$", trace, re.M)
    res.record("mk_quote: both probes of that line record: one 'probe r (return): retval=' "
               "(its $retval) and one 'probe s: x1=' per fsm_step call the demo made",
               samples is not None and len(ret) == len(ins) == int(samples[1]) and
               set(ret) <= {"0", "1", "2", "3", "4"},
               f"demo samples {samples and samples[1]}; {len(ret)} return hits "
               f"{sorted(set(ret))}, {len(ins)} probe hits\n" + trace[-1500:])


def check_direct(h, res):
    typed = f"{ODD_WORD} -- q"
    st, out = h.run(["make", f"BOOTARGS={typed}", "run-direct"], timeout=300)
    got = kernel_bootargs(h, out)
    res.record("mk_quote: make BOOTARGS='<the word with $ ; \" \\' \\\\ $(..) $$>' run-direct: "
               "the kernel's boot line is panic=poweroff, then BOOTARGS exactly",
               st == 0 and got == "panic=poweroff " + typed,
               f"status {st}; kernel saw {got!r}\n" + h.strip_frames(out)[-1500:])
    st, out = h.run(["make", f"BOOTARGS={TYPED}", "APP=examples/demo", "run-direct"],
                    timeout=300)
    m = re.search(r"run them captured: (make .*)$", out, re.M)
    words = sh_words(m[1]) if m else None
    res.record("mk_quote: run-direct refuses the probes with a make ... run line that a "
               "shell reads back to BOOTARGS exactly",
               st not in (0, None) and words == ["make", "TRACE=", f"BOOTARGS={TYPED}", "run"],
               f"status {st}; words {words}\n" + out[-1500:])


def recipe_arg(out, option):
    """The value of 'option' in the tools/qemu-run line make -n prints."""
    for line in re.sub(r"\\\n", " ", out).splitlines():
        if "tools/qemu-run" in line and option in line:
            words = sh_words(line[line.index("tools/qemu-run"):].split(" || ")[0]) or []
            if option in words:
                return words[words.index(option) + 1]
    return None


def check_dry_runs(h, res):
    st, out = h.run(["make", "-n", f"BOOTARGS={TYPED}", "debug"], timeout=120)
    got = recipe_arg(out, "--bootargs")
    res.record("mk_quote: make debug hands QEMU BOOTARGS exactly (no panic=poweroff: a "
               "crash waits for gdb)", got == TYPED, f"status {st}; --bootargs {got!r}\n"
               + out[-1500:])
    exec_ = "stats; echo '$x' \"$(y)\" \\z; exit 0"
    st, out = h.run(["make", "-n", f"EXEC={exec_}", "run"], timeout=120)
    got = recipe_arg(out, "--exec")
    res.record("mk_quote: make run hands the capture EXEC exactly", got == exec_,
               f"status {st}; --exec {got!r}\n" + out[-1500:])


def check_refusals(h, res):
    """A refused make run boots nothing and, as every run that did not
    happen (docs/running.md, "Every output is this run's"), leaves no
    earlier run's status behind to pass for its own."""
    status = os.path.join(h.ROOT, "build", "run", "status")
    os.makedirs(os.path.dirname(status), exist_ok=True)
    with open(status, "w") as f:
        f.write("exit 0\n")
    st, out = h.run(["make", "BOOTARGS=a\nb", "run"], timeout=120)
    res.record("mk_quote: a newline in BOOTARGS is refused before anything runs, named "
               "(no build/run/status of an earlier run left)",
               st not in (0, None) and "newline (0x0a)" in out and not os.path.exists(status)
               and "qemu-run" not in out, f"status {st}\n" + out[-1500:])
    with tempfile.TemporaryDirectory() as d:
        disk = os.path.join(d, "u", "disk.img")
        st, out = h.run(["tools/mkdisk", os.path.join(h.ROOT, "build", "qemu-virt", "Image"),
                         disk, "a\x01b"], timeout=60)
        res.record("mk_quote: tools/mkdisk refuses a control character, naming it, and "
                   "writes nothing", st == 1 and "0x01" in out and
                   not os.path.exists(os.path.dirname(disk)), f"status {st}\n{out}")


def check_farm_card(h, res):
    """The farms' Pi cards: make's variables for a scenario's line give a
    cmdline.txt of exactly that line (no boot: make print-RPI_CMDLINE)."""
    sys.path.insert(0, os.path.join(h.ROOT, "tools", "farm"))
    import scenarios as sc
    args = "panic=poweroff " + TYPED
    st, out = h.run(["make", "-s", "BOARD=rpi4", "APP=test/target"] + sc.card_vars(args) +
                    ["print-RPI_CMDLINE"], timeout=120)
    got = out.rstrip("\n")
    word = sc.uboot_word(args)
    res.record("mk_quote: the farms' card for a scenario holds its line exactly, and its "
               "U-Boot word reads back to it (sh reads U-Boot's quoting alike)",
               st == 0 and got == args and sh_words("x " + word)[1:] == [args],
               f"status {st}; cmdline {got!r}; word {word!r}")


def check_run_uboot(h, res):
    """One rpi4 boot (slow): item 2 and the card's quoting."""
    st, out = h.run(["make", "BOARD=rpi4", "APP=test/target", "all", "host-tools"], timeout=1500)
    if st != 0:
        res.record("mk_quote: make BOARD=rpi4 APP=test/target", False, out[-3000:])
        return
    typed = f"{ODD_WORD} -- crash null"
    st, targs = h.run(["make", "-s", "BOARD=rpi4", "APP=test/target", "print-TRACE_ARGS"])
    want = f"panic=poweroff {targs.strip()} {typed}"
    st, out = h.run(["make", "BOARD=rpi4", "APP=test/target", f"BOOTARGS={typed}",
                     "TIMEOUT=150", "run-uboot"], timeout=600)
    got = kernel_bootargs(h, out)
    try:
        with open(os.path.join(h.ROOT, "build", "run", "status")) as f:
            status = f.read().strip()
    except OSError:
        status = None
    card = os.path.join(h.make_dir("rpi4", "test/target"), "cmdline.txt")
    with open(card) as f:
        cmdline = f.read()
    res.record("mk_quote: make BOARD=rpi4 APP=test/target BOOTARGS='<odd word> -- crash null' "
               "run-uboot: the card's cmdline.txt and the kernel's boot line are make run's "
               "(panic=poweroff, its tracing), then BOOTARGS exactly",
               got == want and cmdline == want + "\n" and "trace=" in want,
               f"kernel saw {got!r}\ncmdline.txt {cmdline!r}\nwanted {want!r}")
    res.record("mk_quote: that run-uboot ends as a crash (build/run/status 'crash 139'), "
               "not a hang", st not in (0, None) and status == "crash 139",
               f"status {st}; build/run/status {status!r}\n" + h.strip_frames(out)[-2000:])
