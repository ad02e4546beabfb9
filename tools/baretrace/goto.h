/*
 * tools/baretrace/goto.h: `baretrace goto RUN EVENT`: a run recorded by
 * make record (tools/record), run again under gdb and stopped where one
 * of its trace's events was taken (goto.c finds the event and checks the
 * run folder, goto_gdb.c runs QEMU and gdb; docs/replay.md).
 */
#ifndef TOOLS_BARETRACE_GOTO_H
#define TOOLS_BARETRACE_GOTO_H

#include <stddef.h>
#include <stdint.h>

/* EVENT as goto_event.c reads it. */
enum { BT_GOTO_NUMBER, BT_GOTO_FUNC, BT_GOTO_TIME };
struct bt_goto_event {
	int kind;
	uint64_t no;		/* NUMBER: report --numbers' #N */
	char name[256];		/* FUNC */
	uint64_t nth;		/* FUNC: the Nth entry, from 1 */
	uint64_t cpu;		/* FUNC, TIME: ~0 for any CPU */
	uint64_t t;		/* TIME: ticks, or seconds * 10^digits */
	unsigned digits;	/* TIME: decimals of seconds; 0: ticks */
};

struct bt_goto_opts {
	const char *run;	/* the run folder, or its trace.bt */
	const char *event;	/* its text: N, FUNC[@CPU][#N] or @T[@CPU] */
	struct bt_goto_event ev;	/* read by cmd_goto.c */
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
/* goto_event.c: 0, or -1 for a malformed EVENT (nothing printed). */
int bt_goto_parse_event(const char *text, struct bt_goto_event *e);
/* The index in seen[] (report's order) of the event, or -1 and why. */
struct bt_entry_seen;
struct bt_symtab;
long bt_goto_find_event(const struct bt_goto_event *e, const char *text,
			const struct bt_entry_seen *seen, size_t nseen,
			struct bt_symtab *syms, uint64_t freq);
/* goto_gdb.c: runs QEMU with the recorded line and gdb to the stop;
 * check: only the checking run. Returns the exit status. */
int bt_goto_gdb(const struct bt_goto_stop *s, int check);

#endif /* TOOLS_BARETRACE_GOTO_H */
