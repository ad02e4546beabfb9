"""test/end_of_run.py: the end of a traced run loses nothing (issue 10).

Boots the traced demo exactly as `make run` does (U-Boot on qemu-virt,
the firmware path on rpi3, `baretrace capture` on the serial line, no
-icount) many times and checks each run's books against the target's own:

  target:  trace: P events, L lost, ...        (its totals at the end)
  host:    baretrace capture: F frames, D damaged, G sequence gaps, E events, ...
           baretrace capture: target produced P events: E decoded + T lost
             on the target (...) + W lost on the wire

Every run must end with the end-of-stream frame, no damaged frame, and
E = P - L exactly. Lossy runs (small rings, a paced line, stop mode,
tracepoints recording to the end) must balance the same way: every event
decoded or counted lost on the target, none unaccounted.
"""
import os
import re
from concurrent.futures import ThreadPoolExecutor

TARGET = re.compile(r"^trace: (\d+) events, (\d+) lost", re.M)
# The capture's lines start at a line start, never inside the target's
# (test/host/e2e_capture_lines.py): anchored.
CAPTURE = re.compile(r"^baretrace capture: (\d+) frames?, (\d+) damaged, (\d+) sequence gaps?, "
                     r"(\d+) events?, (\d+) lost, .*?$", re.M)
BOOKS = re.compile(r"^baretrace capture: target produced (\d+) events?: (\d+) decoded \+ "
                   r"(\d+) lost on the target .*\+ (\d+) lost on the wire", re.M)


# Exact repetition, several CPUs included (docs: QEMU's -icount).
ICOUNT = "-icount shift=0,sleep=off"


def make_run(h, board, run_dir, bootargs="", trace=None, qemu_flags=""):
    cmd = ["make", "-s", f"BOARD={board}", f"RUN_DIR={run_dir}", "run"]
    if bootargs:
        cmd.append(f"BOOTARGS={bootargs}")
    if qemu_flags:
        cmd.append(f"QEMU_FLAGS={qemu_flags}")
    if trace is not None:
        cmd.append(f"TRACE={trace}")
    st, out = h.run(cmd, timeout=h.QEMU_TIMEOUT * 2)
    return st, out.replace("\r", "")


def books(out):
    """Checks one run's output; returns (ok, why, figures)."""
    t, c, b = TARGET.search(out), CAPTURE.search(out), BOOKS.search(out)
    if not t or not c:
        return False, "no target totals line" if not t else "no capture summary", None
    produced, lost = int(t.group(1)), int(t.group(2))
    damaged, decoded = int(c.group(2)), int(c.group(4))
    fig = dict(produced=produced, lost=lost, decoded=decoded, damaged=damaged)
    if "(no end-of-stream frame)" in c.group(0) or "(interrupted)" in c.group(0):
        return False, "no end-of-stream frame: " + c.group(0), fig
    if damaged:
        return False, f"{damaged} damaged frames", fig
    if decoded != produced - lost:
        return False, f"decoded {decoded} != produced {produced} - lost {lost}", fig
    if b:
        hp, hd, ht, hw = (int(x) for x in b.groups())
        if (hp, hd, ht, hw) != (produced, decoded, lost, 0):
            return False, f"host books {b.group(0)!r} disagree with the target's", fig
    return True, "", fig


def repeat(h, res, board, n, name, bootargs="", trace=None, parallel=1, lossless=False):
    root = os.path.join(h.ROOT, "build", "endrun", board)
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")

    def one(i):
        return make_run(h, board, os.path.join(root, f"{slug}-{i}"), bootargs, trace)

    # One at a time: make run writes the U-Boot disk and cmdline.txt of the
    # board in place.
    with ThreadPoolExecutor(max_workers=parallel) as ex:
        results = list(ex.map(one, range(n)))
    bad = []
    totals = []
    for i, (st, out) in enumerate(results):
        ok, why, fig = books(out)
        if st != 0:
            ok, why = False, f"make run exited {st}"
        elif ok and lossless and fig["lost"]:
            # 64 KiB rings and QEMU's instant UART: nothing may be lost,
            # not even to events recorded while the run ends.
            ok, why = False, f"{fig['lost']} events lost where none should be"
        if fig:
            totals.append(fig)
        if not ok:
            bad.append(f"run {i}: {why}\n" + "\n".join(out.splitlines()[-12:]))
    events = sum(f["produced"] for f in totals)
    lost = sum(f["lost"] for f in totals)
    res.record(f"end of run [{board}] {name}: {n} of {n} runs end with every event "
               f"decoded or counted lost ({events} events, {lost} lost on the target)",
               not bad, "\n".join(bad[:2]))
    return totals


