/*
 * tools/baretrace/output/report/report_line.c: report's lines, one merged
 * item at a time, in ftrace's two layouts.
 *
 * Function entries print as the function tracer does,
 *   [000] 12.345678: func <-caller
 * graph records as the function_graph tracer does:
 *    0)               |  outer() {
 *    0)   0.480 us    |    leaf();
 *    0) + 12.016 us   |  }
 * Nesting is per CPU: each CPU has its own call stack and depths, so
 * lines of other CPUs may come between an entry and its exit. An entry
 * whose next item on its CPU is its own exit prints as one "leaf();"
 * line; arguments recorded right after (or right before) an entry, on
 * its CPU, print inside its parentheses: "leaf(0x1, 0x2);", or by name
 * and type where the ELF's DWARF says (typed.c): "leaf(id=3, ok=true);",
 * with the strings recorded after the arguments (docs/wire.md 2.6 subtype
 * 6) in place of their char pointers, and so do return values:
 * "} / * = TY_EINVAL * /". An exit
 * whose entry is unknown (threshold mode records only exits) names its
 * function in a comment after the brace, as ftrace does.
 *
 * The layout itself (cells, CPU switches, comments, interrupt markers)
 * is report_graph.c's.
 */
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../decode/decode.h"
#include "outcome.h"	/* kernel/report: RUN_HANG, RUN_WATCHDOG */
#include "../../decode/symtab.h"
#include "../../decode/units.h"
#include "../../model/model.h"
#include "../render/render.h"

#include "report.h"

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

/* A string an argument of site's call points to (it follows the arguments). */
static int is_string_of(const struct bt_ritem *it, uint64_t site)
{
	return it->kind == WIRE_REC_EXT && it->sub == WIRE_EXT_STRING && it->site == site;
}

/* Past the strings recorded with the arguments at q->v[at - 1]. */
static size_t after_strings(const struct bt_rqueue *q, size_t at)
{
	while (at < q->n && is_string_of(&q->v[at], q->v[at - 1].site))
		at++;
	return at;
}

/* An arguments item's values, copied out of the arena (no alignment there). */
static unsigned args_of(const struct bt_rqueue *q, const struct bt_ritem *it, int64_t *v)
{
	memcpy(v, q->arena + it->text, it->a * sizeof(*v));
	return (unsigned)it->a;
}

/*
 * By name and type where DWARF says (typed.c), else the registers in hex;
 * the strings recorded right after the arguments (items it + 1 ...) show
 * in place of their pointers.
 */
static void args_text(struct bt_report *rp, const struct bt_rqueue *q, const struct bt_ritem *it,
		      const char *sep, char *text, size_t n)
{
	int64_t v[BT_ARGS_SHOWN];
	unsigned k = args_of(q, it, v);
	struct bt_argstr strs[8] = { { 0 } };

	for (const struct bt_ritem *s = it + 1; s < q->v + q->n && is_string_of(s, it->site); s++)
		if (s->action < 8)
			strs[s->action] = (struct bt_argstr){ 1, (const uint8_t *)q->arena + s->text,
							      (unsigned)s->a, s->flags };
	if (bt_typed_args(rp->names, it->site, v, k, strs, text, n))
		bt_fmt_arg_values(v, k, sep, text, n);
}

static void args_paren(struct bt_report *rp, const struct bt_rqueue *q, const struct bt_ritem *it,
		       char *buf, size_t n)
{
	char text[512];
	int64_t v[BT_ARGS_SHOWN];
	unsigned k = args_of(q, it, v);

	rp->entry_nargs = k < 8 ? k : 8;	/* the registers x0-x7, for goto */
	memcpy(rp->entry_args, v, rp->entry_nargs * sizeof(v[0]));
	args_text(rp, q, it, ", ", text, sizeof(text));
	snprintf(buf, n, "(%.*s)", (int)n - 3, text);
}

/*
 * What follows a name on a graph line: its recorded arguments, else
 * "()"; a demangled C++ name carries its own parameter list
 * ("Sensor::read() const {"), so it gets no second one.
 */
static const char *call_paren(const char *name, const char *args)
{
	return args[0] ? args : strchr(name, '(') ? "" : "()";
}

