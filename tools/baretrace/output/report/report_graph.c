/*
 * tools/baretrace/output/report/report_graph.c: the pieces of ftrace's
 * function_graph layout that report's lines are made of: the header, the
 * duration cell, the start of a line, and tracepoints as comments.
 *
 * The duration cell is ftrace's: a marker, '+' over 10 us, '!' over
 * 100 us, '#' over 1 ms, '*' over 10 ms, '@' over 100 ms, '$' over 1 s
 * (' ' up to 10 us), then the time in us with at most 7 digits (the
 * decimals are cut to fit), " us " and padding, so '|' always sits in
 * the same column (until a call lasts 100 s or more, as in ftrace).
 * With --ns the cell holds whole nanoseconds, "  480 ns", in the same
 * width (until a call lasts 100 ms or more).
 * --abstime puts the line's time first, "   12.345678 |  ", as
 * funcgraph-abstime does: an entry's or a leaf's time is its entry's.
 *
 * When a graph line's CPU differs from the last graph line's, a CPU
 * switch block goes first, shaped as ftrace's task switch block (a dash
 * line, "prev => next" in the CPU column, a dash line, an empty line);
 * here the CPUs themselves are what switches:
 *    ------------------------------------------
 *    0) => 1)
 *    ------------------------------------------
 *
 * In a part of the trace with graph records, tracepoints and printf
 * records print as C comments at their CPU's current depth, as ftrace
 * prints trace_printk there: a slash-star, "irq:entry irq=27" (the
 * event's name and fields) and a star-slash. The irq:entry and irq:exit
 * tracepoints also open and close an interrupt with ftrace's markers, a
 * line before the entry's comment and one after the exit's:
 *    0)   ==========> |
 *    0)   <========== |
 */
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../decode/decode.h"
#include "../../decode/units.h"

#include "report.h"

int bt_opt_abstime;	/* report --abstime: ftrace's funcgraph-abstime */

#define MAX_INDENT	100	/* depth levels shown */

void bt_report_header(struct bt_report *rp, int graph)
{
	const char *pad = bt_opt_ns ? "   " : "";

	if (graph && !rp->said_graph) {
		printf("# tracer: function_graph\n#\n");
		if (bt_opt_abstime)
			printf("#     TIME       %s CPU  DURATION                  FUNCTION CALLS\n"
			       "#      |         %s |     |   |                     |   |   |   |\n",
			       pad, pad);
		else
			printf("# CPU  DURATION                  FUNCTION CALLS\n"
			       "# |     |   |                     |   |   |   |\n");
		rp->said_graph = 1;
		rp->last_graph_cpu = -1;
	} else if (!graph && !rp->said_function) {
		printf("# tracer: function\n#\n"
		       "#  CPU     TIMESTAMP  FUNCTION\n"
		       "#   |          |         |\n");
		rp->said_function = 1;
	}
}

void bt_graph_duration(char *buf, size_t n, uint64_t ns)
{
	static const struct {
		uint64_t over;
		char mark;
	} marks[] = {
		{ 1000000000, '$' }, { 100000000, '@' }, { 10000000, '*' },
		{ 1000000, '#' }, { 100000, '!' }, { 10000, '+' },
	};
	char mark = ' ', num[32], frac[4];
	int len;

	for (size_t i = 0; i < sizeof(marks) / sizeof(marks[0]); i++) {
		if (ns > marks[i].over) {
			mark = marks[i].mark;
			break;
		}
	}
	if (bt_opt_ns) {	/* --ns: whole nanoseconds, '|' in the same column */
		len = snprintf(num, sizeof(num), "%llu", (unsigned long long)ns);
		snprintf(buf, n, "%c %s ns %*s|  ", mark, num, len < 8 ? 8 - len : 0, "");
		return;
	}
	len = snprintf(num, sizeof(num), "%llu", (unsigned long long)(ns / 1000));
	if (len < 7) {		/* decimals while the number has under 8 digits */
		snprintf(frac, sizeof(frac), "%03llu", (unsigned long long)(ns % 1000));
		frac[7 - len < 3 ? 7 - len : 3] = 0;
		len += snprintf(num + len, sizeof(num) - (size_t)len, ".%s", frac);
	}
	snprintf(buf, n, "%c %s us %*s|  ", mark, num, len < 8 ? 8 - len : 0, "");
}

/* The switch block, the time (--abstime) and the CPU column. */
void bt_graph_line_start(struct bt_report *rp, unsigned cpu, uint64_t ts)
{
	char t[40];

	if (rp->last_graph_cpu >= 0 && (unsigned)rp->last_graph_cpu != cpu)
		printf(" ------------------------------------------\n"
		       " %*d) => %*u)\n"
		       " ------------------------------------------\n\n",
		       rp->cpu_width, rp->last_graph_cpu, rp->cpu_width, cpu);
	rp->last_graph_cpu = (int)cpu;
	if (bt_opt_abstime) {
		bt_fmt_seconds(t, sizeof(t), ts, bt_freq(rp->names));
		printf("%*s |  ", bt_opt_ns ? 15 : 12, t);
	}
	printf(" %*u) ", rp->cpu_width, cpu);
}

/* A graph line up to its text: " 0) + 12.016 us   |  " and the indent;
 * 'timed' 0 leaves the duration cell blank. */
void bt_graph_start(struct bt_report *rp, unsigned cpu, uint64_t ts, int timed,
		    uint64_t ticks, uint64_t depth)
{
	char cell[48];

	bt_report_header(rp, 1);
	bt_graph_line_start(rp, cpu, ts);
	if (timed)
		bt_graph_duration(cell, sizeof(cell), bt_ticks_ns(ticks, bt_freq(rp->names)));
	printf("%s%*s", timed ? cell : "              |  ",
	       (int)(depth > MAX_INDENT ? MAX_INDENT : depth) * 2, "");
}

/* A tracepoint or printf: a comment in the graph layout, else a line. */
void bt_report_event(struct bt_report *rp, unsigned cpu, const struct bt_ritem *it)
{
	const char *text = rp->q[cpu].arena + it->text;
	const char *fields = it->kind == WIRE_REC_EVENT ? text + strlen(text) + 1 : NULL;
	char ts[40];

	if (!rp->seg_graph) {
		bt_fmt_seconds(ts, sizeof(ts), it->ts, bt_freq(rp->names));
		if (fields)
			printf("[%03u] %s: %s: %s\n", cpu, ts, text, fields);
		else
			printf("[%03u] %s: %s\n", cpu, ts, text);
		return;
	}
	if (it->sub == BT_RI_IRQ_ENTRY) {
		bt_report_header(rp, 1);
		bt_graph_line_start(rp, cpu, it->ts);
		printf("  ==========> |\n");
	}
	bt_graph_start(rp, cpu, it->ts, 0, 0, rp->indent[cpu]);
	printf("/* %s%s%s */\n", text, fields ? " " : "", fields ? fields : "");
	if (it->sub == BT_RI_IRQ_EXIT) {
		bt_graph_line_start(rp, cpu, it->ts);
		printf("  <========== |\n");
	}
}

