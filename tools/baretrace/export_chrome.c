/*
 * tools/baretrace/export_chrome.c: Chrome trace-event JSON, which the
 * Perfetto UI and chrome://tracing load. One process, one thread per
 * CPU (tid = CPU number). A graph exit carries its duration, so each
 * call becomes one complete ("X") event from ts - duration, with or
 * without its entry (threshold mode); calls still open at the end
 * become "B" events with no end. Function entries, tracepoints,
 * messages, losses, stack traces and fired triggers are instants.
 * Arguments go in the args of their call's event. Times are
 * microseconds with nanosecond decimals.
 *
 * Viewers nest complete events by time, and when a caller and its
 * callee start on the same tick, by file order: the caller must come
 * first. Exits arrive callee first, so each CPU's calls are held and
 * written sorted by start, longest first, then caller first; past
 * HOLD_MAX held calls the earliest half goes out. Spans come from
 * callstack.c, widened so a caller always contains its callees.
 */
#include <stdlib.h>
#include <string.h>

#include "bt.h"

#define HOLD_MAX	65536	/* calls held per CPU before the earliest are written */

struct call {
	uint64_t start, end, site, arrival;
	int has_retval;
	int64_t retval;
	unsigned nargs;
	int64_t args[BT_ARGS_MAX];
};

struct held_calls {
	struct call *v;
	size_t n, cap;
};

struct chrome {
	FILE *f;
	uint8_t named[BT_MAX_CPUS];
	uint64_t last_ts[BT_MAX_CPUS];	/* end of each CPU's last block */
	struct bt_stacks stacks;
	struct held_calls calls[BT_MAX_CPUS];
	uint64_t arrivals;
	int held;			/* a function entry waits for its args */
	unsigned held_cpu;
	struct wire_record held_rec;
	unsigned held_nargs;
	int64_t held_args[BT_ARGS_MAX];
};

/* Starts an event object: separator, name, phase, pid/tid, ts. */
static void begin(struct bt_decoder *d, struct chrome *c, unsigned cpu, const char *name,
		  const char *cat, const char *ph, uint64_t ts)
{
	FILE *f = c->f;

	if (!c->named[cpu]) {
		c->named[cpu] = 1;
		fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,"
			"\"args\":{\"name\":\"CPU %u\"}}", cpu, cpu);
		fprintf(f, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":1,\"tid\":%u,"
			"\"args\":{\"sort_index\":%u}}", cpu, cpu);
	}
	fputs(",\n{\"name\":", f);
	bt_json_str(f, name);
	fprintf(f, ",\"cat\":\"%s\",\"ph\":\"%s\",\"pid\":1,\"tid\":%u,\"ts\":", cat, ph, cpu);
	bt_json_ns(f, bt_ticks_ns(ts, bt_freq(d)));
	if (ph[0] == 'i')
		fputs(",\"s\":\"t\"", f);
}

static void write_call(struct bt_decoder *d, struct chrome *c, unsigned cpu, const struct call *k)
{
	char nb[32];
	uint64_t freq = bt_freq(d);

	begin(d, c, cpu, bt_func_name(d, k->site, nb, sizeof(nb)), "function", "X", k->start);
	fputs(",\"dur\":", c->f);
	bt_json_ns(c->f, bt_ticks_ns(k->end, freq) - bt_ticks_ns(k->start, freq));
	if (k->has_retval || k->nargs) {
		fputs(",\"args\":{", c->f);
		if (k->has_retval)
			fprintf(c->f, "\"retval\":%lld%s", (long long)k->retval, k->nargs ? "," : "");
		if (k->nargs)
			bt_json_args(c->f, k->args, k->nargs);
		fputs("}", c->f);
	}
	fputs("}", c->f);
}

static int call_order(const void *a, const void *b)
{
	const struct call *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	if (x->end != y->end)			/* the longer one holds the other */
		return x->end > y->end ? -1 : 1;
	return x->arrival > y->arrival ? -1 : 1;	/* a caller returns last */
}

