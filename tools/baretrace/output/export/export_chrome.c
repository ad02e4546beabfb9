/*
 * tools/baretrace/output/export/export_chrome.c: Chrome trace-event JSON,
 * which the Perfetto UI and chrome://tracing load. One process, one thread
 * per CPU named "CPU n", tid = n + 1: some readers take tid 0 for "no
 * thread" (Perfetto once merged it with the process). Every event has a
 * "cat": graph, function, tracepoint,SYSTEM (chrome_fields.c), printf,
 * args, stacktrace, trigger, lost, counter. A graph exit carries its
 * duration, so each call becomes one complete ("X") event from ts -
 * duration, with or without its entry (threshold mode); calls still open at
 * the end become "B" events with no end. Function entries, tracepoints,
 * messages, losses, stack traces and fired triggers are instants. Arguments
 * go in the args of their call's event, whether recorded just after its
 * entry (docs/wire.md 2.6) or just before it. Times are microseconds with
 * nanosecond decimals.
 *
 * Spans come from callstack.c, widened so a caller always contains its
 * callees; chrome_calls.c holds them to write in the order viewers need.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../decode/symtab.h"
#include "../../decode/units.h"
#include "../../model/model.h"
#include "../render/render.h"

#include "export.h"

struct chrome {
	FILE *f;
	uint8_t named[BT_MAX_CPUS];
	struct bt_stacks stacks;
	struct bt_calls calls[BT_MAX_CPUS];
	struct bt_decoder *d;
	int held;			/* a function entry waits for its args */
	unsigned held_cpu;
	struct wire_record held_rec;
	unsigned held_nargs;
	int64_t held_args[BT_ARGS_MAX];
	struct bt_strs *held_strs;	/* its arguments' strings, or NULL */
	int counters;			/* --counters: integer fields as counter tracks */
	int pend;			/* an arguments record waits for its entry */
	unsigned pend_cpu, pend_n;
	uint64_t pend_site, pend_ts;
	int64_t pend_args[BT_ARGS_MAX];
	struct bt_strs *pend_strs;
};

/* Starts an event object: separator, name, phase, pid/tid, ts. */
static void begin(struct bt_decoder *d, struct chrome *c, unsigned cpu, const char *name,
		  const char *cat, const char *ph, uint64_t ts)
{
	FILE *f = c->f;

	if (!c->named[cpu]) {
		c->named[cpu] = 1;
		fprintf(f, ",\n{\"name\":\"thread_name\",\"cat\":\"__metadata\",\"ph\":\"M\","
			"\"pid\":1,\"tid\":%u,\"args\":{\"name\":\"CPU %u\"}}", cpu + 1, cpu);
		fprintf(f, ",\n{\"name\":\"thread_sort_index\",\"cat\":\"__metadata\",\"ph\":\"M\","
			"\"pid\":1,\"tid\":%u,\"args\":{\"sort_index\":%u}}", cpu + 1, cpu);
	}
	fputs(",\n{\"name\":", f);
	bt_json_str(f, name);
	fputs(",\"cat\":", f);
	bt_json_str(f, cat);	/* a tracepoint's system comes from the wire */
	fprintf(f, ",\"ph\":\"%s\",\"pid\":1,\"tid\":%u,\"ts\":", ph, cpu + 1);
	bt_json_ns(f, bt_ticks_ns(ts, bt_freq(d)));
	if (ph[0] == 'i')
		fputs(",\"s\":\"t\"", f);
}

/*
 * Arguments as typed members (typed.c) where DWARF says, a char * whose
 * string came as the string, else "args":[hex...]; frees the strings.
 */
static void args_members(struct chrome *c, uint64_t site, const int64_t *v, unsigned n,
			 struct bt_strs **strs, int lead)
{
	struct bt_argstr view[8];
	int typed;

	bt_strs_view(*strs, view);
	typed = bt_typed_json_args(c->f, c->d, site, v, n, view, lead);
	free(*strs);
	*strs = NULL;
	if (typed >= 0)
		return;
	if (lead)
		fputc(',', c->f);
	bt_json_args(c->f, v, n);
}

