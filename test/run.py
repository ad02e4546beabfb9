#!/usr/bin/env python3
"""test/run.py: every baretrace test, ending with "N passed, N failed".

Stages (each test prints one "ok"/"not ok" line as it finishes):
  host     C unit tests of pure kernel code under ASan/UBSan (TAP), and
           fuzz targets run over their seed corpus for a bounded count
  build    bad BOARD / APP values fail with the valid choices
  target   the KTAP suites of APP=test/target, booted in each of the
           board's TEST_BOOTS modes; a hang is killed and reported
  boot     scenarios read from the console: crash reports, W^X, boot
           arguments, line interleaving, the demo itself
  outcome  how a run ends: crash, panic, lockup, watchdog=, watchdog reset,
           Ctrl-C, --timeout/TIMEOUT=: final line, exit code, status word,
           the outcome record in the trace (test/outcomes.py)
  gdb      a hung guest's rings read through QEMU's gdb stub by
           tools/gdb/baretrace.py (test/gdb_check.py)
  replay   make record's exact runs and baretrace goto to their events
           (test/replay.py)
  rpi-uboot  the Pi card's U-Boot flow on raspi3b with Debian's U-Boot
           and DTB: demo traced, KTAP suites (test/rpi_uboot.py)
  rpi4-qemu  the Pi 4 image on QEMU raspi4b (tools/fetch-qemu's QEMU):
           KTAP suites (also multi-threaded TCG), demos, end-of-run
           books, uart_baud=, UART interrupt, break key, lockup, watchdog
           reset and power-off, trace across a reset (test/rpi4_qemu.py)
  rpi4-uboot the same card's U-Boot flow on raspi4b (test/rpi_uboot.py)
  apps     applications brought as they are: a firmware tree with
           subfolders and its own app.mk flags, C++, apps outside the
           repository, files not built named (test/app_builds.py)
  thirdparty mbed TLS's own self-tests (Debian's source, unchanged) on
           virt, rpi3 and rpi4, untraced and traced (test/thirdparty.py);
           a probe on every instruction of functions of the demo, mbed
           TLS and the locks, in turn (test/probe_stress.py)
  make     the make flow as typed (issue 40): BOOTARGS quoting, every
           run target's status files, app builds, what the first run
           fetches (test/make_flow.py, test/mk_*.py)
  ci       CI gates (issue 41): exact repeatable runs, stats --diff on
           instruction counts, JUnit output, the example pipelines
           (test/ci_flow.py, test/ci_*.py)
  readme   the marked examples of README.md and docs/*.md run as written,
           their make commands checked against the Makefile, their
           relative links against the files and headings, make help
           complete (test/readme_examples.py)
  farm     labgrid and LAVA (lava-run) on QEMU: good images pass, a
           failing case, a crash and a hang fail, a trace=coverage run
           leaves lcov data lcov agrees with (test/farm/farm_stage.py)

Usage: test/run.py [--board B] [--only 'STAGE[,| ]STAGE...'] [--list] [-v]

The output is one TAP 14 stream (docs/tests.md): "TAP version 14", a
"# stage NAME" comment before each stage, numbered test points, the plan
at the end, and last the line "N passed, N failed".
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# What every stage uses, also as h.NAME for the stages given this module.
from harness import (ROOT, HOST, QEMU_TIMEOUT, Results, run, make_var, typed_session,  # noqa: E402,F401
                     parse_tap, host_dtb, boot, strip_frames, parse_ktap, make_dir,
                     expect, qemu_boot, pi3_dtb, dtb_set_cpu1_cell, input_boot_cmd,
                     ktap_failures)
from host_stage import stage_host  # noqa: E402
from boot_stages import stage_target, stage_boot  # noqa: E402
from rpi_stages import stage_rpi3, stage_rpi4  # noqa: E402
from kern_scenarios import stage_kern  # noqa: E402

# ---- build -----------------------------------------------------------------

def stage_build(res, board):
    st, out = run(["make", "BOARD=no-such-board"])
    res.record("make BOARD=no-such-board fails listing the boards",
               st != 0 and "unknown BOARD" in out and "qemu-virt" in out, out)
    st, out = run(["make", "APP=no/such/app"])
    res.record("make APP=no/such/app fails naming valid apps",
               st != 0 and "no/such/app" in out and "examples/demo" in out, out)
    check_trace_path_fails(res)
    check_no_byproducts_tracked(res)
    import layers  # noqa: E402
    layers.check(sys.modules[__name__], res, board)
    import api_headers  # noqa: E402
    api_headers.check(res, ROOT)
    check_image_path_free(res, board)


def check_image_path_free(res, board):
    """The image holds no path of the checkout (__FILE__ in assert
    messages, newlib's and the app's): its data layout, and so make
    bench's exact counts, would depend on where the tree is checked out
    (the clean-clone CI's mbed TLS flush count differed by 162 %)."""
    st, out = run(["make", f"BOARD={board}"], timeout=1800)
    image = os.path.join(ROOT, "build", board, "Image")
    found = []
    if st == 0:
        with open(image, "rb") as f:
            data = f.read()
        for prefix in (ROOT.encode() + b"/", b"/build/newlib/src/"):
            at = data.find(prefix)
            if at >= 0:
                found.append(data[at:at + 80].split(b"\0")[0].decode(errors="replace"))
    res.record(f"the {board} demo image names no path of the checkout ({ROOT}/...)",
               st == 0 and not found, f"status {st}; found {found}\n" + out[-1500:])


def check_no_byproducts_tracked(res):
    """No tracked file is a build by-product: each matches none of
    .gitignore's rules (a compiler's "-.d" was once committed)."""
    st, out = run(["git", "ls-files", "-ci", "--exclude-standard"])
    if st is not None and "not a git repository" in out:
        res.record("no build by-product is tracked (skipped: not a git checkout)", True)
        return
    res.record("no tracked file matches .gitignore (no build by-product committed)",
               st == 0 and out.strip() == "", out)


def check_trace_path_fails(res):
    """tools/check-trace-path on a small listing: export_tick reaches
    smp_num_cpus through a tail branch, and smp_num_cpus is a callsite."""
    import tempfile
    lst = ("0000000000001000 <export_tick>:\n"
           "    1000:\td503201f \tnop\n"
           "    1004:\t94000010 \tbl\t1044 <helper>\n"
           "0000000000001040 <helper>:\n"
           "    1044:\t14000005 \tb\t1058 <smp_num_cpus>\n"
           "0000000000001058 <smp_num_cpus>:\n"
           "    1058:\td65f03c0 \tret\n")
    tables = "bt_sites:\n\t.long 7\t// smp_num_cpus\nbt_site_count:\n"
    with tempfile.TemporaryDirectory() as d:
        paths = [os.path.join(d, "a.lst"), os.path.join(d, "tables.S")]
        for path, text in zip(paths, [lst, tables]):
            with open(path, "w") as f:
                f.write(text)
        st, out = run(["tools/check-trace-path"] + paths)
        res.record("check-trace-path fails on a traced function the exporter reaches",
                   st == 1 and "smp_num_cpus <- helper <- export_tick" in out, out)
        with open(paths[1], "w") as f:
            f.write("bt_sites:\n\t.long 7\t// other\nbt_site_count:\n")
        st, out = run(["tools/check-trace-path"] + paths)
        res.record("check-trace-path passes when nothing reached is a callsite", st == 0, out)


STAGES = {"host": stage_host, "build": stage_build, "target": stage_target,
          "boot": stage_boot, "rpi3": stage_rpi3, "rpi4": stage_rpi4, "kern": stage_kern}

import trace_scenarios  # noqa: E402
import input_scenarios  # noqa: E402

UPDATE_GOLDEN = False
STAGES["trace"] = lambda res, board: trace_scenarios.stage_trace(
    sys.modules[__name__], res, board)
STAGES["input"] = lambda res, board: input_scenarios.stage_bad_input(
    sys.modules[__name__], res, board)
import hang_scenarios  # noqa: E402
STAGES["hang"] = lambda res, board: hang_scenarios.stage_hang(
    sys.modules[__name__], res, board)
import outcomes  # noqa: E402
STAGES["outcome"] = lambda res, board: outcomes.stage_outcome(
    sys.modules[__name__], res, board)
import reset_scenarios  # noqa: E402
STAGES["reset"] = lambda res, board: reset_scenarios.stage_reset(
    sys.modules[__name__], res, board)
import end_of_run  # noqa: E402
STAGES["endrun"] = lambda res, board: end_of_run.stage_endrun(
    sys.modules[__name__], res, board)
import gdb_check  # noqa: E402
STAGES["gdb"] = lambda res, board: gdb_check.stage_gdb(sys.modules[__name__], res, board)
import replay  # noqa: E402
STAGES["replay"] = lambda res, board: replay.stage_replay(sys.modules[__name__], res, board)
import rpi_uboot  # noqa: E402
STAGES["rpi-uboot"] = lambda res, board: rpi_uboot.stage_rpi_uboot(
    sys.modules[__name__], res, board)
import rpi4_qemu  # noqa: E402
STAGES["rpi4-qemu"] = lambda res, board: rpi4_qemu.stage_rpi4_qemu(
    sys.modules[__name__], res, board)
STAGES["rpi4-uboot"] = lambda res, board: rpi_uboot.stage_rpi4_uboot(
    sys.modules[__name__], res, board)
import app_builds  # noqa: E402
STAGES["apps"] = lambda res, board: app_builds.stage_apps(sys.modules[__name__], res, board)
import thirdparty  # noqa: E402
STAGES["thirdparty"] = lambda res, board: thirdparty.stage_thirdparty(
    sys.modules[__name__], res, board)
import make_flow  # noqa: E402
STAGES["make"] = lambda res, board: make_flow.stage_make(sys.modules[__name__], res, board)
import ci_flow  # noqa: E402
STAGES["ci"] = lambda res, board: ci_flow.stage_ci(sys.modules[__name__], res, board)
import readme_examples  # noqa: E402
STAGES["readme"] = lambda res, board: readme_examples.stage_readme(
    sys.modules[__name__], res, board)
sys.path.insert(0, os.path.join(ROOT, "test", "farm"))
import farm_stage  # noqa: E402
STAGES["farm"] = lambda res, board: farm_stage.stage_farm(sys.modules[__name__], res, board)


def stage_names(only, stages=STAGES):
    """The stages 'only' names (commas or spaces between them, as every
    list variable of the Makefile: docs/running.md); ValueError naming
    the unknown ones and every stage."""
    names = only.replace(",", " ").split()
    bad = [n for n in names if n not in stages]
    valid = f"(valid: {' '.join(stages)})"
    if not names:
        raise ValueError(f"no stage given {valid}")
    if bad:
        raise ValueError(f"unknown stage{'s' if len(bad) > 1 else ''} "
                         f"{', '.join(repr(n) for n in bad)} {valid}")
    return names


def main(argv=None, stages=STAGES):
    ap = argparse.ArgumentParser(
        description="every baretrace test, as one TAP 14 stream ending 'N passed, N failed'")
    ap.add_argument("--board", default="qemu-virt")
    ap.add_argument("--only", default=",".join(stages),
                    help="stages to run, commas or spaces between them (default: all)")
    ap.add_argument("--list", action="store_true",
                    help="print the stages --only names, one a line, and run nothing")
    ap.add_argument("-v", action="store_true")
    ap.add_argument("--update-golden", action="store_true",
                    help="rewrite test/golden files from this run")
    args = ap.parse_args(argv)
    # Every name is checked before any stage runs.
    try:
        names = stage_names(args.only, stages)
    except ValueError as e:
        print(f"run.py: {e}", file=sys.stderr)
        return 2
    if args.list:
        print("\n".join(names))
        return 0
    global UPDATE_GOLDEN
    UPDATE_GOLDEN = args.update_golden
    res = Results(args.v)
    res.start()
    t0 = time.time()
    for stage in names:
        print(f"# stage {stage} ({args.board})", flush=True)
        stages[stage](res, args.board)
    res.finish([f"{time.time() - t0:.0f} s"] + [f"FAILED: {' '.join(name.split())}" for name in res.failures])
    return 0 if res.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