SOAK = re.compile(r"^soak: (\d+) control operations, (\d+) worker calls on (\d+) CPUs, "
                  r"(\d+) wrong results, (\d+) failed operations, (\d+) counter mismatches: "
                  r"(PASS|FAIL)$", re.M)


def soak(h, res, seconds):
    """Every control operation while every CPU writes, under truly parallel
    CPUs (multi-threaded TCG), captured as `make run` captures."""
    h.run(["make", "-s", "APP=test/target"], timeout=600)
    image = os.path.join(h.ROOT, "build", "qemu-virt", "app-test-target", "Image")
    bt = os.path.join(h.ROOT, "build", "endrun", "soak.bt")
    os.makedirs(os.path.dirname(bt), exist_ok=True)
    # lockup_action=continue: on a loaded host, multi-threaded TCG can
    # leave one vCPU's thread unscheduled past lockup_ms; the detector
    # then reports it (its default would end the run as a hang), which
    # says how fast the host ran, not what the soak checks.
    # trace_buf=64K: the soak's own buffer changes use 2K to 64K; before
    # its first one, the default ring (1/16 of RAM, 8 MiB per CPU) filled
    # by three writing CPUs makes that change's flush send up to 32 MiB
    # (minutes through a loaded host's capture).
    st, out = h.run(["tools/qemu-run", "--image", image, "--bootargs",
                     f"panic=poweroff lockup_action=continue trace_buf=64K -- soak {seconds}",
                     "--qemu-flags",
                     "-accel tcg,thread=multi", "--capture", bt],
                    timeout=seconds + h.QEMU_TIMEOUT)
    out = out.replace("\r", "")
    m = SOAK.search(out)
    ok, why, fig = books(out)
    res.record(f"soak {seconds} s (multi-threaded TCG): no crash or hang, every control "
               f"operation succeeded, counters exact"
               + (f" ({m.group(1)} operations, {m.group(2)} calls)" if m else ""),
               st == 0 and m is not None and m.group(7) == "PASS",
               "\n".join(out.splitlines()[-20:]))
    res.record(f"soak {seconds} s: every event decoded or counted lost"
               + (f" ({fig['produced']} events, {fig['lost']} lost on the target)" if fig else ""),
               ok, why + "\n" + "\n".join(out.splitlines()[-8:]))
    return m, fig


def crash_books(h, res):
    """A crash ends the run as a power-off does: every event out, then the
    end-of-stream frame, with panic=poweroff and with panic=halt (where
    QEMU never exits by itself: the capture ends at the frame)."""
    image = os.path.join(h.ROOT, "build", "qemu-virt", "app-test-target", "Image")
    for action in ("poweroff", "halt"):
        bt = os.path.join(h.ROOT, "build", "endrun", f"crash-{action}.bt")
        st, out = h.run(["tools/qemu-run", "--image", image, "--bootargs",
                         f"panic={action} trace=function trace_event=irq:* -- crash null",
                         "--capture", bt], timeout=h.QEMU_TIMEOUT)
        out = out.replace("\r", "")
        ok, why, fig = books(out)
        res.record(f"end of run: a crash with panic={action} still sends every event and "
                   f"the end-of-stream frame", ok and "==== baretrace crash" in out,
                   why + "\n" + "\n".join(out.splitlines()[-12:]))