static void write_call(void *ctx, const struct bt_call *call)
{
	struct chrome *c = ctx;
	struct bt_call copy = *call, *k = &copy;	/* its strings are freed here */
	struct bt_decoder *d = c->d;
	char nb[32];
	uint64_t freq = bt_freq(d);

	begin(d, c, (unsigned)k->cpu, bt_func_name(d, k->site, nb, sizeof(nb)), "graph", "X",
	      k->start);
	fputs(",\"dur\":", c->f);
	bt_json_ns(c->f, bt_ticks_ns(k->end, freq) - bt_ticks_ns(k->start, freq));
	uint64_t no = bt_chrome_numbers ? bt_chrome_number((unsigned)k->cpu, k->site, k->start) : 0;

	if (k->has_retval || k->nargs || no) {
		int lead = 0;

		fputs(",\"args\":{", c->f);
		if (no)
			lead = fprintf(c->f, "\"event\":%llu", (unsigned long long)no) > 0;
		int typed = k->has_retval ? bt_typed_json_retval(c->f, d, k->site, k->retval, lead) : 0;

		if (typed < 0)
			typed = fprintf(c->f, "%s\"retval\":%lld", lead ? "," : "", (long long)k->retval);
		lead |= typed > 0;
		if (k->nargs)
			args_members(c, k->site, k->args, k->nargs, &k->strs, lead);
		fputs("}", c->f);
	}
	free(k->strs);
	fputs("}", c->f);
}

/* Arguments that came with no entry after them: an instant of their own. */
static void flush_pending(struct bt_decoder *d, struct chrome *c)
{
	char nb[32], label[64];

	if (!c->pend)
		return;
	c->pend = 0;
	snprintf(label, sizeof(label), "args of %s", bt_func_name(d, c->pend_site, nb, sizeof(nb)));
	begin(d, c, c->pend_cpu, label, "args", "i", c->pend_ts);
	fputs(",\"args\":{", c->f);
	args_members(c, c->pend_site, c->pend_args, c->pend_n, &c->pend_strs, 0);
	fputs("}}", c->f);
}

static void flush_held(struct bt_decoder *d, struct chrome *c)
{
	const struct wire_record *r = &c->held_rec;
	char nb[32], cb[32];
	uint64_t no;

	flush_pending(d, c);
	if (!c->held)
		return;
	c->held = 0;
	begin(d, c, c->held_cpu, bt_func_name(d, r->site, nb, sizeof(nb)), "function", "i", r->ts);
	fputs(",\"args\":{\"caller\":", c->f);
	bt_json_str(c->f, r->has_caller ? bt_caller_name(&d->syms, r->caller, cb, sizeof(cb)) : "?");
	if (bt_chrome_numbers && (no = bt_chrome_number(c->held_cpu, r->site, r->ts)))
		fprintf(c->f, ",\"event\":%llu", (unsigned long long)no);
	if (c->held_nargs)
		args_members(c, r->site, c->held_args, c->held_nargs, &c->held_strs, 1);
	fputs("}}", c->f);
}

static void on_exit_rec(struct chrome *c, unsigned cpu, const struct wire_record *r)
{
	struct bt_exit x;
	struct bt_call *k;

	bt_stack_exit(&c->stacks, cpu, r, &x);
	k = bt_calls_add(&c->calls[cpu], write_call, c);
	k->cpu = cpu;
	k->start = x.start;
	k->end = x.end;
	k->site = r->site;
	k->has_retval = !!(r->flags & WIRE_EXIT_HAS_RETVAL);
	k->retval = r->retval;
	if (x.matched) {
		k->nargs = x.frame->nargs;
		memcpy(k->args, x.frame->args, sizeof(k->args));
		k->strs = x.frame->strs;	/* the call owns them now: the frame
						 * was popped, its slot is reused */
	}
}

