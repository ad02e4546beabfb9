/*
 * tools/baretrace/goto.h: `baretrace goto RUN EVENT`: a run recorded by
 * make record (tools/record), run again under gdb and stopped where one
 * of its trace's events was taken (goto.c finds the event and checks the
 * run folder, goto_gdb.c runs QEMU and gdb; docs/replay.md).
 */
#ifndef TOOLS_BARETRACE_GOTO_H
#define TOOLS_BARETRACE_GOTO_H

#include <stdint.h>

struct bt_goto_opts {
	const char *run;	/* the run folder, or its trace.bt */
	const char *event;	/* N (report --numbers), or FUNC[@CPU][#N] */
	int check;		/* check the stop and exit; no gdb prompt */
};

/* What goto_gdb.c needs: the event and where the run folder keeps what. */
struct bt_goto_stop {
	char dir[4096];		/* the run folder */
	char elf[4200];
	const char *func;
	uint64_t no;		/* its number in report --numbers */
	unsigned cpu;
	uint64_t nth;		/* the entry of func on cpu, from 1 */
	uint64_t site_addr;	/* the run-time address of the patch site's BL */
	uint64_t text_base;
	uint64_t ts;		/* the event's counter value */
	unsigned nargs;		/* recorded arguments (trace_args=) */
	int64_t args[8];
	int replay;		/* a one-CPU run with QEMU's rr log */
	int one_cpu;		/* the counter must match exactly (goto.py) */
};

int bt_goto(const struct bt_goto_opts *o);
/* goto_gdb.c: runs QEMU with the recorded line and gdb to the stop;
 * check: only the checking run. Returns the exit status. */
int bt_goto_gdb(const struct bt_goto_stop *s, int check);

#endif /* TOOLS_BARETRACE_GOTO_H */
