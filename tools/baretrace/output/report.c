/*
 * tools/baretrace/output/report.c: `baretrace report`, ftrace-style text.
 *
 * Function entries print as the function tracer does,
 *   [000] 12.345678: func <-caller
 * graph records as the function_graph tracer does, with a duration
 * column marked '+' over 10 us, '!' over 100 us and '#' over 1 ms:
 *    0)               |  outer() {
 *    0)   0.480 us    |    leaf();
 *    0) + 12.016 us   |  }
 * An exit whose entry is unknown (threshold mode records only exits)
 * names its function in a comment after the brace, as ftrace does.
 *
 * An entry is held back one record, so an entry followed at once by its
 * own exit prints as one "leaf();" line, and an arguments record is held
 * back one record too, so the arguments recorded right after an entry,
 * or right before it, print inside its parentheses: "leaf(0x1, 0x2);".
 *
 * The file is read twice. Exits without entries nest by containment, so
 * a call's depth is known only once its callers have returned, later in
 * the stream; the first pass (depths.c) works out every exit's depth, the
 * second prints in stream order. Nothing else is kept per event.
 *
 * The previous boot's blocks (a boot that ended in a reset, sent by the
 * next one first; docs/wire.md 2.10) print under a heading of their own,
 * with their own call stacks and their own books after them.
 */

#include "../bt.h"

#define MAX_INDENT	100	/* depth levels shown */

struct report {
	struct bt_stacks stacks;
	struct bt_stacks prev_stacks;	/* the previous boot's, apart */
	struct bt_depths depths;
	uint64_t exits[BT_MAX_CPUS];	/* ordinal of the next exit, per CPU */
	int held;			/* an entry waits for its args or exit */
	unsigned held_cpu;
	struct wire_record held_rec;
	char held_args[512];		/* "(0x1, 0x2)" or "" */
	int pend;			/* an arguments record waits for its entry */
	unsigned pend_cpu, pend_n;
	uint64_t pend_site;
	char pend_ts[40];
	int64_t pend_args[BT_ARGS_SHOWN];
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
	const struct wire_record *r = &rp->held_rec;
	char ts[40], nb[32], cb[32];

	if (rp->pend) {		/* no entry came for it */
		bt_fmt_arg_values(rp->pend_args, rp->pend_n, " ", rp->held_args,
				  sizeof(rp->held_args));
		printf("[%03u] %s: args of %s: %s\n", rp->pend_cpu, rp->pend_ts,
		       bt_func_name(d, rp->pend_site, nb, sizeof(nb)), rp->held_args);
		rp->pend = 0;
	}
	if (!rp->held)
		return;
	rp->held = 0;
	if (r->kind == WIRE_REC_GRAPH_ENTRY) {
		graph_prefix(d, rp->held_cpu, 0, 0, r->depth);
		printf("%s%s {\n", bt_func_name(d, r->site, nb, sizeof(nb)),
		       rp->held_args[0] ? rp->held_args : "()");
		return;
	}
	bt_fmt_seconds(ts, sizeof(ts), r->ts, bt_freq(d));
	printf("[%03u] %s: %s%s <-%s\n", rp->held_cpu, ts, bt_func_name(d, r->site, nb, sizeof(nb)),
	       rp->held_args, r->has_caller ? bt_caller_name(&d->syms, r->caller, cb, sizeof(cb))
					    : "?");
}

static void on_exit_rec(struct bt_decoder *d, struct report *rp, unsigned cpu,
			const struct wire_record *r)
{
	struct bt_exit x;
	char nb[32];
	int prev = d->prev.active;
	uint64_t k = prev ? 0 : rp->exits[cpu]++;
	const char *name = bt_func_name(d, r->site, nb, sizeof(nb));

	/* The first pass has depths for this boot's exits only. */
	bt_stack_exit(prev ? &rp->prev_stacks : &rp->stacks, cpu, r, &x);
	uint64_t depth = x.matched || prev ? x.depth : bt_depth_of(&rp->depths, cpu, k, x.depth);

	if (rp->held && rp->held_cpu == cpu && rp->held_rec.site == r->site) {
		rp->held = 0;
		graph_prefix(d, cpu, 1, r->duration, rp->held_rec.depth);
		printf("%s%s;", name, rp->held_args[0] ? rp->held_args : "()");
		print_retval(r, NULL);
	} else {
		flush_held(d, rp);
		graph_prefix(d, cpu, 1, r->duration, depth);
		printf("}");
		print_retval(r, x.matched ? NULL : name);
	}
	printf("\n");
}

