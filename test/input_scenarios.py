"""test/input_scenarios.py: the 'input' stage: bad input on the console and
in the boot arguments of the test image, each answered with a clear
message that changes nothing (issue 10, part 4).
"""
import re

from trace_scenarios import console_session


def stage_bad_input(h, res, board):
    """Bad input on the console and in the boot arguments: each gets a
    clear message and changes nothing (issue 10, part 4)."""
    if board != "qemu-virt":
        return
    st, out = h.run(["make", "-s", f"BOARD={board}", "all"])
    st2, out2 = h.run(["make", "-s", f"BOARD={board}", "APP=test/target"])
    if st or st2:
        res.record("input: build the images", False, out + out2)
        return
    tgt, demo = h.make_dir(board, "test/target"), h.make_dir(board, "examples/demo")

    def boot(image, bootargs):
        # Trace frames sit between console lines without a newline of
        # their own (docs/wire.md): drop them so lines start at ^.
        st, out = h.boot(board, image, "direct", bootargs)
        return st, re.sub(r"\x02[^\x03]*\x03", "", out)

    # A refused trace value is named, and the run ends before main()
    # (status 2, refused) instead of going on without it.
    st, out = boot(tgt, "panic=poweroff trace_buf=8K trace_buf=1K trace_cpumask=0x1 "
              "trace_cpumask=0 trace=function trace_filter=tt_*,nosuch_fn* -- golden")
    h.expect(res, "input: trace_buf=1K and trace_cpumask=0 are refused with their values and "
             "end the run before main() with status 2; no tracer starts", st, out, status=2,
             present=[r"^bootargs: invalid value in 'trace_buf=1K' \(.*2K-64M.*\); not applied$",
                      r"^bootargs: invalid value in 'trace_cpumask=0' \(.*\); not applied$",
                      r"^trace: not applied: trace_buf, trace_cpumask \(see above\); the run "
                      r"ends before main\(\)$", r"^baretrace: exit status 2 \(refused\)$"],
             absent=[r"tracer on", r"^KTAP", r"^golden"])
    # A setting refused only when applied (CPU 4 is not online) also ends it.
    st, out = boot(tgt, "panic=poweroff trace_cpumask=0x10 trace=function -- golden")
    h.expect(res, "input: trace_cpumask=0x10 on 4 CPUs is refused when applied and ends the "
             "run before main()", st, out, status=2,
             present=[r"^trace: trace_cpumask '0x10' refused \(invalid\); not applied$",
                      r"^trace: not applied: trace_cpumask "],
             absent=[r"tracer on", r"^KTAP"])
    # An unknown trace_* word is a trace setting the kernel did not apply.
    st, out = boot(tgt, "panic=poweroff trace=function trace_filer=tt_* -- golden")
    h.expect(res, "input: an unknown trace_* word (trace_filer=) ends the run before main()",
             st, out, status=2,
             present=[r"^bootargs: unknown kernel parameter 'trace_filer=tt_\*' ",
                      r"^trace: not applied: trace_filer "], absent=[r"tracer on", r"^KTAP"])
    st, out = boot(tgt, "panic=poweroff trace=nop -- golden")
    h.expect(res, "input: trace=nop chooses nop without calling it refused", st, out,
             present=[r"^trace: nop tracer: no function is traced$"], absent=[r"refused"])

    # A command line past 4096 bytes: what fits applies (panic=, the
    # tick rate), the rest is named; the echo is whole.
    filler = " ".join("tick_hz=" + "0" * 190 + "50" for _ in range(21))
    line = f"panic=poweroff tick_hz=50 {filler} -- ignored"
    st, out = boot(demo, line)
    h.expect(res, f"input: a {len(line)}-byte command line keeps what fits and says where it "
             "stopped; kprintf prints the whole echo line", st, out,
             present=[r"^bootargs: \"" + re.escape(line) + r"\"$",
                      r"^bootargs: line too long \(at most 4095 bytes, 32 words\): ignoring "
                      r"everything from byte \d+ \('tick_hz=0+\.\.\.'\) on; \d+ kernel and "
                      r"0 app words kept$",
                      r"^time: counter \d+ Hz, tick 50 Hz$", r"^demo: PASS"])

    # A filter past the line's end is not applied either: the run ends
    # instead of tracing every function.
    line = f"panic=poweroff trace=function {filler} trace_filter=tt_* -- golden"
    st, out = boot(tgt, line)
    h.expect(res, "input: a trace_filter cut off a line too long ends the run before main() "
             "instead of tracing everything", st, out, status=2,
             present=[r"^bootargs: line too long ", r"^trace: not applied: trace_filter "],
             absent=[r"tracer on", r"^KTAP"])

    # The console, with no tracer chosen at first; typed as through a
    # capture ('profile on' starts the trace frames).
    long_filter = b"filter " + b"tt_alpha," * 16     # 144 characters: accepted
    session = [
        (b"filter [", r"^filter: invalid glob '\[' "),
        (b"filter tt_* !", r"^filter: invalid glob '!' "),
        (b"filter", r"^filter: \(every function\)$"),
        (long_filter, None),
        (b"filter", r"^filter: (tt_alpha,){16}$"),
        (b"buffer 64M", r"^buffer: 65536 KiB per CPU, overwrite mode$"),
        (b"buffer", None),
        (b"buffer 16K stop", r"^buffer: 16 KiB per CPU, stop mode$"),
        (b"event filter irq:entry irq==99999999999999999999999",
         r"^event: no such event or field, or a value outside the field's type$"),
        (b"event filter irq:entry irq==-5", None),
        (b"events", r"^ *\d+ irq:entry +off probes=\d+ irq$"),
        (b"event filter irq:entry irq==4294967295", None),
        (b"events", r"^ *\d+ irq:entry .*\[filter irq==4294967295, 0 dropped\]$"),
        (b"event filter irq:entry", None),
        (b"tracer function", None),
        (b"filter tt_alpha nosuch_fn*", r"^filter: 'nosuch_fn\*' matches no function$"),
        (b"filter", r"^filter: tt_alpha nosuch_fn\*$"),
        (b"profile on tt_*", None),
        (b"profile on tt_*", r"^profile: already on \('profile off' first\)$"),
        (b"profile off", None),
        (b"x" * 200, r"^console: line too long \(max 159 characters\), line dropped$"),
        # ESC then Enter (CR) ends the line; were the CR swallowed, the
        # next word would join it ("tracerfilter"). Every line still ends
        # in LF, so a regression cannot leave the session waiting.
        (b"tracer\x1b\rfilter", r"^tracer: function \(off\)$"),
        (b"tracer \x1b[Dfunction_graph", None),
        (b"tracer", r"^tracer: function_graph \(off\)$"),
        (b"exit 5", r"^baretrace: exit status 5$"),
    ]
    keys = b"".join(k + b"\n" for k, _ in session)
    st, out = console_session(h, tgt, "panic=poweroff shell -- golden", keys, captured=True)
    missing = [k.decode(errors="replace")[:40] for k, p in session
               if p and not re.search(p, out, re.M)]
    refusals = len(re.findall(r"^event: no such event or field, or a value outside", out, re.M))
    sizes = len(re.findall(r"^buffer: 65536 KiB per CPU, overwrite mode$", out, re.M))
    unwanted = [p for p in (r"^unknown command 'x", r"^unknown command 'tracer",
                            r"^tracer: profile", r"not while the graph")
                if re.search(p, out, re.M)]
    res.record(f"input: {len(session)} console lines: bad globs, long filters, buffer sizes, "
               "out-of-range event values, a second 'profile on', over-long lines and ESC "
               "Enter each get a clear answer and change nothing",
               st == 5 and not missing and refusals == 2 and sizes == 2 and not unwanted,
               out[-3000:] + f"\nstatus {st}, unmatched: {missing}, "
               f"event refusals {refusals} (want 2), 64M echoes {sizes} (want 2), "
               f"unwanted {unwanted}")

    # 'help' lists every command once, in alphabetical order (the linker
    # left the table reversed; issue 25).
    st, out = console_session(h, tgt, "panic=poweroff shell -- golden", b"help\nexit 0\n")
    listed = re.findall(r"^  ([a-z_]+) +", out.split("bt> help", 1)[-1].split("bt> ", 1)[0],
                        re.M)
    res.record("input: 'help' lists the shell's commands once each, alphabetically",
               st == 0 and len(listed) > 5 and {"dump", "exit", "help"} <= set(listed)
               and listed == sorted(set(listed)),
               out[-3000:] + f"\nstatus {st}, listed {listed}")
    import refused_settings
    refused_settings.stage_settings(h, res, board)