/* " / * = 5 * /", typed (typed.c) where DWARF says: none for a void function. */
static void print_retval(struct bt_report *rp, const struct bt_ritem *x, const char *func)
{
	char val[64];
	int typed = 0;

	if (x->flags & WIRE_EXIT_HAS_RETVAL &&
	    (typed = bt_typed_retval(rp->names, x->site, x->retval, val, sizeof(val))) < 0)
		snprintf(val, sizeof(val), "%lld", (long long)x->retval);
	if (typed)
		printf(" /* %s%s= %s */", func ? func : "", func ? " " : "", val);
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
	const char *name = bt_func_name(rp->names, x->site, nb, sizeof(nb));
	uint64_t k = rp->seg_prev ? 0 : rp->exits[cpu]++;

	/* The first pass has depths for this boot's exits only. */
	bt_stack_exit(rp->seg_prev ? &rp->prev_stacks : &rp->stacks, cpu, &r, &e);
	uint64_t depth = e.matched || rp->seg_prev ? e.depth
						   : bt_depth_of(&rp->depths, cpu, k, e.depth);

	if (entry) {
		bt_graph_start(rp, cpu, entry->ts, 1, x->a, entry->a);
		printf("%s%s;", name, call_paren(name, args));
		print_retval(rp, x, NULL);
		printf("%s", rp->entry_tag);
		rp->indent[cpu] = entry->a;
	} else {
		bt_graph_start(rp, cpu, x->ts, 1, x->a, depth);
		printf("}");
		print_retval(rp, x, e.matched ? NULL : name);
		rp->indent[cpu] = depth;
	}
	printf("\n");
}

int bt_opt_numbers;
void (*bt_report_entry_hook)(const struct bt_entry_seen *e);

/* This boot's entries get their number (the previous boot's none: goto
 * cannot run it again). */
static void number_entry(struct bt_report *rp, unsigned cpu, const struct bt_ritem *it)
{
	rp->entry_tag[0] = 0;
	if (rp->seg_prev)
		return;
	rp->last_entry[cpu] = ++rp->entries;
	if (bt_opt_numbers)
		snprintf(rp->entry_tag, sizeof(rp->entry_tag), "  #%llu",
			 (unsigned long long)rp->entries);
	if (bt_report_entry_hook)
		bt_report_entry_hook(&(struct bt_entry_seen){ .no = rp->entries, .site = it->site,
			.ts = it->ts, .cpu = cpu, .nargs = rp->entry_nargs, .args = rp->entry_args });
}

/* A function or graph entry, with its arguments and (a leaf) its exit. */
static void entry_line(struct bt_report *rp, unsigned cpu, const struct bt_ritem *it,
		       char *args, size_t cap)
{
	struct bt_rqueue *q = &rp->q[cpu];
	struct bt_ritem *next = peek(q);
	char ts[40], nb[32], cb[32];
	const char *name;

	if (!args[0] && next && is_args(next) && next->site == it->site) {
		args_paren(rp, q, next, args, cap);
		q->at = after_strings(q, q->at + 1);
		next = peek(q);
	}
	number_entry(rp, cpu, it);
	if (it->kind != WIRE_REC_GRAPH_ENTRY) {
		bt_report_header(rp, 0);
		bt_fmt_seconds(ts, sizeof(ts), it->ts, bt_freq(rp->names));
		printf("[%03u] %s: %s%s <-%s%s\n", cpu, ts, bt_func_name(rp->names, it->site, nb, sizeof(nb)),
		       args, it->flags ? bt_caller_name(&rp->names->syms, it->a, cb, sizeof(cb)) : "?",
		       rp->entry_tag);
		return;
	}
	bt_stack_enter(bt_stack_of(rp->seg_prev ? &rp->prev_stacks : &rp->stacks, cpu), it->site,
		       it->a, it->ts);
	if (next && next->kind == WIRE_REC_EXIT && next->site == it->site) {
		q->at++;
		exit_line(rp, cpu, next, it, args);
		return;
	}
	bt_graph_start(rp, cpu, it->ts, 0, 0, it->a);
	name = bt_func_name(rp->names, it->site, nb, sizeof(nb));
	printf("%s%s {%s\n", name, call_paren(name, args), rp->entry_tag);
	rp->indent[cpu] = it->a + 1;
}

/*
 * Where the run ended (an outcome record): a line at its time on its
 * CPU, and in graph layout the calls still open there closed by it, each
 * "} / * FUNC: cut by the crash * /" with no duration, innermost first.
 */