/* Writes the earliest 'keep'-less calls of a CPU, in order. */
static void write_calls(struct bt_decoder *d, struct chrome *c, unsigned cpu, size_t keep)
{
	struct held_calls *h = &c->calls[cpu];
	size_t out = h->n - keep;

	if (h->n)
		qsort(h->v, h->n, sizeof(*h->v), call_order);
	for (size_t i = 0; i < out; i++)
		write_call(d, c, cpu, &h->v[i]);
	memmove(h->v, h->v + out, keep * sizeof(*h->v));
	h->n = keep;
}

static void flush_held(struct bt_decoder *d, struct chrome *c)
{
	const struct wire_record *r = &c->held_rec;
	char nb[32], cb[32];

	if (!c->held)
		return;
	c->held = 0;
	begin(d, c, c->held_cpu, bt_func_name(d, r->site, nb, sizeof(nb)), "function", "i", r->ts);
	fputs(",\"args\":{\"caller\":", c->f);
	bt_json_str(c->f, r->has_caller ? bt_caller_name(&d->syms, r->caller, cb, sizeof(cb)) : "?");
	if (c->held_nargs) {
		fputs(",", c->f);
		bt_json_args(c->f, c->held_args, c->held_nargs);
	}
	fputs("}}", c->f);
}

static void on_exit_rec(struct bt_decoder *d, struct chrome *c, unsigned cpu,
			const struct wire_record *r)
{
	struct held_calls *h = &c->calls[cpu];
	struct bt_exit x;
	struct call *k;

	bt_stack_exit(&c->stacks, cpu, r, &x);
	if (h->n >= HOLD_MAX)
		write_calls(d, c, cpu, h->n / 2);
	h->v = bt_grow(h->v, &h->cap, h->n + 1, sizeof(*h->v));
	k = &h->v[h->n++];
	*k = (struct call){ x.start, x.end, r->site, c->arrivals++,
			    !!(r->flags & WIRE_EXIT_HAS_RETVAL), r->retval, 0, { 0 } };
	if (x.matched) {
		k->nargs = x.frame->nargs;
		memcpy(k->args, x.frame->args, sizeof(k->args));
	}
}

static void on_ext(struct bt_decoder *d, struct chrome *c, unsigned cpu,
		   const struct wire_record *r)
{
	struct wire_ext x;
	char nb[32], ab[16], label[96];
	int64_t args[BT_ARGS_MAX];
	uint64_t v;

	wire_ext_parse(r, &x);	/* the decoder passes only records that parse */
	if (x.subtype == WIRE_EXT_ARGS) {
		if (c->held && c->held_cpu == cpu && c->held_rec.site == x.site && !c->held_nargs) {
			c->held_nargs = bt_ext_args(&x, c->held_args, BT_ARGS_MAX);
			return;
		}
		flush_held(d, c);
		if (bt_stack_args(bt_stack_of(&c->stacks, cpu), &x))
			return;		/* goes out with the call's X event */
		snprintf(label, sizeof(label), "args of %s", bt_func_name(d, x.site, nb, sizeof(nb)));
		begin(d, c, cpu, label, "args", "i", r->ts);
		fputs(",\"args\":{", c->f);
		bt_json_args(c->f, args, bt_ext_args(&x, args, BT_ARGS_MAX));
		fputs("}}", c->f);
		return;
	}
	flush_held(d, c);
	if (x.subtype == WIRE_EXT_TRIGGER) {
		const char *act = bt_trigger_action(x.action, ab, sizeof(ab));
		const char *fn = bt_func_name(d, x.site, nb, sizeof(nb));

		snprintf(label, sizeof(label), "trigger %s on %s", act, fn);
		begin(d, c, cpu, label, "trigger", "i", r->ts);
		fputs(",\"args\":{\"action\":", c->f);
		bt_json_str(c->f, act);
		fputs(",\"func\":", c->f);
		bt_json_str(c->f, fn);
		fputs("}}", c->f);
		return;
	}
	begin(d, c, cpu, "<stack trace>", "stacktrace", "i", r->ts);
	fputs(",\"args\":{\"frames\":[", c->f);
	for (unsigned i = 0; i < x.count && !wire_ext_value(&x, &v); i++) {
		fputs(i ? "," : "", c->f);
		bt_json_str(c->f, bt_caller_name(&d->syms, v, nb, sizeof(nb)));
	}
	fputs("]}}", c->f);
}

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	struct chrome *c = d->user;
	char text[1024], label[64];
	const char *ev;

	if (r->kind == WIRE_REC_EXT) {
		on_ext(d, c, cpu, r);
		return;
	}
	flush_held(d, c);
	switch (r->kind) {
	case WIRE_REC_FUNC:
	case WIRE_REC_FUNC_CALLER:
		c->held = 1;
		c->held_cpu = cpu;
		c->held_rec = *r;
		c->held_nargs = 0;
		break;
	case WIRE_REC_GRAPH_ENTRY:
		bt_stack_enter(bt_stack_of(&c->stacks, cpu), r->site, r->depth, r->ts);
		break;
	case WIRE_REC_EXIT:
		on_exit_rec(d, c, cpu, r);
		break;
	case WIRE_REC_EVENT:
		if (bt_fmt_event(d, r, text, sizeof(text), &ev))
			ev = "?";
		begin(d, c, cpu, ev, "tracepoint", "i", r->ts);
		fputs(",\"args\":{\"fields\":", c->f);
		bt_json_str(c->f, text);
		fputs("}}", c->f);
		break;
	case WIRE_REC_PRINTF:
		bt_fmt_printf(d, r, text, sizeof(text));
		begin(d, c, cpu, text, "printf", "i", r->ts);
		fputs("}", c->f);
		break;
	case WIRE_REC_LOST:
		snprintf(label, sizeof(label), "lost %llu events", (unsigned long long)r->count);
		begin(d, c, cpu, label, "lost", "i", r->ts);
		fprintf(c->f, ",\"args\":{\"count\":%llu}}", (unsigned long long)r->count);
		break;
	}
}

