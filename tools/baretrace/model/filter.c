/*
 * tools/baretrace/model/filter.c: the host-side filters' verdicts, record
 * by record (filter_opts.c parses the flags; filter_queue.c holds what
 * waits; filter_stage.c faces the decoder). Applied once, between the
 * decoder and the command's visitor, so that every command and every
 * pass of one (report's depth pass, flame_source, stats, the exports)
 * sees the same stream.
 *
 * When a filter is set, bt_dec_init (through bt_dec_stage) puts this
 * stage's visitor in front of the command's. Each record gets a verdict:
 * keep, leave out, or not yet known. Only a graph entry under
 * --min-duration waits (for its exit, which carries the duration), and
 * an arguments record recorded before its entry waits one record (it
 * shares the entry's fate). Everything
 * after a waiting item waits behind it in one queue, holes, block and
 * section edges included, so the command sees the stream in its order.
 * The queue holds copies; with nothing waiting, items pass straight on.
 *
 * "Beneath" (-F, -N, --depth) is known from graph entries: a per-CPU
 * stack of open calls, popped by exits (an exit whose entry is not open
 * pops nothing). Records that carry no nesting are judged by it:
 *   - function entries (no exits): by the open graph calls around them,
 *     else by their own name and their recorded caller's (one level);
 *   - exits without entries (threshold mode): by their own name and the
 *     open calls around them; --depth does not apply to them;
 *   - tracepoints, printf: -F/-N by the open calls, --cpu, --time-range;
 *   - arguments, stack traces, triggers next to an entry: as that entry.
 * With -F, depths count from the outermost open F call (as ftrace with
 * set_graph_function): graph entries reach the command rebased.
 * Calls that never return keep their entry (duration unknown).
 * Profile dumps are sums the target made: only --cpu can apply to them;
 * with any other filter they are left out and the summary says so.
 * Left-out records are counted (the summary), never as lost: the
 * books (books.c) count what was decoded, before this stage.
 */
#include <stdlib.h>

#include "../../../wire/wire.h"
#include "../base/util.h"
#include "../decode/decode.h"
#include "../decode/symtab.h"
#include "../decode/units.h"

#include "filter_int.h"
#include "model.h"

/* ---- verdicts --------------------------------------------------------------- */

static struct fcpu *cpu_state(struct bt_filter *fi, unsigned cpu)
{
	if (!fi->cpu[cpu])
		fi->cpu[cpu] = bt_alloc(sizeof(*fi->cpu[cpu]));
	return fi->cpu[cpu];
}

static int time_ok(struct bt_decoder *d, uint64_t ts)
{
	uint64_t ns;

	if (!CONF->have_from && !CONF->have_to)
		return 1;
	/* Compared as report prints it: to the microsecond, or ns (--ns). */
	ns = bt_ticks_ns(ts, bt_freq(d));
	if (!bt_opt_ns)
		ns -= ns % 1000;
	return (!CONF->have_from || ns >= CONF->from_ns) && (!CONF->have_to || ns <= CONF->to_ns);
}

/* -F (or -N) names a function by its name as shown or, for C++, by its
 * mangled name: either one matching a glob is a match. */
static int named(const char *name, const char *raw, int notrace)
{
	const char *const *g = notrace ? CONF->notrace : CONF->func;
	unsigned n = notrace ? CONF->nnotrace : CONF->nfunc;

	return bt_filter_match(g, n, name) || (raw && bt_filter_match(g, n, raw));
}

static int is_func(struct bt_decoder *d, uint64_t site, int notrace)
{
	char nb[32];
	const char *name = bt_func_name(d, site, nb, sizeof(nb));

	return named(name, bt_site_raw(&d->syms, site), notrace);
}

static int caller_is(struct bt_decoder *d, const struct wire_record *r, int notrace)
{
	char nb[32];
	const char *name;

	if (!r->has_caller)
		return 0;
	name = bt_caller_name(&d->syms, r->caller, nb, sizeof(nb));
	return named(name, bt_caller_raw(&d->syms, r->caller), notrace);
}

/* Depth a record inside the open calls has, checked against --depth. */
static int depth_ok(const struct fcpu *s)
{
	return !CONF->have_depth || !s->n || s->st[s->n - 1].depth + 1 < CONF->depth;
}

/* Tracepoints, printf, and what is judged by the open calls alone. */
static uint8_t by_context(struct bt_decoder *d, const struct fcpu *s, uint64_t ts)
{
	return (!CONF->nfunc || s->fopen) && !s->nopen && time_ok(d, ts) ? V_KEEP : V_DROP;
}

