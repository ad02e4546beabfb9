"""test/mk_names.py: a mistyped name is caught where it is typed (issue 40
item 3). make checks TRACE= and BOOTARGS's kernel words against the names
the built image knows before anything boots, and refuses with the nearest
known name as its last line; the target, booted straight with the same
typos, names the nearest too (docs/running.md, "Names are checked").

Every make here runs with QEMU_BIN set to a stand-in that only notes it
was called, so "nothing booted" is a fact the test reads, not a timing.
"""
import os
import re
import stat
import tempfile

TYPO_TRACE = "function_grpah"


def user_env():
    """make as a user types it: not inside make test's make (whose
    MAKELEVEL adds make's "Leaving directory" lines)."""
    return {k: v for k, v in os.environ.items()
            if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS", "MAKEOVERRIDES")}


def fake_qemu(d):
    path, log = os.path.join(d, "qemu-stand-in"), os.path.join(d, "called")
    with open(path, "w") as f:
        f.write(f"#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{log}'\nexit 1\n")
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path, log


def lines_of(out):
    return [l for l in out.replace("\r", "").splitlines() if l.strip()]


def check_refused(h, res, board, qemu, log, args, target, want, typo, made=None):
    """want: the name the last line suggests, or a list: the names it
    lists when none is near. made: a file the target writes, which a
    refusal must not have written."""
    if os.path.exists(log):
        os.remove(log)
    if made and os.path.exists(made):
        os.remove(made)
    cmd = ["make", f"BOARD={board}", f"QEMU_BIN={qemu}"] + args + [target]
    st, out = h.run(cmd, timeout=600, env=user_env())
    lines = lines_of(out)
    last = lines[-1] if lines else ""
    booted = open(log).read() if os.path.exists(log) else ""
    said = (rf"did you mean '{want}'\?" if isinstance(want, str)
            else r"\(known: " + ", ".join(want) + r"\)")
    res.record(f"names: make {' '.join(args)} {target} is refused before QEMU starts, "
               f"the last line naming {typo} and " + (f"'did you mean {want}'" if
                                                      isinstance(want, str) else
                                                      "every tracer (none is near)"),
               st not in (0, None) and not booted
               and re.search(rf"\bmake {target}: refused before the boot\b", last)
               and typo in last and re.search(said, last)
               and not any("bootargs:" in l or "U-Boot" in l for l in lines)
               and not (made and os.path.exists(made)),
               f"status {st}; QEMU called: {booted!r}; "
               f"{made} written: {bool(made and os.path.exists(made))}\n"
               + "\n".join(lines[-15:]))


def check_make(h, res, board, d, tracers):
    qemu, log = fake_qemu(d)
    check_refused(h, res, board, qemu, log, [f"TRACE={TYPO_TRACE}"], "run",
                  "function_graph", f"TRACE={TYPO_TRACE}")
    # No tracer is near "graph": each is listed, as the booted image
    # lists them (check_target).
    check_refused(h, res, board, qemu, log, ["TRACE=graph"], "run", tracers or ["?"],
                  "TRACE=graph")
    check_refused(h, res, board, qemu, log, ["BOOTARGS=maxcpu=2 -- x"], "run",
                  "maxcpus", "'maxcpu=2'")
    check_refused(h, res, board, qemu, log, ["TRACE=", "BOOTARGS=trace=functoin"], "run",
                  "function", "trace=functoin")
    check_refused(h, res, board, qemu, log, ["BOOTARGS=tick_hx=200 -- x"], "run-direct",
                  "tick_hz", "'tick_hx=200'")
    # make debug boots BOOTARGS as typed (no TRACE=), as run-direct does.
    check_refused(h, res, board, qemu, log, ["BOOTARGS=maxcpu=2 -- x"], "debug",
                  "maxcpus", "'maxcpu=2'")
    check_refused(h, res, board, qemu, log, ["BOOTARGS=trace=functoin"], "debug",
                  "function", "trace=functoin")
    # Good names pass, quoted words included, and the application's words
    # after -- are the application's: QEMU is started (the stand-in);
    # run-direct hands it the line (run's is on U-Boot's disk).
    for target, args in [("run", ["TRACE=function", "BOOTARGS=tick_hz=200 "
                                  '"trace_notrace=demo_idle" -- maxcpu=2 functoin']),
                         ("run-direct", ['BOOTARGS=tick_hz=200 "uart_baud=115200" '
                                         "-- maxcpu=2 functoin"])]:
        if os.path.exists(log):
            os.remove(log)
        st, out = h.run(["make", f"BOARD={board}", f"QEMU_BIN={qemu}"] + args + [target],
                        timeout=600, env=user_env())
        booted = open(log).read() if os.path.exists(log) else ""
        res.record(f"names: make {target} with known names (and the app's words after --, "
                   "however spelt) starts QEMU",
                   booted and "refused before the boot" not in out and
                   (target == "run" or args[0][len("BOOTARGS="):] in booted),
                   f"status {st}; QEMU called with: {booted!r}\n" + out[-2000:])


def known_list(text):
    m = re.search(r"unknown kernel parameter 'xyzzy=1' \(known:([^)]*)\)", text)
    return sorted(m.group(1).replace(",", " ").split()) if m else None


def check_target(h, res, board):
    """The target's own suggestions, and the names make's check reads from
    the ELF are the ones the booted image lists. Returns the tracers the
    target lists for a name none is near."""
    image = h.make_dir(board, "examples/demo")
    st, out = h.boot(board, image, "direct",
                     f"panic=poweroff maxcpu=2 xyzzy=1 trace={TYPO_TRACE} trace=graph",
                     timeout=120)
    h.expect(res, "names: the target suggests the nearest name for a mistyped parameter and "
             "tracer, and ends the run on the tracer (a trace setting)", st, out, status=2,
             present=[r"^bootargs: unknown kernel parameter 'maxcpu=2' \(did you mean "
                      r"'maxcpus'\?\)$",
                      rf"^trace: no such tracer '{TYPO_TRACE}' \(did you mean "
                      r"'function_graph'\?\)$",
                      r"^trace: not applied: trace\b.* \(see above\)"],
             absent=[r"^demo: "])
    m = re.search(r"^trace: no such tracer 'graph' \(tracers: ([a-z_, ]+)\)$", out, re.M)
    tracers = m.group(1).split(", ") if m else None
    target_names = known_list(out)
    checker = os.path.join(h.HOST, "check-names")
    st2, said = h.run([checker, os.path.join(image, "baretrace.elf"), "--bootargs", "xyzzy=1"]) \
        if os.path.exists(checker) else (None, f"no {checker}")
    checker_names = known_list(said)
    res.record("names: make's check knows exactly the parameters the booted image lists",
               st2 == 2 and target_names and checker_names == target_names,
               f"target: {target_names}\ncheck-names ({st2}): {checker_names}\n{said}")
    st, out = h.input_boot_cmd(
        ["tools/qemu-run", "--image", os.path.join(image, "Image"),
         "--machine", h.make_var(board, "QEMU_MACHINE"), "--cpu", h.make_var(board, "QEMU_CPU"),
         "--smp", h.make_var(board, "QEMU_SMP"), "--mem", h.make_var(board, "QEMU_MEM"),
         "--bootargs", "panic=poweroff shell"]
        + (["--qemu", h.make_var(board, "QEMU_BIN")] if h.make_var(board, "QEMU_BIN") else [])
        + (["--dtb", h.make_var(board, "QEMU_DTB_FILE")]
           if h.make_var(board, "QEMU_DTB_FILE") else []),
        "baretrace shell:", b"tracer functoin\ntracer profle\nexit 0\n")
    h.expect(res, "names: the shell's 'tracer' suggests the nearest recording tracer", st, out,
             present=[r"^tracer: no such tracer 'functoin' \(did you mean 'function'\?\)$",
                      r"^tracer: no such tracer 'profle' \(tracers: function, function_graph, "
                      r"nop\)$"])
    return tracers


def check(h, res, board):
    st, out = h.run(["make", f"BOARD={board}", "all", "host-tools"], timeout=1800)
    if st != 0:
        res.record("names: the image and host tools build", False, out[-3000:])
        return
    tracers = check_target(h, res, board)
    with tempfile.TemporaryDirectory() as d:
        check_make(h, res, board, d, tracers)
        check_sdcard(h, res, d)


def check_sdcard(h, res, d):
    """make sdcard writes make run's boot line to the card's cmdline.txt:
    its names are checked as make run's, before the card is made."""
    qemu, log = fake_qemu(d)
    card = os.path.join(h.ROOT, "build", "rpi4", "sdcard.img")
    check_refused(h, res, "rpi4", qemu, log, [f"TRACE={TYPO_TRACE}"], "sdcard",
                  "function_graph", f"TRACE={TYPO_TRACE}", made=card)
    check_refused(h, res, "rpi4", qemu, log, ["BOOTARGS=maxcpu=2 -- x"], "sdcard",
                  "maxcpus", "'maxcpu=2'", made=card)