static void on_ext(struct bt_decoder *d, struct report *rp, unsigned cpu,
		   const struct wire_record *r, const char *ts)
{
	struct wire_ext x;
	int64_t args[BT_ARGS_SHOWN];
	char text[sizeof(rp->held_args) - 2];	/* room for "()" */

	wire_ext_parse(r, &x);	/* the decoder passes only records that parse */
	if (x.subtype == WIRE_EXT_ARGS && rp->held && rp->held_cpu == cpu &&
	    rp->held_rec.site == x.site && !rp->held_args[0]) {
		bt_fmt_arg_values(args, bt_ext_args(&x, args, BT_ARGS_SHOWN), ", ", text,
				  sizeof(text));
		snprintf(rp->held_args, sizeof(rp->held_args), "(%s)", text);
		return;
	}
	flush_held(d, rp);
	if (x.subtype != WIRE_EXT_ARGS) {
		bt_print_ext(d, cpu, ts, &x);
		return;
	}
	rp->pend = 1;		/* its entry may come next */
	rp->pend_cpu = cpu;
	rp->pend_site = x.site;
	rp->pend_n = bt_ext_args(&x, rp->pend_args, BT_ARGS_SHOWN);
	snprintf(rp->pend_ts, sizeof(rp->pend_ts), "%s", ts);
}

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	struct report *rp = d->user;
	char ts[40], text[1024];
	const char *ev;
	int entry = r->kind <= WIRE_REC_FUNC_CALLER || r->kind == WIRE_REC_GRAPH_ENTRY;
	int take = entry && rp->pend && rp->pend_cpu == cpu && rp->pend_site == r->site;

	bt_fmt_seconds(ts, sizeof(ts), r->ts, bt_freq(d));
	if (r->kind == WIRE_REC_EXT) {
		on_ext(d, rp, cpu, r, ts);
		return;
	}
	rp->pend &= !take;
	if (rp->pend || (rp->held && (rp->held_cpu != cpu || r->kind != WIRE_REC_EXIT ||
				      rp->held_rec.kind != WIRE_REC_GRAPH_ENTRY)))
		flush_held(d, rp);
	switch (r->kind) {
	case WIRE_REC_FUNC:
	case WIRE_REC_FUNC_CALLER:
	case WIRE_REC_GRAPH_ENTRY:
		header(rp, r->kind == WIRE_REC_GRAPH_ENTRY);
		if (r->kind == WIRE_REC_GRAPH_ENTRY)
			bt_stack_enter(bt_stack_of(d->prev.active ? &rp->prev_stacks : &rp->stacks,
						   cpu), r->site, r->depth, r->ts);
		rp->held = 1;
		rp->held_cpu = cpu;
		rp->held_rec = *r;
		rp->held_args[0] = 0;
		if (take) {	/* the arguments came just before the entry */
			bt_fmt_arg_values(rp->pend_args, rp->pend_n, ", ", text, sizeof(text));
			snprintf(rp->held_args, sizeof(rp->held_args), "(%.*s)",
				 (int)sizeof(rp->held_args) - 3, text);
		}
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
	}
}

/* A marker where events are missing; the header goes first. */
static void on_hole(struct bt_decoder *d, unsigned cpu, uint64_t events, const char *cause)
{
	struct report *rp = d->user;

	flush_held(d, rp);
	if (!rp->said_graph && !rp->said_function && (rp->depths.graph || rp->depths.function))
		header(rp, rp->depths.graph);
	printf("CPU:%u [LOST %llu EVENTS] (%s)\n", cpu, (unsigned long long)events, cause);
}

static void on_profile(struct bt_decoder *d, const struct wire_frame *f)
{
	struct report *rp = d->user;
	struct wire_profile_iter it;

	flush_held(d, rp);
	wire_profile_begin(&it, f->body, f->body_len);
	printf("# profile dump: %llu functions on CPU %u\n", (unsigned long long)it.left, f->cpu);
}

/* The previous boot's events: a heading before, their books after. */
static void on_section(struct bt_decoder *d, int prev)
{
	struct report *rp = d->user;

	flush_held(d, rp);
	if (prev) {
		printf("#\n# ==== previous boot %llu, up to its reset (kept in RAM, sent by the "
		       "next boot) ====\n", (unsigned long long)d->prev.boot);
		rp->said_function = rp->said_graph = 0;
		return;
	}
	bt_prev_print(stdout, d, "# ");
	printf("# ==== this boot ====\n");
	rp->said_function = rp->said_graph = 0;
}

static const struct bt_visitor report_visitor = {
	.record = on_record,
	.hole = on_hole,
	.profile = on_profile,
	.section = on_section,
};

int bt_report(const char *trace, const char *elf)
{
	static struct bt_decoder d;
	static struct report rp;
	int rc;

	bt_depths_read(&rp.depths, trace, elf);
	bt_dec_init(&d, &report_visitor, &rp);
	d.want_prev = 1;
	if (elf)
		bt_dec_use_elf(&d, elf);
	rc = bt_decode_file(&d, trace);
	if (d.prev.active)	/* nothing of this boot after it */
		on_section(&d, 0);
	flush_held(&d, &rp);
	if (!rc) {
		printf("# %llu events\n", (unsigned long long)bt_events(&d));
		bt_loss_print(stdout, &d, "# ", d.bad_frames);
	}
	bt_stacks_free(&rp.stacks);
	bt_stacks_free(&rp.prev_stacks);
	bt_depths_free(&rp.depths);
	bt_dec_free(&d);
	return rc;
}