static void outcome_line(struct bt_report *rp, unsigned cpu, const struct bt_ritem *it,
			 const char *ts)
{
	struct bt_stack *s = bt_stack_of(rp->seg_prev ? &rp->prev_stacks : &rp->stacks, cpu);
	char wb[24], nb[32], mark[64];
	const char *word = bt_outcome_word(it->action, wb, sizeof(wb));

	bt_outcome_mark(it->action, it->retval, mark, sizeof(mark));
	printf("[%03u] %s: ==== %s ====\n", cpu, ts, mark);
	/* --numbers: where to start 'baretrace goto' (docs/replay.md). A
	 * crash or a panic happened on this CPU; a hang was only noticed
	 * here (the lockup detector's CPU, the watchdog's tick): the CPU
	 * that stopped may be any, so every CPU's last entry is named. */
	for (unsigned c = 0; bt_opt_numbers && !rp->seg_prev && c < BT_MAX_CPUS; c++)
		if (rp->last_entry[c] && (c == cpu || it->action == RUN_HANG ||
					  it->action == RUN_WATCHDOG))
			printf("# goto: the last entry on CPU %u before the %s is #%llu\n", c, word,
			       (unsigned long long)rp->last_entry[c]);
	while (s->n) {
		const struct bt_frame *f = &s->f[--s->n];

		bt_graph_start(rp, cpu, it->ts, 0, 0, f->depth);
		printf("} /* %s: cut by the %s */\n", bt_func_name(rp->names, f->site, nb, sizeof(nb)),
		       word);
		rp->indent[cpu] = f->depth;
	}
	s->overflow = 0;
}

static void ext_line(struct bt_report *rp, unsigned cpu, const struct bt_ritem *it)
{
	const struct bt_rqueue *q = &rp->q[cpu];
	char ts[40], nb[32], ab[16], text[BT_ARGS_SHOWN * 20];
	uint64_t ret;

	bt_fmt_seconds(ts, sizeof(ts), it->ts, bt_freq(rp->names));
	switch (it->sub) {
	case WIRE_EXT_ARGS:	/* no entry took them */
		args_text(rp, q, it, " ", text, sizeof(text));
		printf("[%03u] %s: args of %s: %s\n", cpu, ts,
		       bt_func_name(rp->names, it->site, nb, sizeof(nb)), text);
		rp->q[cpu].at = after_strings(q, rp->q[cpu].at);
		break;
	case WIRE_EXT_STRING:	/* its arguments were lost */
		bt_argstr_text(&(struct bt_argstr){ 1, (const uint8_t *)q->arena + it->text,
						     (unsigned)it->a, it->flags }, 0, text, sizeof(text));
		printf("[%03u] %s: string x%u of %s: %s\n", cpu, ts, it->action,
		       bt_func_name(rp->names, it->site, nb, sizeof(nb)), text);
		break;
	case WIRE_EXT_TRIGGER:
		printf("[%03u] %s: trigger %s on %s\n", cpu, ts,
		       bt_trigger_action(it->action, ab, sizeof(ab)),
		       bt_func_name(rp->names, it->site, nb, sizeof(nb)));
		break;
	case WIRE_EXT_OUTCOME:
		outcome_line(rp, cpu, it, ts);
		break;
	case WIRE_EXT_PROBE:	/* its text was made when it was read */
		printf("[%03u] %s: %s\n", cpu, ts, q->arena + it->text);
		break;
	case WIRE_EXT_STACK:
		printf("[%03u] %s: <stack trace>\n", cpu, ts);
		for (uint64_t i = 0; i < it->a; i++) {
			memcpy(&ret, q->arena + it->text + i * sizeof(ret), sizeof(ret));
			printf(" => %s\n", bt_caller_name(&rp->names->syms, ret, nb, sizeof(nb)));
		}
		break;
	}
}

void bt_report_item(struct bt_report *rp, unsigned cpu)
{
	struct bt_rqueue *q = &rp->q[cpu];
	struct bt_ritem *it = &q->v[q->at++], *next;
	char args[512] = "";
	size_t past = is_args(it) ? after_strings(q, q->at) : q->at;

	rp->entry_nargs = 0;
	rp->entry_tag[0] = 0;
	next = past < q->n ? &q->v[past] : NULL;
	if (is_args(it) && next && is_entry(next) && next->site == it->site) {
		args_paren(rp, q, it, args, sizeof(args));	/* recorded before its entry */
		q->at = past;
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
		bt_report_event(rp, cpu, it);
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
		printf("# profile dump: %llu function%s on CPU %llu\n", (unsigned long long)it->a,
		       bt_plural(it->a), (unsigned long long)it->site);
		break;
	}
}