static int long_enough(struct bt_decoder *d, uint64_t ticks)
{
	return !CONF->have_min || bt_ticks_ns(ticks, bt_freq(d)) >= CONF->min_ns;
}

static void pop(struct bt_filter *fi, struct fcpu *s, int returned)
{
	struct fframe *f = &s->st[--s->n];

	/* An entry whose exit never came: its duration is unknown, kept. */
	if (!returned)
		bt_fq_settle(fi, f->item, f->cond && f->time_ok ? V_KEEP : V_DROP);
	s->fopen -= f->f;
	s->nopen -= f->n;
}

static void graph_entry(struct bt_decoder *d, struct fcpu *s, struct item *it)
{
	struct wire_record *r = &it->r;
	struct fframe f = { .site = r->site, .item = NO_ITEM };

	f.f = (uint8_t)(CONF->nfunc && is_func(d, r->site, 0));
	f.n = (uint8_t)(CONF->nnotrace && is_func(d, r->site, 1));
	if (f.f && !s->fopen)
		s->fbase = r->depth;
	if (CONF->nfunc)	/* depths count from the outermost F */
		r->depth = r->depth >= s->fbase ? r->depth - s->fbase : 0;
	f.depth = r->depth;
	f.cond = (!CONF->nfunc || s->fopen || f.f) && !s->nopen && !f.n &&
		 (!CONF->have_depth || f.depth < CONF->depth);
	f.time_ok = (uint8_t)time_ok(d, r->ts);
	it->verdict = !f.cond || !f.time_ok ? V_DROP :
		      CONF->have_min && s->n < BT_STACK_MAX ? V_WAIT : V_KEEP;
	bt_fq_put(d, it);
	if (it->verdict == V_WAIT)
		f.item = it->id;
	if (s->n < BT_STACK_MAX) {
		s->st[s->n++] = f;
		s->fopen += f.f;
		s->nopen += f.n;
	} else {
		s->over++;
	}
}

static void graph_exit(struct bt_decoder *d, struct fcpu *s, struct item *it)
{
	struct bt_filter *fi = d->filter;
	const struct wire_record *r = &it->r;
	int dur = long_enough(d, r->duration);
	unsigned k = s->n;

	if (s->over) {
		s->over--;
		it->verdict = by_context(d, s, r->ts) == V_KEEP && dur ? V_KEEP : V_DROP;
		bt_fq_put(d, it);
		return;
	}
	while (k > 0 && s->st[k - 1].site != r->site)
		k--;
	if (k) {
		struct fframe *f = &s->st[k - 1];

		while (s->n > k)	/* calls above it lost their exits */
			pop(fi, s, 0);
		bt_fq_settle(fi, f->item, f->cond && f->time_ok && dur ? V_KEEP : V_DROP);
		it->verdict = f->cond && time_ok(d, r->ts) && dur ? V_KEEP : V_DROP;
		pop(fi, s, 1);
	} else {	/* no entry: by its name and the calls around it */
		it->verdict = (!CONF->nfunc || s->fopen || is_func(d, r->site, 0)) && !s->nopen &&
			      !(CONF->nnotrace && is_func(d, r->site, 1)) && depth_ok(s) &&
			      time_ok(d, r->ts) && dur ? V_KEEP : V_DROP;
	}
	bt_fq_put(d, it);
}

static void func_entry(struct bt_decoder *d, struct fcpu *s, struct item *it)
{
	const struct wire_record *r = &it->r;
	int f = CONF->nfunc && (is_func(d, r->site, 0) || caller_is(d, r, 0));
	int n = CONF->nnotrace && (is_func(d, r->site, 1) || caller_is(d, r, 1));

	it->verdict = (!CONF->nfunc || s->fopen || f) && !s->nopen && !n && depth_ok(s) &&
		      time_ok(d, r->ts) ? V_KEEP : V_DROP;
	bt_fq_put(d, it);
}

/* Arguments, stack traces, triggers: as the entry right before them;
 * arguments with no entry before may belong to the entry after. */
