/*
 * trace/control/console_gate.c: trace frames and the person at the
 * console. Frames are binary (docs/wire.md); on a terminal that nothing
 * captures (make run-direct, a serial terminal on a board) they arrive
 * as noise between the lines, and the end of the run adds more. So a
 * command typed at the shell that would start them (the exporter's
 * first frames, metadata and symbols) is refused, saying how to run it
 * captured, unless
 *  - a capture announced itself on this console (baretrace capture's
 *    mark, kernel/shell/console_input.c), or
 *  - frames flow already: boot arguments started them, the user's choice
 *    for this console (a Pi's card as built traces the demo).
 * C code (an application, the target tests' shell_exec) and boot
 * arguments are not asked: they chose their console themselves.
 */
#include <stdbool.h>

#include <baretrace_trace.h>

#include "console_input.h"
#include "kprintf.h"
#include "control.h"

bool trace_console_refuses(void)
{
	const char *cmd = console_typed_command();

	if (!cmd || trace_exporting() || console_captured())
		return false;
	kprintf("%s: refused: nothing captures this console, and tracing would send binary "
		"trace frames to it; nothing changed\n"
		"%s: run it captured: make TRACE=nop BOOTARGS=shell run (then type it, or "
		"EXEC='...'), or baretrace capture --serial DEV on a board (docs/running.md)\n",
		cmd, cmd);
	return true;
}
