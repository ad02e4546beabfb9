/*
 * tools/baretrace/output/report_line.c: report's lines, one merged item at
 * a time, in ftrace's two layouts.
 *
 * Function entries print as the function tracer does,
 *   [000] 12.345678: func <-caller
 * graph records as the function_graph tracer does:
 *    0)               |  outer() {
 *    0)   0.480 us    |    leaf();
 *    0) + 12.016 us   |  }
 * The duration cell is ftrace's: a marker, '+' over 10 us, '!' over
 * 100 us, '#' over 1 ms, '*' over 10 ms, '@' over 100 ms, '$' over 1 s
 * (' ' up to 10 us), then the time in us with at most 7 digits (the
 * decimals are cut to fit), " us " and padding, so '|' always sits in
 * the same column (until a call lasts 100 s or more, as in ftrace).
 * --abstime puts the line's time first, "   12.345678 |  ", as
 * funcgraph-abstime does: an entry's or a leaf's time is its entry's.
 *
 * Nesting is per CPU: each CPU has its own call stack and depths, so
 * lines of other CPUs may come between an entry and its exit. An entry
 * whose next item on its CPU is its own exit prints as one "leaf();"
 * line; arguments recorded right after (or right before) an entry, on
 * its CPU, print inside its parentheses: "leaf(0x1, 0x2);". An exit
 * whose entry is unknown (threshold mode records only exits) names its
 * function in a comment after the brace, as ftrace does.
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

#include "../bt.h"

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
	len = snprintf(num, sizeof(num), "%llu", (unsigned long long)(ns / 1000));
	if (len < 7) {		/* decimals while the number has under 8 digits */
		snprintf(frac, sizeof(frac), "%03llu", (unsigned long long)(ns % 1000));
		frac[7 - len < 3 ? 7 - len : 3] = 0;
		len += snprintf(num + len, sizeof(num) - (size_t)len, ".%s", frac);
	}
	snprintf(buf, n, "%c %s us %*s|  ", mark, num, len < 8 ? 8 - len : 0, "");
}

/* The switch block, the time (--abstime) and the CPU column. */
static void line_start(struct bt_report *rp, unsigned cpu, uint64_t ts)
{
	char t[40];

	if (rp->last_graph_cpu >= 0 && (unsigned)rp->last_graph_cpu != cpu)
		printf(" ------------------------------------------\n"
		       " %*d) => %*u)\n"
		       " ------------------------------------------\n\n",
		       rp->cpu_width, rp->last_graph_cpu, rp->cpu_width, cpu);
	rp->last_graph_cpu = (int)cpu;
	if (bt_opt_abstime) {
		bt_fmt_seconds(t, sizeof(t), ts, bt_freq(rp->d));
		printf("%*s |  ", bt_opt_ns ? 15 : 12, t);
	}
	printf(" %*u) ", rp->cpu_width, cpu);
}

/* A graph line up to its text: " 0) + 12.016 us   |  " and the indent;
 * 'timed' 0 leaves the duration cell blank. */
static void graph_start(struct bt_report *rp, unsigned cpu, uint64_t ts, int timed,
			uint64_t ticks, uint64_t depth)
{
	char cell[48];

	bt_report_header(rp, 1);
	line_start(rp, cpu, ts);
	if (timed)
		bt_graph_duration(cell, sizeof(cell), bt_ticks_ns(ticks, bt_freq(rp->d)));
	printf("%s%*s", timed ? cell : "              |  ",
	       (int)(depth > MAX_INDENT ? MAX_INDENT : depth) * 2, "");
}

static struct bt_ritem *peek(struct bt_rqueue *q)
{
	return q->at < q->n ? &q->v[q->at] : NULL;
}

static int is_entry(const struct bt_ritem *it)
{
	return it->kind <= WIRE_REC_FUNC_CALLER || it->kind == WIRE_REC_GRAPH_ENTRY;
}

static int is_args(const struct bt_ritem *it)
{
	return it->kind == WIRE_REC_EXT && it->sub == WIRE_EXT_ARGS;
}

