/*
 * tools/baretrace/help/cmd_goto.c: `baretrace goto`, a recorded run
 * stopped under gdb at one of its trace's events (cmd_goto.c parses,
 * goto.c and goto_gdb.c run it).
 */
#include "help.h"

static const struct bt_opt_help goto_opts[] = {
	{ "--check", "check the stop against the trace and exit\n"
		     "(no gdb prompt): 0 the same moment, 1 not" },
	{ NULL, NULL },
};

const struct bt_cmd_help bt_help_goto = {
	.name = "goto",
	.summary = "rerun a recorded run under gdb and stop at one of its events",
	.synopsis = "goto RUN EVENT [--check]",
	.about =
		"Run a run recorded by 'make record' (RUN: its folder, or the trace.bt\n"
		"in it) again under QEMU's gdb stub and stop the CPU that took EVENT\n"
		"where it took it: EVENT is a number of 'report --numbers',\n"
		"FUNC[@CPU][#N], the Nth entry of FUNC (on CPU), or @T[@CPU], the last\n"
		"entry at or before time T (on CPU).",
	.opts = goto_opts,
	.exit_status =
		"0  gdb stopped at the event (with --check: it is the same moment)\n"
		"1  refused (no run folder, not under -icount shift=0, another image,\n"
		"   events lost, console input with more CPUs), no such event, or the\n"
		"   stop differs from the trace\n"
		"2  a bad command line (a malformed EVENT too)",
	.examples =
		"make BOOTARGS=trace_args=fsm_step:2 record\n"
		"  the demo once, exactly, into build/record\n"
		"baretrace report build/record/trace.bt --numbers | grep fsm_step\n"
		"  the events, numbered\n"
		"baretrace goto build/record 4242\n"
		"  gdb at event #4242\n"
		"baretrace goto build/record fsm_step@2#5 --check\n"
		"  the 5th entry of fsm_step on CPU 2, checked, no prompt\n"
		"baretrace goto build/record @0.321000@1\n"
		"  the last entry on CPU 1 that report prints at 0.321000 or before",
	.manual =
		"Reruns the run in RUN, a folder made by 'make record' (record.txt, "
		"qemu.args, Image, baretrace.elf, trace.bt), with the QEMU command line "
		"it recorded, under gdb-multiarch, and stops at EVENT: a number that "
		"'baretrace report --numbers' prints after a function entry, or "
		"FUNC[@CPU][#N], the Nth entry of FUNC on CPU (without @CPU: the Nth in "
		"the report's order; N is 1 without #N), or @T[@CPU], the last entry at or "
		"before time T (on CPU; on any CPU the latest, the report's last of a tie): "
		"T in counter ticks when it is digits only (the CNTVCT value the trace "
		"recorded, which goto prints as 'at counter T'), or in seconds as report "
		"prints them when it has a point and up to 9 decimals (0.321000 covers "
		"every tick report prints so). A malformed EVENT is a bad command line "
		"(status 2) and nothing runs.\n"
		"\n"
		"The stop is a breakpoint on the function's patch site (its BL, the "
		"symbol + 4, where the trace takes the event) for that CPU's gdb thread "
		"only, counted only while the site is patched and the tracer runs, ignored N - 1 times. "
		"A first run checks it: the CPU, the address, x0-x7 against the "
		"arguments the trace recorded (trace_args=), and the counter the "
		"recorder reads there (CNTVCT) against the event's timestamp; then, "
		"unless --check, a second run lands there again and gdb's prompt is "
		"the user's, with the baretrace gdb commands loaded.\n"
		"\n"
		"Refused, exit status 1: a trace with no run folder, a run not "
		"recorded under -icount shift=0,sleep=off, an Image or ELF whose "
		"SHA-256 is not the recorded one, a trace with lost events, console "
		"input with more than one CPU. See docs/replay.md.",
};
