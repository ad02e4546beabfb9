/*
 * tools/baretrace/report.c: `baretrace report`, ftrace-style text.
 *
 * Function entries print as the function tracer does,
 *   [000] 12.345678: func <-caller
 * graph records as the function_graph tracer does, with a duration
 * column marked '+' over 10 us, '!' over 100 us and '#' over 1 ms:
 *    0)               |  outer() {
 *    0)   0.480 us    |    leaf();
 *    0) + 12.016 us   |  }
 * An entry is held back one record so an entry followed at once by its
 * own exit prints as one "leaf();" line. Output streams: nothing is
 * kept per event, only one held-back entry and the per-CPU stacks.
 */
#include <string.h>

#include "bt.h"

#define MAX_INDENT	100	/* depth levels shown */

struct report {
	struct bt_stacks stacks;
	int held;			/* an entry waits to see its exit */
	unsigned held_cpu;
	struct wire_record held_rec;
	int said_function, said_graph;
};

static void header(struct report *rp, int graph)
{
	if (graph && !rp->said_graph) {
		printf("# tracer: function_graph\n#\n"
		       "# CPU  DURATION                  FUNCTION CALLS\n"
		       "# |     |   |                     |   |   |   |\n");
		rp->said_graph = 1;
	} else if (!graph && !rp->said_function) {
		printf("# tracer: function\n#\n"
		       "#  CPU     TIMESTAMP  FUNCTION\n"
		       "#   |          |         |\n");
		rp->said_function = 1;
	}
}

/* " 0) + 12.016 us   |  " then the indent for 'depth'. */
static void graph_prefix(struct bt_decoder *d, unsigned cpu, int timed, uint64_t ticks,
			 uint64_t depth)
{
	char us[32], field[40];
	uint64_t ns = bt_ticks_ns(ticks, bt_freq(d));
	char mark = ns > 1000000 ? '#' : ns > 100000 ? '!' : ns > 10000 ? '+' : ' ';

	if (timed) {
		bt_fmt_usecs(us, sizeof(us), ticks, bt_freq(d));
		snprintf(field, sizeof(field), "%s us", us);
		printf(" %u) %c %-12s|  ", cpu, mark, field);
	} else {
		printf(" %u) %14s|  ", cpu, "");
	}
	printf("%*s", (int)(depth > MAX_INDENT ? MAX_INDENT : depth) * 2, "");
}

static void print_retval(const struct wire_record *r, const char *func)
{
	if (r->flags & WIRE_EXIT_HAS_RETVAL)
		printf(" /* %s%s= %lld */", func ? func : "", func ? " " : "", (long long)r->retval);
	else if (func)
		printf(" /* %s */", func);
}

static void flush_held(struct bt_decoder *d, struct report *rp)
{
	char nb[32];

	if (!rp->held)
		return;
	rp->held = 0;
	graph_prefix(d, rp->held_cpu, 0, 0, rp->held_rec.depth);
	printf("%s() {\n", bt_func_name(d, rp->held_rec.site, nb, sizeof(nb)));
}

static void on_exit_rec(struct bt_decoder *d, struct report *rp, unsigned cpu,
			const struct wire_record *r)
{
	struct bt_frame f;
	unsigned level;
	char nb[32];
	int matched = bt_stack_exit(bt_stack_of(&rp->stacks, cpu), r->site, r->duration,
				    &f, &level);
	const char *name = bt_func_name(d, r->site, nb, sizeof(nb));

	if (rp->held && rp->held_cpu == cpu && rp->held_rec.site == r->site) {
		rp->held = 0;
		graph_prefix(d, cpu, 1, r->duration, rp->held_rec.depth);
		printf("%s();", name);
		print_retval(r, NULL);
	} else {
		flush_held(d, rp);
		graph_prefix(d, cpu, 1, r->duration, f.depth);
		printf("}");
		print_retval(r, matched ? NULL : name);
	}
	printf("\n");
}

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	struct report *rp = d->user;
	char ts[40], nb[32], cb[32], text[1024];
	const char *ev;

	if (rp->held && (rp->held_cpu != cpu || r->kind != WIRE_REC_EXIT))
		flush_held(d, rp);
	bt_fmt_seconds(ts, sizeof(ts), r->ts, bt_freq(d));
	switch (r->kind) {
	case WIRE_REC_FUNC:
	case WIRE_REC_FUNC_CALLER:
		header(rp, 0);
		printf("[%03u] %s: %s <-%s\n", cpu, ts, bt_func_name(d, r->site, nb, sizeof(nb)),
		       r->has_caller ? bt_caller_name(&d->syms, r->caller, cb, sizeof(cb)) : "?");
		break;
	case WIRE_REC_GRAPH_ENTRY:
		header(rp, 1);
		bt_stack_enter(bt_stack_of(&rp->stacks, cpu), r->site, r->depth, r->ts);
		rp->held = 1;
		rp->held_cpu = cpu;
		rp->held_rec = *r;
		break;
	case WIRE_REC_EXIT:
		header(rp, 1);
		on_exit_rec(d, rp, cpu, r);
		break;
	case WIRE_REC_EVENT:
		if (bt_fmt_event(d, r, text, sizeof(text), &ev))
			ev = "?";
		printf("[%03u] %s: %s: %s\n", cpu, ts, ev, text);
		break;
	case WIRE_REC_PRINTF:
		bt_fmt_printf(d, r, text, sizeof(text));
		printf("[%03u] %s: %s\n", cpu, ts, text);
		break;
	case WIRE_REC_LOST:
		printf("CPU:%u [LOST %llu EVENTS]\n", cpu, (unsigned long long)r->count);
		break;
	}
}

static void on_lost_frames(struct bt_decoder *d, unsigned cpu, uint64_t frames)
{
	flush_held(d, d->user);
	printf("CPU:%u [LOST %llu FRAMES]\n", cpu, (unsigned long long)frames);
}

static const struct bt_visitor report_visitor = {
	.record = on_record,
	.lost_frames = on_lost_frames,
};

int bt_report(const char *trace, const char *elf)
{
	static struct bt_decoder d;
	struct report rp = { 0 };
	int rc;

	bt_dec_init(&d, &report_visitor, &rp);
	if (elf)
		bt_dec_use_elf(&d, elf);
	rc = bt_decode_file(&d, trace);
	flush_held(&d, &rp);
	if (!rc) {
		printf("# %llu events", (unsigned long long)bt_events(&d));
		if (d.events_lost || d.frames_lost)
			printf("; %llu events lost on the target, %llu frames lost on the way",
			       (unsigned long long)d.events_lost, (unsigned long long)d.frames_lost);
		printf("\n");
	}
	bt_stacks_free(&rp.stacks);
	bt_dec_free(&d);
	return rc;
}
