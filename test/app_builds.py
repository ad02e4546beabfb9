"""test/app_builds.py: the 'apps' stage: applications brought as they are
(docs/applications.md, "Building an existing tree: app.mk").

- examples/firmware: sources in subfolders, its own include folder,
  defines and flags from its app.mk; the files it does not build are
  named; its output is checked against a CRC computed here; a traced run
  records its functions and not the app-notrace ones.
- examples/cpp: C++ with static constructors, virtual calls, a template
  and new/delete; its averages are computed here; the traced run counts
  each sensor's reads.
- Apps outside the repository: one without app.mk (every source under
  it, a C++ file in a subfolder, a file of an unknown extension named);
  the flags really apply (the firmware tree without its -Wno-... fails);
  a bad app.mk and an app with no sources are refused with a reason.
"""
import os
import re
import shutil
import tempfile

WORK = os.path.join("build", "apps-test")


def crc16_ccitt_false(data):
    crc = 0xFFFF
    for b in data:
        crc ^= b << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def make(h, board, app, *args, goal=None, timeout=300):
    cmd = ["make", f"BOARD={board}", f"APP={app}"] + list(args) + ([goal] if goal else [])
    st, out = h.run(cmd, timeout=timeout)
    return st, out.replace("\r", "")


def stats(h, run_dir):
    st, out = h.run([os.path.join(h.HOST, "baretrace"), "stats",
                     os.path.join(run_dir, "trace.bt")], timeout=120)
    calls = {}
    for line in out.splitlines():
        m = re.match(r"^\s+(\d+)\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+(.+)$", line)
        if m:
            calls[m.group(2)] = int(m.group(1))
    return st, out, calls


def traced_run(h, board, app, name):
    run_dir = os.path.join(h.ROOT, WORK, name)
    shutil.rmtree(run_dir, ignore_errors=True)
    st, out = make(h, board, app, f"RUN_DIR={run_dir}", goal="run")
    return st, h.strip_frames(out), run_dir