/* An arguments item's values, copied out of the arena (no alignment there). */
static unsigned args_of(const struct bt_rqueue *q, const struct bt_ritem *it, int64_t *v)
{
	memcpy(v, q->arena + it->text, it->a * sizeof(*v));
	return (unsigned)it->a;
}

static void args_paren(const struct bt_rqueue *q, const struct bt_ritem *it, char *buf,
		       size_t n)
{
	int64_t v[BT_ARGS_SHOWN];
	char text[512];

	bt_fmt_arg_values(v, args_of(q, it, v), ", ", text, sizeof(text));
	snprintf(buf, n, "(%.*s)", (int)n - 3, text);
}

static void print_retval(const struct bt_ritem *x, const char *func)
{
	if (x->flags & WIRE_EXIT_HAS_RETVAL)
		printf(" /* %s%s= %lld */", func ? func : "", func ? " " : "", (long long)x->retval);
	else if (func)
		printf(" /* %s */", func);
}

/* A graph exit; 'entry' is its entry when the two print as one leaf. */
static void exit_line(struct bt_report *rp, unsigned cpu, const struct bt_ritem *x,
		      const struct bt_ritem *entry, const char *args)
{
	struct wire_record r = { .kind = WIRE_REC_EXIT, .ts = x->ts, .site = x->site,
				 .duration = x->a, .flags = x->flags, .retval = x->retval };
	struct bt_exit e;
	char nb[32];
	const char *name = bt_func_name(rp->d, x->site, nb, sizeof(nb));
	uint64_t k = rp->seg_prev ? 0 : rp->exits[cpu]++;

	/* The first pass has depths for this boot's exits only. */
	bt_stack_exit(rp->seg_prev ? &rp->prev_stacks : &rp->stacks, cpu, &r, &e);
	uint64_t depth = e.matched || rp->seg_prev ? e.depth
						   : bt_depth_of(&rp->depths, cpu, k, e.depth);

	if (entry) {
		graph_start(rp, cpu, entry->ts, 1, x->a, entry->a);
		printf("%s%s;", name, args[0] ? args : "()");
		print_retval(x, NULL);
		rp->indent[cpu] = entry->a;
	} else {
		graph_start(rp, cpu, x->ts, 1, x->a, depth);
		printf("}");
		print_retval(x, e.matched ? NULL : name);
		rp->indent[cpu] = depth;
	}
	printf("\n");
}

/* A function or graph entry, with its arguments and (a leaf) its exit. */
static void entry_line(struct bt_report *rp, unsigned cpu, const struct bt_ritem *it,
		       char *args, size_t cap)
{
	struct bt_rqueue *q = &rp->q[cpu];
	struct bt_ritem *next = peek(q);
	char ts[40], nb[32], cb[32];

	if (!args[0] && next && is_args(next) && next->site == it->site) {
		args_paren(q, next, args, cap);
		q->at++;
		next = peek(q);
	}
	if (it->kind != WIRE_REC_GRAPH_ENTRY) {
		bt_report_header(rp, 0);
		bt_fmt_seconds(ts, sizeof(ts), it->ts, bt_freq(rp->d));
		printf("[%03u] %s: %s%s <-%s\n", cpu, ts, bt_func_name(rp->d, it->site, nb, sizeof(nb)),
		       args, it->flags ? bt_caller_name(&rp->d->syms, it->a, cb, sizeof(cb)) : "?");
		return;
	}
	bt_stack_enter(bt_stack_of(rp->seg_prev ? &rp->prev_stacks : &rp->stacks, cpu), it->site,
		       it->a, it->ts);
	if (next && next->kind == WIRE_REC_EXIT && next->site == it->site) {
		q->at++;
		exit_line(rp, cpu, next, it, args);
		return;
	}
	graph_start(rp, cpu, it->ts, 0, 0, it->a);
	printf("%s%s {\n", bt_func_name(rp->d, it->site, nb, sizeof(nb)), args[0] ? args : "()");
	rp->indent[cpu] = it->a + 1;
}

