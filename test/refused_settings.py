"""test/refused_settings.py: settings that are refused do not run as if
accepted (issue 25), through make run as a user types it (part of the
'input' stage):

  refused   a tracer setting the kernel refuses (TRACE=profile beside
            trace_profile=; a tracer no image knows, TRACE=graph, is
            make's to refuse before the boot: test/mk_names.py), a bad
            glob (TRACE_FILTER='pipeline_['), a glob list one character
            over the limit: each fails make run with the kernel's reason and
            the refused status (2), main() never runs, nothing is traced
  long      a 300-character filter naming real functions is accepted
            and traces exactly those
  profile   TRACE=profile runs the profiler on the filter's functions
            and the console says so
  terminal  make run-direct with a trace setting refuses, naming the
            make run command that captures; make TRACE= with one in
            BOOTARGS captures; no trace frame byte (STX, 0x02) reaches
            the terminal in either
  uboot     make run's console has none of U-Boot's failed searches and
            environment warnings
  icount    two make ICOUNT=1 runs trace the same calls with the same
            durations, to the nanosecond
"""
import os
import re

PATTERN_MAX = 1023      # trace/base/glob.h TRACE_PATTERN_MAX - 1
STX = "\x02"            # a trace frame's first byte (docs/wire.md)


def run_file(h, name):
    return os.path.join(h.ROOT, "build", "run", name)


def read(path):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except FileNotFoundError:
        return None


def make_run(h, board, *args, goal="run"):
    st, out = h.run(["make", f"BOARD={board}"] + list(args) + [goal], timeout=240)
    return st, out.replace("\r", "")


def refused_run(h, res, board, what, args, reason):
    """One refused setting: make fails, the console gives the kernel's
    reason and the refused status, main() never runs, nothing traced."""
    st, out = make_run(h, board, *args)
    text = h.strip_frames(out)
    status = (read(run_file(h, "status")) or "").strip()
    capture = re.search(r"^baretrace capture: .* (\d+) events, ", text, re.M)
    missing = [p for p in (reason, r"^trace: not applied: .*the run ends before main\(\)$",
                           r"^baretrace: exit status 2 \(refused\)$")
               if not re.search(p, text, re.M)]
    ran = re.findall(r"^demo: .*$", text, re.M)
    ok = (st not in (0, None) and status in ("2", "refused 2") and not missing and not ran
          and capture is not None and capture.group(1) == "0")
    res.record(f"settings: a refused {what} (make {' '.join(args)[:60]} run) fails with the "
               "kernel's reason and "
               "status 2 (refused); main() never runs, nothing is traced", ok,
               f"make status {st}, build/run/status {status!r}, missing {missing}, "
               f"main ran: {ran[:2]}, capture: {capture and capture.group(0)}\n" + text[-2500:])


def check_refused(h, res, board):
    refused_run(h, res, board, "tracer", ["TRACE=profile", "BOOTARGS=trace_profile=sensor_*"],
                r"^trace: trace=profile profiles trace_filter's functions; trace_profile= is "
                r"the profiler beside another tracer$")
    refused_run(h, res, board, "glob", ["TRACE_FILTER=pipeline_["],
                r"^trace: invalid glob 'pipeline_\[' ")
    # One character over the limit, every pattern well formed.
    names = ",".join(f"pipeline_{i:04d}" for i in range(100))
    over = (names + "," + "x" * PATTERN_MAX)[:PATTERN_MAX + 1]
    refused_run(h, res, board, "long", [f"TRACE_FILTER={over}"],
                rf"^trace: a glob list of {PATTERN_MAX + 1} characters is too long "
                rf"\(at most {PATTERN_MAX}\)$")


def traced_functions(h):
    """Functions the report's graph lines name (not its '#' header and
    footer, whose 'main() returned 0' is no traced call)."""
    text = read(run_file(h, "trace.txt")) or ""
    body = "\n".join(l for l in text.splitlines() if not l.startswith("#"))
    return set(re.findall(r"\b(\w+)\(\)", body))


def check_long_filter(h, res, board):
    wanted = ["pipeline_run", "pipeline_step", "stage_acquire", "stage_record",
              "fmt_record", "summary_print"]
    # Padded past the old 127-character limit with patterns that match
    # nothing traced here (each named "matches no function", accepted).
    pad = [f"unused_{i:03d}" for i in range(30)]
    flist = ",".join(wanted + pad)
    st, out = make_run(h, board, f"TRACE_FILTER={flist}")
    got = traced_functions(h)
    res.record(f"settings: a {len(flist)}-character trace_filter is accepted and traces "
               "exactly its functions", st == 0 and len(flist) > 127 and got == set(wanted),
               f"status {st}, traced {sorted(got)}\n" + h.strip_frames(out)[-2000:])


