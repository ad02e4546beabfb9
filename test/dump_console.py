"""test/dump_console.py: probe hits in the target's own text dump on the
console (trace/output/dump*.c, issue 39 item 3: a hit was counted and not
printed, "# trace dump: 11 records" over 6 lines).

  crash   two probes planted from the command line on the crash scenario's
          path (the first instruction of crash_caller, fetching the bytes
          of its string argument "null" and the pc; of crash_null_deref,
          fetching the address it will load from), the function tracer on
          crash_*: the crash's dump shows every record, each hit with its
          fields by name and values known without the dump (the string,
          the crash report's own FAR and backtrace), the count equal to
          the lines shown; the same run's capture read by 'baretrace
          report' words each hit the same.
  shell   an instruction probe and a return probe on the shell's 'help'
          command: typed 'help', then 'dump': both hits with argc, the
          first word's bytes and the return value.
"""
import os
import re
import subprocess

from api_target import qemu_cmd
from harness import HOST, QEMU_TIMEOUT, ROOT, input_boot_cmd, run, strip_frames

TS = r"^\[(\d{3})\] \d+\.\d{6}:"


def dump_section(out, head):
    """(record texts after their time stamps, every line, the count) of
    the dump after line 'head'; None if there is none."""
    m = re.search(rf"^{re.escape(head)}\n# trace dump: oldest first, per CPU\n(.*?)"
                  r"^# trace dump: (\d+) records$", out, re.M | re.S)
    if not m:
        return None
    lines = m.group(1).splitlines()
    texts = [re.sub(TS + " ", "", l) for l in lines if re.match(TS, l)]
    return texts, lines, int(m.group(2))


def check_crash_dump(res, board, image_dir):
    bt = os.path.join(HOST, "dump_console.bt")
    st, out = run(["make", "-s", f"BOARD={board}", "build/host/baretrace"])
    if st != 0:
        res.record("dump console: the host tool builds", False, out)
        return
    args = ("panic=poweroff trace=function trace_filter=crash_* "
            "trace_probe=pk=crash_caller+8,k=+0(x0):x32,c=+0(x0):u8,pc;"
            "pn=crash_null_deref+8,p=x0 -- crash null")
    st, out = run(qemu_cmd(board, image_dir, args) + ["--capture", bt], timeout=QEMU_TIMEOUT)
    out = strip_frames(out)
    got = dump_section(out, "==== trace buffers at the crash ====")
    # Known without the dump: crash_caller's address from the report's
    # backtrace, the load address from its FAR, "null" as bytes.
    caller = re.search(r"^  #\d+ +([0-9a-f]+) +crash_caller\+0x([0-9a-f]+)/", out, re.M)
    far = re.search(r"^ESR [0-9a-f]+ +FAR ([0-9a-f]+)", out, re.M)
    if st != 139 or not got or not caller or not far:
        res.record("dump console: a crash with probes planted prints its report and dump",
                   False, f"status {st}\n{out[-3000:]}")
        return
    texts, lines, count = got
    pc = int(caller.group(1), 16) - int(caller.group(2), 16) + 8
    want = ["crash_caller <-scenario_crash",
            f"probe pk: k=0x{int.from_bytes(b'null', 'little'):x} c={ord('n')} pc=0x{pc:x}",
            "crash_null_deref <-crash_caller",
            f"probe pn: p=0x{int(far.group(1), 16):x}",
            "==== run ended: crash ===="]
    res.record("dump console: the crash's dump shows each probe hit with its fields, "
               "every record counted is a line",
               texts == want and count == len(texts) == len(lines),
               f"count {count}, lines:\n" + "\n".join(lines) + f"\nwant {want}")
    rep = subprocess.run([os.path.join(HOST, "baretrace"), "report", bt, "--elf",
                          os.path.join(image_dir, "baretrace.elf")], cwd=ROOT,
                         capture_output=True, text=True, timeout=60).stdout
    host = [re.sub(TS + " ", "", l) for l in rep.splitlines()
            if re.match(TS + " probe ", l)]
    res.record("dump console: 'baretrace report' of the same run words each hit as the dump",
               host == [t for t in texts if t.startswith("probe ")],
               f"report: {host}\ndump: {texts}\n{rep[-2000:]}")


def check_shell_dump(res, board, image_dir):
    args = ("panic=poweroff shell trace_probe=ph=cmd_help+8,argc=x0:u32,cmd=+0(+0(x1)):x32;"
            "pr=cmd_help%return,ret=$retval:s32 -- args")
    st, out = input_boot_cmd(qemu_cmd(board, image_dir, args), "baretrace shell:",
                             b"help\ndump\nexit 3\n")
    m = re.search(r"^bt> dump\n# trace dump: oldest first, per CPU\n(.*?)^# trace dump: (\d+) "
                  r"records$", out or "", re.M | re.S)
    lines = m.group(1).splitlines() if m else []
    texts = [re.sub(TS + " ", "", l) for l in lines if re.match(TS, l)]
    want = [f"probe ph: argc=1 cmd=0x{int.from_bytes(b'help', 'little'):x}",
            "probe pr (return): ret=0"]
    res.record("dump console: the shell's 'dump' shows an instruction probe's and a return "
               "probe's hits with their fields, and counts them",
               st == 3 and m and texts == want and int(m.group(2)) == len(lines) == 2,
               f"status {st}\n{(out or '')[-3000:]}")


def check_dump_console(res, board, image_dir):
    check_crash_dump(res, board, image_dir)
    check_shell_dump(res, board, image_dir)
