/*
 * tools/baretrace/help/cmd_capture.c: `baretrace capture`'s help and
 * manual (main.c's cmd_capture parses its options; input/capture*.c
 * does the work).
 */
#include "help.h"

static const struct bt_opt_help opts[] = {
	{ "--serial DEV", "read the serial device DEV (a board's UART)" },
	{ "--baud N", "its baud rate (default 115200)" },
	{ "--file RAW", "read a recorded stream from RAW (- for stdin)" },
	{ "--qemu [--] QEMU ARGS...", "run the QEMU command that follows (the rest\n"
				      "of the line) and read its serial line" },
	{ "-o, --output TRACE.bt", "the trace file (default trace.bt; - for stdout)" },
	{ "--exec 'CMD; CMD...'", "send each command at the shell prompt \"bt> \"\n"
				  "and wait for the next prompt (may be repeated)" },
	{ "--exec-timeout S", "wait at most S seconds for each prompt\n"
			      "(default 30; with --exec)" },
	{ "--timeout S", "after S seconds ask the target to end the run\n"
			 "(as a hang, 124; with --serial or --qemu)" },
	{ "--log FILE", "a copy of stdout (the console text) in FILE" },
	{ NULL, NULL },
};

const struct bt_cmd_help bt_help_capture = {
	.name = "capture",
	.summary = "record a target's serial line: console out, frames to a file",
	.synopsis =
		"capture --serial DEV [--baud N] [OPTIONS]\n"
		"capture --file RAW [OPTIONS]\n"
		"capture [OPTIONS] --qemu [--] QEMU ARGS...",
	.about =
		"Read a target's UART stream: console text to stdout, each frame that\n"
		"passed its CRC to TRACE.bt (default: trace.bt in the current directory;\n"
		"an old trace.bt is kept as trace.bt.old). Stops at the end-of-stream\n"
		"frame, at the end of input or at SIGTERM; the summary names the file.",
	.opts = opts,	/* OPTIONS: -o, --exec, --exec-timeout, --timeout, --log */
	.exit_status =
		"0  the stream ended; the trace file holds every frame that arrived\n"
		"1  the capture failed: QEMU did not start or ended before the end of the\n"
		"   stream, an --exec command got no reply, the file could not be written\n"
		"2  a bad command line",
	.examples =
		"baretrace capture --serial /dev/ttyUSB0 -o pi4.bt\n"
		"  a board's UART at 115200 baud: console to stdout, frames to pi4.bt\n"
		"baretrace capture --file console.raw\n"
		"  frames of a recorded stream into trace.bt\n"
		"baretrace capture --exec 'tracer function_graph; start; exit 0' --qemu -- \\\n"
		"    qemu-system-aarch64 -M virt -nographic -kernel Image -append shell\n"
		"  run QEMU, trace from its shell, capture to trace.bt",
	.manual =
		"Console text goes to stdout, each frame that passed its CRC is appended "
		"to the trace file, flushed, so the file is valid whenever the capture "
		"stops: at the end-of-stream frame, at the end of input, or at SIGTERM. "
		"Without -o the trace goes to trace.bt in the current directory, as "
		"trace-cmd record writes trace.dat and perf record perf.data; as perf "
		"does, an existing trace.bt is first renamed trace.bt.old (a file named "
		"with -o is overwritten). The summary on stderr names the file it wrote "
		"(\"-> trace.bt\"). An output path that is the input file is refused "
		"(exit status 2) before anything is written.\n"
		"\n"
		"--qemu takes the rest of the line as the QEMU command (give -o before "
		"it, or last); QEMU dies with the capture; one that exits before the end "
		"of the stream is an error (status 1), unless the target printed its "
		"final line \"baretrace: exit status N\" first (a run that traced nothing "
		"sends no frame).\n"
		"\n"
		"--log FILE: a copy of stdout. The capture's own lines go to stderr, each "
		"at a line start: a console line left unfinished is ended with a newline "
		"first.\n"
		"\n"
		"With --serial or --qemu, Ctrl-C (SIGINT) and --timeout S when S seconds "
		"have passed ask the target to end the run (interrupt 130, hang 124), "
		"which reports, drains and ends the stream; without its end within 10 s, "
		"or at a second Ctrl-C, the capture ends the run itself (QEMU stopped) "
		"and prints the final status line.\n"
		"\n"
		"The line is two-way: stdin goes to the target, a terminal raw (every "
		"key; Ctrl-C asks the end, Ctrl-] leaves), else as it is (its end stops "
		"only the forwarding). --exec sends each command at the target's shell "
		"prompt \"bt> \" and waits for the next prompt, at most S seconds "
		"(--exec-timeout, default 30) each, the first included; a missing reply "
		"is an error (status 1). The last command may end the run ('exit'). "
		"Stdin is not read while the commands run; after the last command's "
		"reply, stdin is forwarded to the target as without --exec: what is "
		"typed (or piped in) then reaches its shell, until the run ends.",
};
