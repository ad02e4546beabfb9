"""test/host_stage.py: the 'host' stage: C unit tests of pure kernel code under
ASan/UBSan and the fuzz targets over their seed corpus.
"""
import glob
import os
import re

from harness import HOST, ROOT, host_dtb, parse_tap, run

# The host tool's end-to-end tests (TAP), each given the built tool.
HOST_E2E = [
    ("e2e_baretrace", 300),     # capture, report, stats, export; goldens
    ("e2e_report_order", 120),  # report: time order across CPUs, ftrace's cells
    ("e2e_capture_io", 300),    # the two-way line: stdin, --exec, raw terminal
    ("e2e_capture_end", 120),   # ending a run: --timeout, SIGINT, a target that does not answer
    ("e2e_capture_kill", 120),  # capture --qemu never leaves QEMU behind: SIGKILL, SIGTERM
    ("e2e_capture_lines", 120), # the capture's lines never split a console line; --log
    ("e2e_stats_diff", 300),    # stats --sort, --diff; --help, --version
    ("e2e_hist", 120),          # hist: bars, --per-cpu, --json; stats --diff --hist
    ("e2e_clock", 120),         # the capture's clock note; instructions, host time, floors
    ("e2e_tracecmd", 300),      # export --format=trace-cmd read by trace-cmd report
    ("e2e_viewers", 300),       # JSON, the SVG's script in chromium, babeltrace2
    ("e2e_filters", 300),       # host-side filters on every command, graph
    ("e2e_outcome", 120),       # how the run ended, cut traces, the app's name
    ("e2e_words", 120),         # did-you-mean, --format=chrome, --ns, "1 event"
    ("e2e_demangle", 120),      # C++ names demangled in every output, --no-demangle, -F/-N
    ("e2e_memory", 300),        # report and exports stream: peak RSS bounded
    ("e2e_coverage", 300),      # coverage: lcov data, lcov --summary, genhtml in chromium
    ("e2e_probe_names", 120),   # probe fields: distinct names in report and exports, unreadable fetches
    ("e2e_messages", 120),      # messages that name the real problem (issue 42): filters, '-', boards
    ("e2e_help", 120),          # --help on one screen, help CMD tables, usage errors, man pages, capture -o
    ("e2e_graphrec", 120),      # wire version 5's graph returns read as version 4's exits
]


def sources_of(path):
    with open(path) as f:
        first = f.readline()
    m = re.match(r"/\*\s*sources:(.*)\*/", first)
    return m.group(1).split() if m else []


# Host unit tests in Python (TAP), of the test machinery's own logic.
HOST_PY_UNITS = [
    ("unit_bench_baseline", 120),   # the bench gate's comparison (test/bench_baseline.py)
    ("unit_tap", 120),              # run.py's output is TAP 14 that Debian's tap-parser reads
]


def stage_host(res, board):
    os.makedirs(HOST, exist_ok=True)
    stage_host_units(res)
    for script, timeout in HOST_PY_UNITS:
        st, out = run(["python3", f"test/host/{script}.py"], timeout=timeout)
        parse_tap(f"host {script}", out, res, st)
    # The host tool end to end: capture, report, stats, export (TAP).
    st, out = run(["make", "-s", f"BOARD={board}", "build/host/baretrace",
                    "build/host/gentrace"])
    if st != 0:
        res.record("host baretrace: builds", False, out)
    else:
        for script, timeout in HOST_E2E:
            extra = []
            if script in ("e2e_coverage", "e2e_messages"):  # a real image, for its DWARF
                elf = f"build/{board}/baretrace.elf"
                st, out = run(["make", "-s", f"BOARD={board}", elf])
                if st != 0:
                    res.record(f"host {script}: {elf} builds", False, out)
                    continue
                extra = [os.path.join(ROOT, elf)]
            st, out = run(["python3", f"test/host/{script}.py",
                           os.path.join(HOST, "baretrace")] + extra, timeout=timeout)
            parse_tap(f"host {script}", out, res, st)


def kernel_includes():
    """-I for kernel/ and each of its folders (kernel/LAYERS), as the
    Makefile's KERNEL_DIRS: "x.h" finds a kernel header wherever it is."""
    dirs = sorted(os.path.relpath(d, ROOT) for d in glob.glob(os.path.join(ROOT, "kernel", "*", "")))
    return ["-Ikernel"] + ["-I" + d for d in dirs]


def stage_host_units(res):
    dtb = host_dtb()
    cflags = ["-std=gnu11", "-g", "-O1", "-Wall", "-Wextra", "-Werror"] + \
        kernel_includes() + ["-Iinclude", "-Itest/host"]
    host_dir = os.path.join(ROOT, "test/host")
    tests = sorted(f for f in os.listdir(host_dir)
                   if f.startswith("test_") and f.endswith(".c"))
    if not tests:
        res.record("host unit tests exist", False, f"nothing in {host_dir}")
    for t in tests:
        name = t[:-2]
        exe = os.path.join(HOST, name)
        src = os.path.join("test/host", t)
        st, out = run(["clang"] + cflags + ["-fsanitize=address,undefined",
                       "-fno-sanitize-recover=all", src] + sources_of(src) + ["-o", exe])
        if st != 0:
            res.record(f"host {name}: builds", False, out)
            continue
        st, out = run([exe, dtb], timeout=120)
        parse_tap(f"host {name}", out, res, st)
    fuzz_dir = os.path.join(ROOT, "test/fuzz")
    for t in sorted(os.listdir(fuzz_dir)) if os.path.isdir(fuzz_dir) else []:
        if not (t.startswith("fuzz_") and t.endswith(".c")):
            continue
        name = t[:-2]
        exe = os.path.join(HOST, name)
        src = os.path.join("test/fuzz", t)
        st, out = run(["clang", "-g", "-O1", "-fsanitize=fuzzer,address,undefined",
                       *kernel_includes(), "-Iinclude", "-Itrace", "-Iwire", src] + sources_of(src) +
                      ["-o", exe])
        if st != 0:
            res.record(f"fuzz {name}: builds", False, out)
            continue
        corpus = os.path.join(fuzz_dir, "corpus", name[len("fuzz_"):])
        # New inputs go to a scratch directory (the first one named), so
        # the committed seeds stay as they are.
        scratch = os.path.join(HOST, "corpus_" + name)
        os.makedirs(scratch, exist_ok=True)
        st, out = run([exe, "-runs=20000", "-max_len=4096", f"-artifact_prefix={HOST}/",
                       scratch, corpus], timeout=300)
        res.record(f"fuzz {name}: 20000 runs without a crash", st == 0, out)