static void extension(struct bt_decoder *d, struct fcpu *s, struct item *it, int was_entry)
{
	struct bt_filter *fi = d->filter;
	struct wire_ext x;
	int args;

	wire_ext_parse(&it->r, &x);	/* the decoder passes only records that parse */
	if (x.subtype == WIRE_EXT_OUTCOME) {	/* where the run ended: in any call */
		it->verdict = time_ok(d, it->r.ts) ? V_KEEP : V_DROP;
		bt_fq_put(d, it);
		return;
	}
	if (x.subtype == WIRE_EXT_STRING && s->have_pend && x.site == s->pend_site) {
		it->verdict = V_WAIT;	/* as its arguments, still waiting for their entry */
		bt_fq_put(d, it);
		bt_fq_follow(fi, s->pend_item, it->id);
		return;
	}
	if (x.subtype == WIRE_EXT_PROBE) {	/* belongs to no call's record */
		it->verdict = by_context(d, s, it->r.ts);
		bt_fq_put(d, it);
		return;
	}
	args = x.subtype == WIRE_EXT_ARGS;
	if (was_entry && (x.subtype == WIRE_EXT_STACK || x.site == s->last_site)) {
		it->verdict = s->last_verdict;
		bt_fq_put(d, it);
		if (it->verdict == V_WAIT)
			bt_fq_follow(fi, s->last_item, it->id);
		s->last_entry = 1;
		return;
	}
	it->verdict = by_context(d, s, it->r.ts);
	if (args) {
		uint8_t ctx = it->verdict;

		it->ctx = (uint8_t)(ctx == V_KEEP && !(CONF->nnotrace && is_func(d, x.site, 1)) &&
				    (!CONF->nfunc || s->fopen || is_func(d, x.site, 0)) ?
				    V_KEEP : V_DROP);
		it->verdict = V_WAIT;
		s->have_pend = 1;
		s->pend_site = x.site;
	}
	bt_fq_put(d, it);
	if (args)
		s->pend_item = it->id;
}

/* A string an argument of site's call points to (it comes with them). */
static int string_of(const struct wire_record *r, uint64_t site)
{
	struct wire_ext x;

	return r->kind == WIRE_REC_EXT && r->subtype == WIRE_EXT_STRING &&
	       wire_ext_parse(r, &x) == 1 && x.site == site;
}

void bt_filter_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	struct bt_filter *fi = d->filter;
	struct fcpu *s;
	struct item it = { .type = IT_REC, .cpu = cpu, .r = *r };
	int entry = r->kind <= WIRE_REC_FUNC_CALLER || r->kind == WIRE_REC_GRAPH_ENTRY;
	int was_entry;

	if (CONF->have_cpu && !CONF->cpu[cpu]) {
		fi->left_out += !d->prev.active;
		return;
	}
	s = cpu_state(fi, cpu);
	was_entry = s->last_entry;
	s->last_entry = 0;
	if (s->have_pend && !(entry && r->site == s->pend_site) && !string_of(r, s->pend_site)) {
		struct item *p = bt_fq_lookup(fi, s->pend_item);

		if (p)
			bt_fq_settle(fi, s->pend_item, p->ctx);
		s->have_pend = 0;
	}
	switch (r->kind) {
	case WIRE_REC_GRAPH_ENTRY:
		graph_entry(d, s, &it);
		break;
	case WIRE_REC_EXIT:
		graph_exit(d, s, &it);
		break;
	case WIRE_REC_FUNC:
	case WIRE_REC_FUNC_CALLER:
		func_entry(d, s, &it);
		break;
	case WIRE_REC_EXT:
		extension(d, s, &it, was_entry);
		break;
	default:
		it.verdict = by_context(d, s, r->ts);
		bt_fq_put(d, &it);
		break;
	}
	if (entry) {
		s->last_entry = 1;
		s->last_site = r->site;
		s->last_item = it.id;
		s->last_verdict = it.verdict;
		if (s->have_pend) {	/* its arguments came just before it */
			if (it.verdict == V_WAIT)
				bt_fq_follow(fi, it.id, s->pend_item);
			else
				bt_fq_settle(fi, s->pend_item, it.verdict);
			s->have_pend = 0;
		}
	}
	bt_fq_drain(d);
}

/* Every waiting verdict decided as if the stream ended here. */
void bt_filter_settle_all(struct bt_decoder *d)
{
	struct bt_filter *fi = d->filter;

	for (unsigned c = 0; c < BT_MAX_CPUS; c++) {
		struct fcpu *s = fi->cpu[c];
		struct item *p;

		if (!s)
			continue;
		if (s->have_pend && (p = bt_fq_lookup(fi, s->pend_item)))
			bt_fq_settle(fi, s->pend_item, p->ctx);
		while (s->n)
			pop(fi, s, 0);
		free(s);
		fi->cpu[c] = NULL;
	}
	for (size_t i = fi->head; i < fi->len; i++)
		if (fi->q[i].verdict == V_WAIT)
			fi->q[i].verdict = V_KEEP;
	bt_fq_drain(d);
}
