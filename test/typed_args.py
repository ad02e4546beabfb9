"""test/typed_args.py: arguments and return values by name and type.

test/apps/typed is traced with the graph tracer, its return values and
eight argument registers of every ty_* call (trace_retval=1
trace_args=ty_*:8:s01: the strings x0 and x1 point to too), from a seed
given after '--'. The host tool reads
the image's DWARF and must print each call as the code made it: the
expected lines are derived here from the seed, by the formulas of
test/apps/typed/main.c, and each return value is also checked against
what the app printed on the console (so the derivation is checked too).
Then the same trace with --no-types (raw registers, whose low bytes must
still hold the values), the Chrome export's typed "args", the trace-cmd
export in trace-cmd and KernelShark (typed_viewers.py), and the CTF
export's typed strings as babeltrace2 reads them.

Part of the 'apps' stage; alone: python3 test/typed_args.py
"""
import json
import os
import re
import shutil
import sys

APP = "test/apps/typed"
SEED = 3


def int8(v):
    v &= 0xff
    return v - 0x100 if v & 0x80 else v


def expected(seed, buf, name):
    """(function, text in its parentheses, return text or None) per call,
    in call order, from the seed as main.c computes them."""
    big_len, small_len = 16 * seed + 16, seed
    narrow = int8((-seed - 2) + (200 + seed) + (-1000 * seed) + (60000 + seed) +
                  (-100000 * seed) + ((4000000000 + seed) - (1 << 32)) +
                  int8(-(1 << 40) * seed) + int8((1 << 63) + seed))
    on, fast = bool(seed & 1), seed > 2
    modes = {0: "TY_MODE_OFF", 1: "TY_MODE_SLOW", 7: "TY_MODE_FAST"}
    return [
        ("ty_sensor_read", f"id={seed}, buf={buf}, len={big_len}",
         "TY_EINVAL" if big_len > 32 else "TY_OK"),
        ("ty_sensor_read", f"id={seed + 1}, buf={buf}, len={small_len}",
         "TY_EINVAL" if small_len > 32 else "TY_OK"),
        ("ty_narrow", f"s8={-seed - 2}, u8={200 + seed}, s16={-1000 * seed}, "
         f"u16={60000 + seed}, s32={-100000 * seed}, u32={4000000000 + seed}, "
         f"s64={-(1 << 40) * seed}, u64={(1 << 63) + seed}", str(narrow)),
        ("ty_check", f"on={'true' if on else 'false'}, "
         f"mode={'TY_MODE_FAST' if fast else 'TY_MODE_SLOW'}, c='{chr(65 + seed)}'",
         "true" if on and fast else "false"),
        ("ty_check", "on=false, mode=TY_MODE_OFF, c='\\x0a'", "false"),
        ("ty_mode_of", f"k={seed}", modes.get(seed, str(seed))),
        ("ty_mode_of", "k=7", "TY_MODE_FAST"),
        ("ty_name_len", 'name="sensor"', "6"),
        ("ty_greet", 'who="world", where=NULL', "5"),
        ("ty_greet", 'who="0123456789abcdefghijklmnopqrstuv"..., '
         f'where="{"sensor"[seed:]}"', str(36 + len("sensor"[seed:]))),
        ("ty_peek", "p=0x10 <unreadable>", "1"),
        ("ty_point_sum", f"p={{...}}, big={{...}}, k={seed}",
         str((seed - 2 * seed) * seed + 100 + 200 + 300 + seed)),
        ("ty_scale", f"f=?, k={seed}", "?"),
        ("ty_void", f"x={seed}", None),
        ("ty_u16_ret", f"x={seed * 100}", str((seed * 100 * 1000) & 0xffff)),
        ("ty_many", "a=1, b=2, c=3, d=4, e=5, f=6, g=7, h=8, ...", str(45 + seed)),
    ]


def printed(console):
    """What the app printed: {function: [values]} and its buffer and
    string addresses."""
    vals = {}
    for fn, v in re.findall(r"^typed: (ty_\w+)(?: \w+)? (-?\d+)$", console, re.M):
        vals.setdefault(fn, []).append(v)
    m = re.search(r"^typed: seed \d+ buf (0x[0-9a-f]+) name (0x[0-9a-f]+)$", console, re.M)
    return vals, (m.group(1), m.group(2)) if m else (None, None)


def graph_calls(report):
    """(function, parentheses, comment) of each leaf line of the graph."""
    return re.findall(r"\|\s+(ty_\w+)\((.*)\);(?: /\* = (.*) \*/)?$", report, re.M)