static void on_ext(struct bt_decoder *d, struct chrome *c, unsigned cpu,
		   const struct wire_record *r)
{
	struct wire_ext x;
	char nb[32], ab[16], label[96];
	uint64_t v;

	wire_ext_parse(r, &x);	/* the decoder passes only records that parse */
	if (x.subtype == WIRE_EXT_STRING) {	/* joins the arguments it came after */
		struct bt_stack *s = bt_stack_of(&c->stacks, cpu);
		struct bt_frame *top = s->n && !s->overflow ? &s->f[s->n - 1] : NULL;

		if (c->held && c->held_cpu == cpu && c->held_rec.site == x.site && c->held_nargs)
			bt_strs_add(&c->held_strs, &x);
		else if (c->pend && c->pend_cpu == cpu && c->pend_site == x.site)
			bt_strs_add(&c->pend_strs, &x);
		else if (top && top->site == x.site && top->nargs)
			bt_strs_add(&top->strs, &x);
		return;		/* no arguments to join (they were lost): left out */
	}
	if (x.subtype == WIRE_EXT_ARGS) {
		if (c->held && c->held_cpu == cpu && c->held_rec.site == x.site && !c->held_nargs) {
			c->held_nargs = bt_ext_args(&x, c->held_args, BT_ARGS_MAX);
			return;
		}
		flush_held(d, c);
		if (bt_stack_args(bt_stack_of(&c->stacks, cpu), &x))
			return;		/* goes out with the call's X event */
		c->pend = 1;		/* its entry may come next */
		c->pend_cpu = cpu;
		c->pend_site = x.site;
		c->pend_ts = r->ts;
		c->pend_n = bt_ext_args(&x, c->pend_args, BT_ARGS_MAX);
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
	if (x.subtype == WIRE_EXT_PROBE) {	/* an instant event, its fields as args */
		const struct bt_probe *p = bt_meta_probe(&d->meta, x.probe);
		char val[32], names[BT_PROBE_FETCH_MAX][BT_PROBE_FIELD_MAX];

		if (p)
			bt_probe_field_names(p, names);
		if (p)
			snprintf(label, sizeof(label), "probe %s", p->name);
		else
			snprintf(label, sizeof(label), "probe #%llu", (unsigned long long)x.probe);
		begin(d, c, cpu, label, "probe", "i", r->ts);
		fputs(",\"args\":{", c->f);
		for (unsigned i = 0; i < x.count && !wire_ext_value(&x, &v); i++) {
			uint8_t type = p && i < p->nfetch ? p->type[i] : BT_PROBE_X64;

			snprintf(ab, sizeof(ab), "arg%u", i + 1);
			fputs(i ? "," : "", c->f);
			bt_json_str(c->f, p && i < p->nfetch ? names[i] : ab);
			bt_fmt_probe_value(type, wire_unzigzag(v), i < 8 && (x.faulted >> i & 1),
					   val, sizeof(val));
			fputc(':', c->f);
			bt_json_str(c->f, val);
		}
		fputs("}}", c->f);
		return;
	}
	if (x.subtype == WIRE_EXT_OUTCOME) {	/* where the run ended: across all tracks */
		const char *word = bt_outcome_word(x.outcome, ab, sizeof(ab));

		bt_outcome_mark(x.outcome, x.status, label, sizeof(label));
		begin(d, c, cpu, label, "outcome", "i", r->ts);
		fputs(",\"s\":\"g\",\"args\":{\"outcome\":", c->f);
		bt_json_str(c->f, word);
		fprintf(c->f, ",\"status\":%lld}}", (long long)x.status);
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
	char text[1024], cat[64];
	const char *ev;

	int take = c->pend && c->pend_cpu == cpu && c->pend_site == r->site &&
		   (r->kind <= WIRE_REC_FUNC_CALLER || r->kind == WIRE_REC_GRAPH_ENTRY);
	struct bt_stack *s = bt_stack_of(&c->stacks, cpu);

	if (r->kind == WIRE_REC_EXT) {
		on_ext(d, c, cpu, r);
		return;
	}
	c->pend &= !take;	/* arguments just before their entry */
	flush_held(d, c);
	switch (r->kind) {
	case WIRE_REC_FUNC:
	case WIRE_REC_FUNC_CALLER:
		c->held = 1;
		c->held_cpu = cpu;
		c->held_rec = *r;
		c->held_nargs = take ? c->pend_n : 0;
		memcpy(c->held_args, c->pend_args, sizeof(c->held_args));
		c->held_strs = take ? c->pend_strs : NULL;
		c->pend_strs = take ? NULL : c->pend_strs;
		break;
	case WIRE_REC_GRAPH_ENTRY:
		bt_stack_enter(s, r->site, r->depth, r->ts);
		if (take && s->n && !s->overflow) {
			s->f[s->n - 1].nargs = c->pend_n;
			memcpy(s->f[s->n - 1].args, c->pend_args, sizeof(c->pend_args));
			s->f[s->n - 1].strs = c->pend_strs;
			c->pend_strs = NULL;
		}
		break;
	case WIRE_REC_EXIT:
		on_exit_rec(c, cpu, r);
		break;
	case WIRE_REC_EVENT:
		if (bt_fmt_event(d, r, text, sizeof(text), &ev))
			ev = "?";
		bt_chrome_category(ev, cat, sizeof(cat));
		begin(d, c, cpu, ev, cat, "i", r->ts);
		bt_chrome_fields(c->f, d, r);
		fputs("}", c->f);
		if (c->counters)
			bt_chrome_counters(c->f, d, r, cpu + 1);
		break;
	case WIRE_REC_PRINTF:
		bt_fmt_printf(d, r, text, sizeof(text));
		begin(d, c, cpu, text, "printf", "i", r->ts);
		fputs("}", c->f);
		break;
	}
}

/* A hole: an instant where the events are missing, counted in events. */
static void on_hole(struct bt_decoder *d, unsigned cpu, uint64_t events, const char *cause)
{
	struct chrome *c = d->user;
	char label[64];

	flush_held(d, c);
	snprintf(label, sizeof(label), "lost %llu events", (unsigned long long)events);
	begin(d, c, cpu, label, "lost", "i", d->books[cpu].ts);
	fprintf(c->f, ",\"args\":{\"count\":%llu,\"cause\":", (unsigned long long)events);
	bt_json_str(c->f, cause);
	fputs("}}", c->f);
}

static const struct bt_visitor chrome_visitor = {
	.record = on_record,
	.hole = on_hole,
};

int bt_export_chrome(const char *trace, const char *elf, const char *out, int counters)
{
	static struct bt_decoder d;
	static struct chrome c;
	char nb[32];
	int rc;

	if (bt_chrome_numbers)
		bt_chrome_numbers_load(trace, elf);
	bt_dec_init(&d, &chrome_visitor, &c);
	bt_decode_strings = 1;	/* a char * shows its string */
	c.d = &d;
	c.counters = counters;
	if (elf)
		bt_dec_use_elf(&d, elf);
	c.f = bt_out_open(out, "w");
	if (!c.f)
		bt_die(BT_EXIT_INPUT, "cannot create %s", out);
	fputs("{\"traceEvents\":[\n{\"name\":\"process_name\",\"cat\":\"__metadata\",\"ph\":\"M\",\"pid\":1,"
	      "\"args\":{\"name\":\"baretrace\"}}", c.f);
	rc = bt_decode_file(&d, trace);
	flush_held(&d, &c);
	for (unsigned cpu = 0; cpu < BT_MAX_CPUS; cpu++) {
		struct bt_stack *s = c.stacks.cpu[cpu];

		/* Calls still open at the end: begun, never ended; before the
		 * calls inside them, in case one starts on the same tick. */
		for (unsigned i = 0; s && i < s->n; i++) {
			begin(&d, &c, cpu, bt_func_name(&d, s->f[i].site, nb, sizeof(nb)),
			      "graph", "B", s->f[i].ts);
			fputs("}", c.f);
		}
		bt_calls_write(&c.calls[cpu], 0, write_call, &c);
		bt_calls_free(&c.calls[cpu]);
	}
	fputs("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"baretrace\"}}\n", c.f);
	if (bt_out_close(c.f))
		bt_die(BT_EXIT_INPUT, "error writing %s", out);
	bt_stacks_free(&c.stacks);
	bt_dec_free(&d);
	return rc;
}