def check_profile(h, res, board):
    st, out = make_run(h, board, "TRACE=profile", "TRACE_FILTER=pipeline_* stage_*")
    text = h.strip_frames(out)
    m = re.search(r"^trace: profiler on (\d+) functions$", text, re.M)
    # make run's stats table (baretrace stats of the capture).
    rows = re.findall(r"^ +(\d+) +[\d.]+ +- .* (\w+)$", text, re.M)
    names = {name for _, name in rows}
    calls = {name: int(n) for n, name in rows}
    ok = (st == 0 and m is not None and int(m.group(1)) > 0 and calls.get("pipeline_step") == 48
          and names and all(n.startswith(("pipeline_", "stage_")) for n in names)
          and "nop tracer" not in text)
    res.record("settings: make TRACE=profile run profiles the filter's functions "
               "('trace: profiler on N functions'; pipeline_step 48 calls)", ok,
               f"status {st}, line {m and m.group(0)}, rows {rows[:8]}\n" + text[-2000:])


def check_terminal(h, res, board):
    args = "trace=function trace_buf=2K -- 7"
    st, out = make_run(h, board, "APP=test/apps/exit", f"BOOTARGS={args}", goal="run-direct")
    want = f"make APP=test/apps/exit TRACE= BOOTARGS='{args}' run"
    res.record("settings: make run-direct with trace settings in BOOTARGS refuses, naming "
               "the make run command that captures; no frame byte on the terminal",
               st not in (0, None) and want in out and STX not in out
               and "baretrace: exit status" not in out, f"status {st}\n" + out[-2000:])
    st, out = make_run(h, board, "APP=test/apps/exit", "TRACE=", f"BOOTARGS={args}")
    trace = read(run_file(h, "trace.bt"))
    res.record("settings: make TRACE= run with trace settings in BOOTARGS captures them: "
               "trace.bt written, no frame byte on the terminal, main()'s status 7",
               st not in (0, None) and STX not in out and trace is not None
               and re.search(r"^baretrace: exit status 7$", out, re.M) is not None
               and re.search(r"^baretrace capture: \d+ frames", out, re.M) is not None,
               f"status {st}, trace.bt {'there' if trace is not None else 'missing'}, "
               f"STX bytes {out.count(STX)}\n" + out[-2000:])
    return out


def check_uboot_quiet(h, res, board, out):
    noise = ["*** Warning - bad CRC", "fatal: no kernel available", "Command 'load' failed",
             "No working controllers found", "starting USB", "scanning bus"]
    found = [n for n in noise if n in out]
    res.record("settings: make run's console has no U-Boot environment warning and no "
               "failed boot device search", "Starting kernel" in out and not found,
               f"found {found}\n" + out[:2500])


DURATION = re.compile(r"^( ?\d+\) )[ +!#*@$]*([\d.]+) us *\|(.*)$")


def durations(report):
    """(the report's lines with each duration taken out, the durations)."""
    shape, times = [], []
    for line in report.splitlines():
        m = DURATION.match(line)
        if m:
            shape.append(m.group(1) + "|" + m.group(3))
            times.append(float(m.group(2)))
        elif not line.startswith("#") and " ==== run ended: " not in line:
            # header and footer (counts, host time) and the outcome's
            # line (an absolute time, which U-Boot's disk reads move)
            shape.append(line)
    return shape, times


def check_icount(h, res, board):
    """Under ICOUNT=1 a duration is an instruction count, and the boot
    reads nothing from a disk (tools/qemu-run preloads Image and the
    script for U-Boot), so the kernel starts at the same virtual moment
    and two runs are the same trace to the nanosecond. Through a disk,
    U-Boot's reads took host time and moved durations by up to 2.4 ms;
    host time (today without ICOUNT) moves them by milliseconds."""
    runs = []
    for _ in range(2):
        st, out = make_run(h, board, "ICOUNT=1")
        runs.append((st, durations(read(run_file(h, "trace.txt")) or "")))
    (st1, (shape1, t1)), (st2, (shape2, t2)) = runs
    worst = max((abs(a - b) for a, b in zip(t1, t2)), default=None)
    first_diff = next((f"{a!r} / {b!r}" for a, b in zip(shape1, shape2) if a != b), "")
    res.record(f"settings: two make ICOUNT=1 runs trace the same calls and all {len(t1)} "
               f"durations are the same (worst difference {worst if worst is None else round(worst, 3)} us)",
               st1 == 0 and st2 == 0 and len(t1) > 100 and shape1 == shape2
               and t1 == t2,
               f"status {st1} {st2}; {len(t1)} / {len(t2)} durations; worst {worst}; "
               f"first different line {first_diff}")


def stage_settings(h, res, board):
    if board != "qemu-virt":
        return
    st, out = h.run(["make", "-s", f"BOARD={board}", "all", "host-tools"], timeout=1800)
    if st:
        res.record("settings: build the demo", False, out)
        return
    check_refused(h, res, board)
    check_long_filter(h, res, board)
    check_profile(h, res, board)
    out = check_terminal(h, res, board)
    check_uboot_quiet(h, res, board, out)
    check_icount(h, res, board)