def check(h, res, board):
    if board != "qemu-virt":
        return
    tool = os.path.join(h.HOST, "baretrace")
    st, out = h.run(["make", "-s", f"BOARD={board}", "host-tools"])
    st2, out2 = h.run(["make", "-s", f"BOARD={board}", f"APP={APP}"], timeout=600)
    if st or st2:
        res.record(f"typed: build {APP}", False, out + out2)
        return
    img = h.make_dir(board, APP)
    elf = os.path.join(img, "baretrace.elf")
    bt = os.path.join(h.HOST, "typed.bt")
    st, console = h.run(["tools/qemu-run", "--image", os.path.join(img, "Image"),
                         "--bootargs", "panic=poweroff trace=function_graph trace_filter=ty_* "
                         f"trace_retval=1 trace_args=ty_*:8:s01 -- {SEED}", "--capture", bt],
                        timeout=h.QEMU_TIMEOUT)
    console = console.replace("\r", "")
    vals, (buf, name) = printed(console)
    want = expected(SEED, buf, name)
    derived = {}
    for fn, _, ret in want:
        if ret is not None and fn not in ("ty_check", "ty_scale"):
            derived.setdefault(fn, []).append(ret)
    ok_print = st == 0 and buf and all(
        [str(v) for v in vals.get(fn, [])] == [
            {"TY_OK": "0", "TY_EINVAL": "-22", "TY_MODE_FAST": "7"}.get(v, v) for v in r]
        for fn, r in derived.items())
    res.record(f"typed: {APP} ran with seed {SEED} and printed what the test derives",
               ok_print, f"status {st}; printed {vals}; derived {derived}\n{console[-1500:]}")
    if not ok_print:
        return

    rst, report = h.run([tool, "report", bt, "--elf", elf])
    got = graph_calls(report)
    res.record("typed: report shows every ty_* call's arguments by name and type and its "
               "return value typed (enum names, bool, char, narrow signed/unsigned, "
               "pointers, strings (cut at 32 bytes, NULL, outside RAM), {...} for structs, "
               "? for floating point, ... past x7, none for void)",
               rst == 0 and [(f, a, r or None) for f, a, r in got] == want,
               "got:\n" + "\n".join(map(str, got)) + "\nwant:\n" + "\n".join(map(str, want)) +
               "\n" + report[-2000:])

    rst, only = h.run([tool, "report", bt, "--elf", elf, "-F", "ty_greet"])
    rst2, others = h.run([tool, "report", bt, "--elf", elf, "-N", "ty_greet"])
    res.record("typed: report -F keeps a call's arguments and strings with it, -N drops them "
               "with it (no stray 'args of' or 'string' lines)",
               rst == 0 and rst2 == 0 and
               [(f, a, r) for f, a, r in graph_calls(only)] == [w for w in want
                                                               if w[0] == "ty_greet"] and
               not re.search(r"args of|string x|ty_greet", others.split("# ")[0]) and
               len(graph_calls(others)) == len(want) - 2,
               only[-1500:] + others[-1500:])

    rst, raw = h.run([tool, "report", bt, "--elf", elf, "--no-types"])
    got = graph_calls(raw)
    narrow = [a for f, a, _ in got if f == "ty_narrow"]
    regs = [int(x, 16) for x in narrow[0].split(", ")] if narrow else []
    res.record("typed: report --no-types prints the registers raw, whose low bits hold the "
               "typed values (s8, u8, s16 of ty_narrow)",
               rst == 0 and len(regs) == 8 and "=" not in narrow[0] and
               int8(regs[0]) == -SEED - 2 and regs[1] & 0xff == 200 + SEED and
               ((regs[2] & 0xffff) ^ 0x8000) - 0x8000 == -1000 * SEED,
               f"ty_narrow raw: {narrow}\n{raw[-1500:]}")

    sst, stats = h.run([tool, "stats", bt, "--elf", elf])
    folded = os.path.join(h.HOST, "typed.folded")
    fst, fout = h.run([tool, "export", "--format", "folded", bt, "--elf", elf, "-o", folded])
    res.record("typed: commands that do not show strings (stats, export folded) skip the "
               "string records quietly: no 'malformed' warnings for them",
               sst == 0 and fst == 0 and "ty_greet" in stats and
               "malformed" not in stats + fout, (stats + fout)[-1500:])

    js = os.path.join(h.HOST, "typed.json")
    rst, out = h.run([tool, "export", "--format", "chrome", bt, "--elf", elf, "-o", js])
    events = []
    if rst == 0:
        with open(js) as f:
            events = [e for e in json.load(f)["traceEvents"]
                      if e.get("cat") == "graph" and e["name"].startswith("ty_")]
    by = {}
    for e in events:
        by.setdefault(e["name"], []).append(e.get("args", {}))
    first = lambda fn: by.get(fn, [{}])[0]  # noqa: E731
    big_len = 16 * SEED + 16
    res.record("typed: Chrome export's args are named and typed (numbers, enum names, "
               "JSON bools, pointers as hex strings, char * as its string; no retval for void)",
               rst == 0 and
               first("ty_sensor_read") == {"retval": "TY_EINVAL" if big_len > 32 else "TY_OK",
                                           "id": SEED, "buf": buf, "len": big_len} and
               first("ty_narrow").get("s64") == -(1 << 40) * SEED and
               first("ty_narrow").get("u64") == (1 << 63) + SEED and
               first("ty_check").get("on") is bool(SEED & 1) and
               first("ty_void") == {"x": SEED} and
               first("ty_mode_of").get("k") == SEED and
               first("ty_name_len") == {"retval": 6, "name": "sensor"} and
               by.get("ty_greet", [{}, {}])[1:] == [{
                   "retval": 36 + len("sensor"[SEED:]),
                   "who": "0123456789abcdefghijklmnopqrstuv...", "where": "sensor"[SEED:]}] and
               first("ty_peek") == {"retval": 1, "p": "0x10 <unreadable>"},
               f"{out}\n" + json.dumps(by, indent=None)[:3000])

    # args-spec: the boot argument from the types, and a run with it
    funcs = ["ty_greet", "ty_name_len", "ty_many", "ty_scale", "ty_point_sum", "ty_sensor_read"]
    # registers as AAPCS64 gives main.c's declarations; s: the char * ones
    spec = ("trace_args=ty_greet:2:s01,ty_name_len:1:s0,ty_many:8,ty_scale:1,"
            "ty_point_sum:3,ty_sensor_read:3")
    rst, out = h.run([tool, "args-spec", "--elf", elf] + funcs)
    bad, bad_out = h.run([tool, "args-spec", "--elf", elf, "ty_greet", "no_such_fn"])
    usage, _ = h.run([tool, "args-spec", "ty_greet"])
    bt2 = os.path.join(h.HOST, "typed-spec.bt")
    st, console = h.run(["tools/qemu-run", "--image", os.path.join(img, "Image"),
                         "--bootargs", "panic=poweroff trace=function_graph trace_filter=ty_* "
                         f"trace_retval=1 {out.strip()} -- {SEED}", "--capture", bt2],
                        timeout=h.QEMU_TIMEOUT) if rst == 0 else (None, "")
    _, report2 = h.run([tool, "report", bt2, "--elf", elf]) if st == 0 else (None, "")
    got = [c for c in graph_calls(report2) if c[0] in ("ty_greet", "ty_sensor_read")]
    res.record("typed: args-spec prints the trace_args= that the declarations call for "
               "(registers, :s for char *), refuses an unknown name (exit 1, nothing on "
               "stdout) and a missing --elf (exit 2); a run with its output shows the "
               "strings",
               rst == 0 and out.strip() == spec and bad == 1 and "trace_args" not in bad_out
               and usage == 2 and len(got) == 4 and
               got == [w for w in want if w[0] in ("ty_greet", "ty_sensor_read")],
               f"got {out!r}, want {spec!r}; bad {bad}: {bad_out!r}; usage {usage}\n"
               + report2[-1500:])

    import typed_viewers
    dat, times = typed_viewers.check_tracecmd(h, res, tool, bt, elf, want)
    typed_viewers.check_kernelshark(h, res, dat, want, times)

    if not shutil.which("babeltrace2"):
        return
    ctf = os.path.join(h.HOST, "typed-ctf")
    shutil.rmtree(ctf, ignore_errors=True)
    rst, out = h.run([tool, "export", "--format", "ctf", bt, "--elf", elf, "-o", ctf])
    bst, text = h.run(["babeltrace2", ctf]) if rst == 0 else (None, out)
    fn, args, ret = want[0]
    res.record("typed: CTF export: func_args has the typed arguments, func_exit the typed "
               "return value (babeltrace2)",
               bst == 0 and re.search(rf'func_args: .*func = "{fn}", .*typed = "{re.escape(args)}"',
                                      text) and
               re.search(rf'func_exit: .*func = "{fn}", .*retval_typed = "{ret}"', text) and
               re.search(r'func_exit: .*func = "ty_void", .*retval_typed = "void"', text),
               text[-2000:])


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import harness  # noqa: E402
    results = harness.Results(True)
    check(harness, results, "qemu-virt")
    results.finish()
    sys.exit(0 if results.failed == 0 else 1)
