"""test/thirdparty.py: stage "thirdparty", code nobody here wrote. mbed TLS's
own self-test program (examples/mbedtls: Debian's source package, fetched
by tools/fetch-source, built unchanged) runs as an app on qemu-virt, rpi3
(raspi3b) and rpi4 (raspi4b, tools/fetch-qemu's QEMU; skipped with a note
without it), untraced and traced with function_graph.

  untraced  every per-test line says passed, none failed, "[ All tests
            PASS ]", exit status 0; the same verdict lines on every board
  traced    trace_filter=mbedtls_*,*_self_test trace_max_depth=3: every
            library function goes through the tracer, the ring keeps three
            levels: about 255,000 events, 1.1 MB as encoded in the ring,
            which fits the smallest board ring (8 MiB) even undrained, so
            0 lost holds whatever the host's speed; the verdict lines
            and suite count equal the untraced run's, exit 0; the trace
            holds each suite the program says it ran ("Executed N test
            suites") as one call beneath mbedtls_selftest_main, and the
            library functions they called
  deep      (qemu-virt) no depth limit, a 1 MiB flight-recorder ring:
            verdicts as untraced, the capture's books balance, bignum
            internals (mbedtls_mpi_*) are in the trace
Then the probe stress test on qemu-virt (test/probe_stress.py: the
demo's, mbed TLS's and the locks' functions, a probe on each instruction).
Takes about 40 s once the images are built (each board's build about 25 s),
and the stress test about 35 s more.
"""
import os
import re

import probe_stress

APP = "examples/mbedtls"
BOARDS = ("qemu-virt", "rpi3", "rpi4")
TRACED = "trace=function_graph trace_filter=mbedtls_*,*_self_test trace_max_depth=3"
DEEP = "trace=function_graph trace_filter=mbedtls_* trace_buf=1M"


def qemu_cmd(h, board, image_dir, bootargs, capture=None):
    cmd = ["tools/qemu-run", "--image", os.path.join(image_dir, "Image"),
           "--machine", h.make_var(board, "QEMU_MACHINE"), "--cpu", h.make_var(board, "QEMU_CPU"),
           "--smp", h.make_var(board, "QEMU_SMP"), "--mem", h.make_var(board, "QEMU_MEM"),
           "--bootargs", bootargs]
    qemu_bin, dtb = h.make_var(board, "QEMU_BIN"), h.make_var(board, "QEMU_DTB_FILE")
    cmd += (["--qemu", qemu_bin] if qemu_bin else []) + (["--dtb", dtb] if dtb else [])
    if capture:
        cmd += ["--capture", capture]
    return cmd


def boot(h, board, image_dir, bootargs, capture=None):
    st, out = h.run(qemu_cmd(h, board, image_dir, bootargs, capture), timeout=h.QEMU_TIMEOUT)
    return st, h.strip_frames(out).replace("\r", "")


def verdicts(out):
    """The program's per-test lines (each says passed or failed), the
    failed ones, its suite count (None without the line) and whether it
    ended with its all-passed line."""
    lines = [ln.strip() for ln in out.splitlines() if re.search(r"\b(passed|failed)\b", ln, re.I)]
    failed = [ln for ln in out.splitlines() if re.search(r"fail", ln, re.I)]
    m = re.search(r"^  Executed (\d+) test suites$", out, re.M)
    return lines, failed, int(m.group(1)) if m else None, "[ All tests PASS ]" in out


def stats(h, trace, elf, extra=()):
    """{function: calls} from baretrace stats, and its output."""
    st, out = h.run([os.path.join(h.HOST, "baretrace"), "stats", trace, "--elf", elf, *extra])
    rows = {}
    for ln in out.splitlines():
        f = ln.split()
        if len(f) >= 6 and f[0].isdigit():
            rows[f[5]] = int(f[0])
    return (rows if st == 0 else {}), out


def check_untraced(h, res, board, image_dir):
    st, out = boot(h, board, image_dir, "panic=poweroff")
    lines, failed, suites, all_pass = verdicts(out)
    ok = (st == 0 and not failed and all_pass and suites and len(lines) >= suites
          and "baretrace: exit status 0" in out)
    res.record(f"thirdparty {board}: mbed TLS self-test untraced: {suites} suites, "
               f"{len(lines)} checks passed, none failed, exit status 0", ok,
               f"exit status {st}; failed lines {failed}\n{out}")
    return lines if ok else None, suites