def many_schemas(h, res):
    """Metadata larger than one frame goes out over several (wire.md 2.9):
    the host names every event of an image with 24 long schemas."""
    image = os.path.join(h.ROOT, "build", "qemu-virt", "app-test-target")
    bt = os.path.join(h.ROOT, "build", "endrun", "schemas.bt")
    st, out = h.run(["tools/qemu-run", "--image", os.path.join(image, "Image"), "--bootargs",
                     "panic=poweroff -- ktest tp_schemas", "--capture", bt],
                    timeout=h.QEMU_TIMEOUT)
    rc, rep = h.run([os.path.join(h.HOST, "baretrace"), "report", bt,
                     "--elf", os.path.join(image, "baretrace.elf")])
    names = set(re.findall(r"schema:event_with_a_long_descriptive_name_(\d\d)", rep))
    res.record("metadata over several frames: the host names all 24 events of an image "
               "whose schemas do not fit one frame", st == 0 and rc == 0 and len(names) == 24,
               f"{len(names)} of 24 named\n" + "\n".join(rep.splitlines()[-10:]))


def stage_endrun(h, res, board):
    if board != "qemu-virt":
        return
    h.run(["make", "-s", "APP=test/target"], timeout=600)
    many_schemas(h, res)
    soak(h, res, 30)
    crash_books(h, res)
    # Exactly `make run`, 20 times on qemu-virt and 5 on rpi3.
    repeat(h, res, "qemu-virt", 20, "make run", lossless=True)
    repeat(h, res, "rpi3", 5, "make run", lossless=True)
    # Tracepoints record in every interrupt, the end's own IPIs included:
    # recording stops for good before the last close, so nothing is left.
    repeat(h, res, "qemu-virt", 3, "make run with irq, timer and ipi events",
           "trace_event=irq:*,timer:tick,ipi:*", lossless=True)
    # Losses on every CPU, in both modes, with tracepoints recording up to
    # the end: the books balance in events, the end of the run included.
    lossy = "trace_buf=4K trace_pace=115200 trace_event=irq:*,timer:tick,ipi:*"
    figs = repeat(h, res, "qemu-virt", 2, "overwrite, 4K rings, paced line", lossy)
    res.record("end of run: the overwrite runs really lost events on the target",
               bool(figs) and all(f["lost"] > 0 for f in figs), repr(figs))
    figs = repeat(h, res, "qemu-virt", 2, "stop mode, 4K rings, paced line",
                  lossy + " trace_mode=stop")
    res.record("end of run: the stop-mode runs really dropped events on the target",
               bool(figs) and all(f["lost"] > 0 for f in figs), repr(figs))
    advice(h, res, lossy)


def advice(h, res, lossy):
    """The target says what was lost and what would have kept it. Both runs
    under -icount: the same run but for the buffer. Without it, how many
    events a paced line leaves behind depends on the host's speed (a loaded
    host once lost 349 of 9729 with the advised size)."""
    st, out = make_run(h, "qemu-virt", os.path.join(h.ROOT, "build", "endrun", "advice"),
                       lossy, qemu_flags=ICOUNT)
    m = re.search(r"^trace: (\d+) % lost \((\d+) ring overwritten, (\d+) ring full in stop "
                  r"mode, (\d+) discarded on purpose: clear, a buffer change, a check reading the ring\); trace_buf=(\d+[KM]) "
                  r"holds this run$", out, re.M)
    t = TARGET.search(out)
    ok = bool(m and t) and int(m.group(2)) + int(m.group(3)) + int(m.group(4)) == \
        int(t.group(2)) and m.group(5) not in ("2K", "4K")
    res.record("end of run: the target names the loss and a trace_buf that holds the run",
               ok, "\n".join(out.splitlines()[-15:]))
    if not ok:
        return
    # And that size really does: the same run with it loses nothing.
    st, out = make_run(h, "qemu-virt", os.path.join(h.ROOT, "build", "endrun", "advice2"),
                       lossy + f" trace_buf={m.group(5)}", qemu_flags=ICOUNT)
    t = TARGET.search(out)
    ok2, why, _ = books(out)
    res.record(f"end of run: with the advised trace_buf={m.group(5)} the run loses nothing",
               st == 0 and ok2 and t is not None and t.group(2) == "0",
               why + "\n" + "\n".join(out.splitlines()[-15:]))


if __name__ == "__main__":
    # make soak: the soak alone, SOAK_S seconds (default 120).
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import run as h  # noqa: E402
    res = h.Results(False)
    soak(h, res, int(os.environ.get("SOAK_S", "120")))
    res.finish()
    sys.exit(0 if res.failed == 0 else 1)