/* A tracepoint or printf: a comment in the graph layout, else a line. */
static void event_line(struct bt_report *rp, unsigned cpu, const struct bt_ritem *it)
{
	const char *text = rp->q[cpu].arena + it->text;
	const char *fields = it->kind == WIRE_REC_EVENT ? text + strlen(text) + 1 : NULL;
	char ts[40];

	if (!rp->seg_graph) {
		bt_fmt_seconds(ts, sizeof(ts), it->ts, bt_freq(rp->d));
		if (fields)
			printf("[%03u] %s: %s: %s\n", cpu, ts, text, fields);
		else
			printf("[%03u] %s: %s\n", cpu, ts, text);
		return;
	}
	if (it->sub == BT_RI_IRQ_ENTRY) {
		bt_report_header(rp, 1);
		line_start(rp, cpu, it->ts);
		printf("  ==========> |\n");
	}
	graph_start(rp, cpu, it->ts, 0, 0, rp->indent[cpu]);
	printf("/* %s%s%s */\n", text, fields ? " " : "", fields ? fields : "");
	if (it->sub == BT_RI_IRQ_EXIT) {
		line_start(rp, cpu, it->ts);
		printf("  <========== |\n");
	}
}

static void ext_line(struct bt_report *rp, unsigned cpu, const struct bt_ritem *it)
{
	const struct bt_rqueue *q = &rp->q[cpu];
	int64_t v[BT_ARGS_SHOWN];
	char ts[40], nb[32], ab[16], text[BT_ARGS_SHOWN * 20];
	uint64_t ret;

	bt_fmt_seconds(ts, sizeof(ts), it->ts, bt_freq(rp->d));
	switch (it->sub) {
	case WIRE_EXT_ARGS:	/* no entry took them */
		bt_fmt_arg_values(v, args_of(q, it, v), " ", text, sizeof(text));
		printf("[%03u] %s: args of %s: %s\n", cpu, ts,
		       bt_func_name(rp->d, it->site, nb, sizeof(nb)), text);
		break;
	case WIRE_EXT_TRIGGER:
		printf("[%03u] %s: trigger %s on %s\n", cpu, ts,
		       bt_trigger_action(it->action, ab, sizeof(ab)),
		       bt_func_name(rp->d, it->site, nb, sizeof(nb)));
		break;
	case WIRE_EXT_STACK:
		printf("[%03u] %s: <stack trace>\n", cpu, ts);
		for (uint64_t i = 0; i < it->a; i++) {
			memcpy(&ret, q->arena + it->text + i * sizeof(ret), sizeof(ret));
			printf(" => %s\n", bt_caller_name(&rp->d->syms, ret, nb, sizeof(nb)));
		}
		break;
	}
}

void bt_report_item(struct bt_report *rp, unsigned cpu)
{
	struct bt_rqueue *q = &rp->q[cpu];
	struct bt_ritem *it = &q->v[q->at++], *next = peek(q);
	char args[512] = "";

	if (is_args(it) && next && is_entry(next) && next->site == it->site) {
		args_paren(q, it, args, sizeof(args));	/* recorded before its entry */
		it = &q->v[q->at++];
	}
	switch (it->kind) {
	case WIRE_REC_FUNC:
	case WIRE_REC_FUNC_CALLER:
	case WIRE_REC_GRAPH_ENTRY:
		entry_line(rp, cpu, it, args, sizeof(args));
		break;
	case WIRE_REC_EXIT:
		exit_line(rp, cpu, it, NULL, "");
		break;
	case WIRE_REC_EVENT:
	case WIRE_REC_PRINTF:
		event_line(rp, cpu, it);
		break;
	case WIRE_REC_EXT:
		ext_line(rp, cpu, it);
		break;
	case BT_RI_HOLE:
		if (!rp->said_graph && !rp->said_function && (rp->seg_graph || rp->seg_function))
			bt_report_header(rp, rp->seg_graph);
		printf("CPU:%u [LOST %llu EVENTS] (%s)\n", cpu, (unsigned long long)it->a,
		       it->cause);
		break;
	case BT_RI_PROFILE:
		printf("# profile dump: %llu functions on CPU %llu\n", (unsigned long long)it->a,
		       (unsigned long long)it->site);
		break;
	}
}