def check_traced(h, res, board, image_dir, lines0, suites0):
    trace = os.path.join(h.ROOT, "build", "run", f"thirdparty-{board}.bt")
    os.makedirs(os.path.dirname(trace), exist_ok=True)
    st, out = boot(h, board, image_dir, f"panic=poweroff {TRACED}", capture=trace)
    lines, failed, suites, all_pass = verdicts(out)
    res.record(f"thirdparty {board}: traced with function_graph the same {suites0} suites "
               f"and {len(lines0)} check lines pass, exit status 0",
               st == 0 and not failed and all_pass and suites == suites0 and lines == lines0
               and "baretrace: exit status 0" in out,
               f"exit status {st}; suites {suites} (untraced {suites0}); failed {failed}; "
               f"lines differ: {sorted(set(lines) ^ set(lines0))[:10]}\n{out}")
    m = re.search(r"target produced (\d+) events?: (\d+) decoded \+ 0 lost on the target "
                  r"\(.*\) \+ 0 lost on the wire", out)
    res.record(f"thirdparty {board}: the traced run's trace is whole "
               f"({m.group(1) if m else '?'} events, 0 lost)",
               bool(m) and m.group(1) == m.group(2) and int(m.group(1)) > 0, out)
    elf = os.path.join(image_dir, "baretrace.elf")
    # selftest.c's main ends in exit(), so its call never returns (the
    # report shows it cut by the exit) and stats, from returns, omits it.
    _, rout = h.run([os.path.join(h.HOST, "baretrace"), "report", trace, "--elf", elf,
                     "--depth", "1"])
    roots = set(re.findall(r"\|\s+([\w.]+)\(\)", rout))
    top, sout = stats(h, trace, elf, ["--depth", "2"])
    odd = {f: n for f, n in top.items() if n != 1}
    res.record(f"thirdparty {board}: the trace holds each suite the program ran "
               f"({len(top)} of {suites0}) as one call beneath mbedtls_selftest_main",
               roots == {"mbedtls_selftest_main"} and len(top) == suites0 and not odd,
               f"outermost calls {sorted(roots)}; suites in the trace {sorted(top)}; "
               f"not called once: {odd}\n{rout[-2000:]}\n{sout}")
    every, sout = stats(h, trace, elf)
    lib = {f: n for f, n in every.items() if f.startswith("mbedtls_") and n > 0
           and f not in top}
    res.record(f"thirdparty {board}: beneath the suites the trace holds {len(lib)} mbed TLS "
               f"functions with their call counts ({sum(lib.values())} calls)",
               len(lib) >= 2 * suites0, sout)


def check_deep(h, res, board, image_dir, lines0):
    trace = os.path.join(h.ROOT, "build", "run", f"thirdparty-{board}-deep.bt")
    st, out = boot(h, board, image_dir, f"panic=poweroff {DEEP}", capture=trace)
    lines, failed, _, all_pass = verdicts(out)
    m = re.search(r"target produced (\d+) events?: (\d+) decoded \+ (\d+) lost on the target "
                  r"\(.*\) \+ (\d+) lost on the wire", out)
    books = bool(m) and int(m.group(1)) == sum(int(m.group(i)) for i in (2, 3, 4))
    every, sout = stats(h, trace, os.path.join(image_dir, "baretrace.elf"))
    mpi = sorted(f for f, n in every.items() if f.startswith("mbedtls_mpi_") and n > 0)
    res.record(f"thirdparty {board}: traced to every depth (flight recorder) the checks pass "
               f"as untraced; {m.group(1) if m else '?'} events, books balance; "
               f"{len(mpi)} bignum functions (mbedtls_mpi_*) in the trace",
               st == 0 and not failed and all_pass and lines == lines0 and books and len(mpi) >= 5,
               f"exit status {st}; failed {failed}; bignum {mpi}\n{out}\n{sout}")


def stage_thirdparty(h, res, board):
    st, out = h.run(["tools/fetch-source", "mbedtls", "--check"])
    if st != 0:
        st, out = h.run(["tools/fetch-source", "mbedtls"])
    res.record("thirdparty: mbed TLS's Debian source package is unpacked in build/third-party "
               "(tools/fetch-source mbedtls)", st == 0, out)
    if st != 0:
        return
    first = None
    for b in BOARDS:
        if b == "rpi4":
            qst, qout = h.run(["tools/fetch-qemu", "--check"])
            if qst != 0:
                res.record("thirdparty rpi4: skipped: no QEMU with raspi4b "
                           f"({qout.strip()})", True)
                continue
        st, out = h.run(["make", f"BOARD={b}", f"APP={APP}"])
        res.record(f"thirdparty {b}: make BOARD={b} APP={APP} builds the library unchanged",
                   st == 0, out)
        if st != 0:
            continue
        image_dir = h.make_dir(b, APP)
        lines0, suites0 = check_untraced(h, res, b, image_dir)
        if lines0 is None:
            continue
        if first is None:
            first = (b, lines0)
        else:
            res.record(f"thirdparty {b}: the same check lines as on {first[0]}",
                       lines0 == first[1], "\n".join(sorted(set(lines0) ^ set(first[1]))))
        check_traced(h, res, b, image_dir, lines0, suites0)
        if b == "qemu-virt":
            check_deep(h, res, b, image_dir, lines0)
    probe_stress.check(h, res)