static void on_block_end(struct bt_decoder *d, const struct wire_frame *f)
{
	((struct chrome *)d->user)->last_ts[f->cpu] = d->it.ts;
}

static void on_lost_frames(struct bt_decoder *d, unsigned cpu, uint64_t frames)
{
	struct chrome *c = d->user;
	char label[64];

	flush_held(d, c);
	snprintf(label, sizeof(label), "lost %llu frames", (unsigned long long)frames);
	begin(d, c, cpu, label, "lost", "i", c->last_ts[cpu]);
	fprintf(c->f, ",\"args\":{\"frames\":%llu}}", (unsigned long long)frames);
}

static const struct bt_visitor chrome_visitor = {
	.record = on_record,
	.lost_frames = on_lost_frames,
	.block_end = on_block_end,
};

int bt_export_chrome(const char *trace, const char *elf, const char *out)
{
	static struct bt_decoder d;
	static struct chrome c;
	char nb[32];
	int rc;

	bt_dec_init(&d, &chrome_visitor, &c);
	if (elf)
		bt_dec_use_elf(&d, elf);
	c.f = fopen(out, "w");
	if (!c.f)
		bt_die(BT_EXIT_INPUT, "cannot create %s", out);
	fputs("{\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":1,"
	      "\"args\":{\"name\":\"baretrace\"}}", c.f);
	rc = bt_decode_file(&d, trace);
	flush_held(&d, &c);
	for (unsigned cpu = 0; cpu < BT_MAX_CPUS; cpu++) {
		struct bt_stack *s = c.stacks.cpu[cpu];

		/* Calls still open at the end: begun, never ended; before the
		 * calls inside them, in case one starts on the same tick. */
		for (unsigned i = 0; s && i < s->n; i++) {
			begin(&d, &c, cpu, bt_func_name(&d, s->f[i].site, nb, sizeof(nb)),
			      "function", "B", s->f[i].ts);
			fputs("}", c.f);
		}
		write_calls(&d, &c, cpu, 0);
		free(c.calls[cpu].v);
	}
	fputs("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"baretrace\"}}\n", c.f);
	if (fclose(c.f))
		bt_die(BT_EXIT_INPUT, "error writing %s", out);
	bt_stacks_free(&c.stacks);
	bt_dec_free(&d);
	return rc;
}