def check_firmware(h, res, board):
    app = "examples/firmware"
    st, out = make(h, board, app)
    skips = re.findall(r"^  SKIP    (\S+) \((.*)\)$", out, re.M)
    res.record("apps: firmware tree builds, naming each file it does not take",
               st == 0 and dict(skips) == {
                   f"{app}/host/dump.c": f"not in {app}/app.mk's app-srcs",
                   f"{app}/README.txt": "not a source: the build takes .c .S .cpp .cc .cxx"},
               out)
    st, text, run_dir = traced_run(h, board, app, "firmware")
    msg = b"baretrace: bring your own code"
    slots = int(re.search(r"RING_SLOTS=(\d+)", open(os.path.join(h.ROOT, app, "app.mk")).read()).group(1))
    pieces = -(-len(msg) // (slots - 1))  # a ring of N slots holds N-1 bytes
    want = (f"firmware 2.1: {len(msg)} bytes in {pieces} pieces through a ring of {slots} slots, "
            f"crc16 0x{crc16_ccitt_false(msg):04x}")
    res.record("apps: firmware tree's output (defines from app.mk, CRC computed here)",
               st == 0 and want in text.splitlines(), f"want: {want}\n" + text)
    _, sout, calls = stats(h, run_dir)
    # Each piece fills the ring until a put fails (all but the last) and
    # empties it until a get fails.
    want_calls = {"ring_put": len(msg) + pieces - 1, "ring_get": len(msg) + pieces,
                  "loopback_send": pieces, "loopback_receive": pieces}
    got_calls = {k: calls.get(k) for k in want_calls}
    res.record("apps: firmware tree traced: exact calls of its functions, "
               "crc16_update (app-notrace) absent",
               got_calls == want_calls and "crc16_update" not in calls and "main" in calls,
               f"want {want_calls}\ngot {got_calls}\n" + sout)


def check_cpp(h, res, board):
    st, text, run_dir = traced_run(h, board, "examples/cpp", "cpp")
    ticks, window = 8, 4
    therm = [20000 + 250 * t for t in range(ticks)][-window:]
    supply = [3310 if t % 2 else 3290 for t in range(ticks)][-window:]
    avg_t, avg_s = sum(therm) // window, sum(supply) // window
    want = ["constructed thermometer", "constructed supply",
            "cpp: early constructor ran 1 time(s)",
            f"cpp: thermometer: window {window}, last average {avg_t}",
            f"cpp: supply: window {window}, last average {avg_s}",
            f"cpp: 2 sensors, sum of averages {avg_t + avg_s}"]
    got = [line for line in text.splitlines() if line.startswith(("constructed ", "cpp: "))]
    res.record("apps: C++ app: static constructors in link order before main(), "
               "virtual calls, template, new/delete", st == 0 and got == want,
               "want:\n" + "\n".join(want) + "\ngot:\n" + "\n".join(got))
    # The host tool shows C++ names demangled (its own demangler; the
    # names here are spelled as the C++ standard library's would).
    _, sout, calls = stats(h, run_dir)
    want_calls = {"(anonymous namespace)::Thermometer::read(unsigned int)": ticks,
                  "(anonymous namespace)::Supply::read(unsigned int)": ticks,
                  "board::Sensor::Sensor(char const*)": 2,
                  "operator new(unsigned long)": 2,
                  "operator delete(void*, unsigned long)": 2,
                  "(anonymous namespace)::early()": 1}
    got_calls = {k: calls.get(k) for k in want_calls}
    res.record("apps: C++ app traced: each sensor's read() once per tick, constructors, "
               "new/delete, under their demangled names",
               got_calls == want_calls, f"want {want_calls}\ngot {got_calls}\n" + sout)


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def check_outside(h, res, board):
    tmp = tempfile.mkdtemp(prefix="bt-app-")
    try:
        app = os.path.join(tmp, "mixed")
        write(f"{app}/main.c", "#include <stdio.h>\nint twice(int);\n"
              "int main(void) { printf(\"mixed: %d\\n\", twice(21)); return 0; }\n")
        write(f"{app}/lib/deep/twice.cpp", "template <typename T> static T dbl(T v) { return v * 2; }\n"
              "extern \"C\" int twice(int v) { return dbl(v); }\n")
        write(f"{app}/notes.rs", "fn main() {}\n")
        st, out = make(h, board, app, "TRACE=", goal="run-direct")
        res.record("apps: an app outside the tree without app.mk: subfolder C++ linked, "
                   "the unknown file named",
                   st == 0 and "mixed: 42" in out and
                   f"  SKIP    {app}/notes.rs (not a source" in out, out)

        fw = os.path.join(tmp, "firmware")
        shutil.copytree(os.path.join(h.ROOT, "examples/firmware"), fw)
        mk = open(f"{fw}/app.mk").read()
        write(f"{fw}/app.mk", mk.replace(" -Wno-unused-parameter", ""))
        st, out = make(h, board, fw)
        res.record("apps: app-cflags apply: the firmware tree without -Wno-unused-parameter "
                   "fails under its -Werror", st != 0 and "unused parameter" in out, out)

        write(f"{fw}/app.mk", mk + "app-srcs += drivers/no_such_driver.c\n")
        st, out = make(h, board, fw)
        res.record("apps: an app-srcs entry that names no file is refused, naming it",
                   st != 0 and "app-srcs names no file for: drivers/no_such_driver.c" in out, out)

        empty = os.path.join(tmp, "empty")
        write(f"{empty}/Main.java", "class Main {}\n")
        st, out = make(h, board, empty)
        res.record("apps: a folder without sources is refused, naming what it looked for",
                   st != 0 and "is not a directory with sources" in out, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def unrecorded_sites(h, elf):
    """Functions that have a patchable entry (two NOPs before the symbol,
    two at it) but no __patchable_function_entries record, so the trace
    core can never attach to them."""
    tool = "aarch64-linux-gnu-objdump"
    st1, dump = h.run([tool, "-s", "-j", "__patchable_function_entries", elf], timeout=60)
    blob = bytes.fromhex("".join(
        "".join(m.group(1).split()) for m in
        (re.match(r"^ [0-9a-f]+ ((?:[0-9a-f]{8} ?){1,4})", l) for l in dump.splitlines()) if m))
    recorded = {int.from_bytes(blob[i:i + 8], "little") for i in range(0, len(blob) - 7, 8)}
    st2, dis = h.run([tool, "-d", "--no-show-raw-insn", elf], timeout=120)
    # objdump -d: a blank line, "ADDR <name>:", then its instructions.
    lines = [l for l in dis.splitlines() if l.strip()]
    missing = []
    for i, line in enumerate(lines):
        m = re.match(r"^([0-9a-f]+) <(.+)>:$", line)
        if m and 2 <= i < len(lines) - 2 and all(
                re.search(r"\snop$", lines[j]) for j in (i - 2, i - 1, i + 1, i + 2)):
            if int(m.group(1), 16) - 8 not in recorded:
                missing.append(m.group(2))
    return st1 == 0 and st2 == 0 and bool(recorded), missing


def check_sites(h, res, board):
    for app in ("examples/demo", "examples/firmware", "examples/cpp"):
        st, out = make(h, board, app)
        elf = os.path.join(h.make_dir(board, app), "baretrace.elf")
        ok, missing = unrecorded_sites(h, elf) if st == 0 else (False, [out[-2000:]])
        res.record(f"apps: {app}: every function with a patchable entry has its record "
                   "(none lost with its file's first function to --gc-sections)",
                   ok and not missing, f"read ok: {ok}; no record: {' '.join(missing)}")


def stage_apps(h, res, board):
    import typed_args
    typed_args.check(h, res, board)
    check_firmware(h, res, board)
    check_cpp(h, res, board)
    check_sites(h, res, board)
    check_outside(h, res, board)
