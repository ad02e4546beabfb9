/*
 * tools/baretrace/export_chrome.c: Chrome trace-event JSON, which the
 * Perfetto UI and chrome://tracing load. One process, one thread per
 * CPU (tid = CPU number). A graph exit carries its duration, so each
 * call becomes one complete ("X") event written at its exit, and calls
 * nest by time; calls still open at the end become "B" events with no
 * end. Function entries, tracepoints, messages and losses are instants.
 * Times are microseconds with nanosecond decimals.
 */
#include <string.h>

#include "bt.h"

struct chrome {
	FILE *f;
	int first;
	uint8_t named[BT_MAX_CPUS];
	uint64_t last_ts[BT_MAX_CPUS];	/* end of each CPU's last block */
	struct bt_stacks stacks;
};

/* A JSON string: quotes, backslashes and control bytes escaped, bytes
 * over 0x7f written as \u00XX (Latin-1) so any input stays valid JSON. */
static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void json_us(FILE *f, struct bt_decoder *d, uint64_t ticks)
{
	uint64_t ns = bt_ticks_ns(ticks, bt_freq(d));

	fprintf(f, "%llu.%03llu", (unsigned long long)(ns / 1000), (unsigned long long)(ns % 1000));
}

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
	json_str(f, name);
	fprintf(f, ",\"cat\":\"%s\",\"ph\":\"%s\",\"pid\":1,\"tid\":%u,\"ts\":", cat, ph, cpu);
	json_us(f, d, ts);
	if (ph[0] == 'i')
		fputs(",\"s\":\"t\"", f);
}

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	struct chrome *c = d->user;
	char nb[32], cb[32], text[1024], label[64];
	const char *ev;
	struct bt_frame fr;
	unsigned level;

	switch (r->kind) {
	case WIRE_REC_FUNC:
	case WIRE_REC_FUNC_CALLER:
		begin(d, c, cpu, bt_func_name(d, r->site, nb, sizeof(nb)), "function", "i", r->ts);
		fputs(",\"args\":{\"caller\":", c->f);
		json_str(c->f, r->has_caller ? bt_caller_name(&d->syms, r->caller, cb, sizeof(cb)) : "?");
		fputs("}}", c->f);
		break;
	case WIRE_REC_GRAPH_ENTRY:
		bt_stack_enter(bt_stack_of(&c->stacks, cpu), r->site, r->depth, r->ts);
		break;
	case WIRE_REC_EXIT:
		bt_stack_exit(bt_stack_of(&c->stacks, cpu), r->site, r->duration, &fr, &level);
		begin(d, c, cpu, bt_func_name(d, r->site, nb, sizeof(nb)), "function", "X",
		      r->duration <= r->ts ? r->ts - r->duration : 0);
		fputs(",\"dur\":", c->f);
		json_us(c->f, d, r->duration);
		if (r->flags & WIRE_EXIT_HAS_RETVAL)
			fprintf(c->f, ",\"args\":{\"retval\":%lld}", (long long)r->retval);
		fputs("}", c->f);
		break;
	case WIRE_REC_EVENT:
		if (bt_fmt_event(d, r, text, sizeof(text), &ev))
			ev = "?";
		begin(d, c, cpu, ev, "tracepoint", "i", r->ts);
		fputs(",\"args\":{\"fields\":", c->f);
		json_str(c->f, text);
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
	/* Calls still open at the end: begun, never ended. */
	for (unsigned cpu = 0; cpu < BT_MAX_CPUS; cpu++) {
		struct bt_stack *s = c.stacks.cpu[cpu];

		for (unsigned i = 0; s && i < s->n; i++) {
			begin(&d, &c, cpu, bt_func_name(&d, s->f[i].site, nb, sizeof(nb)),
			      "function", "B", s->f[i].ts);
			fputs("}", c.f);
		}
	}
	fputs("\n],\"displayTimeUnit\":\"ns\",\"otherData\":{\"producer\":\"baretrace\"}}\n", c.f);
	if (fclose(c.f))
		bt_die(BT_EXIT_INPUT, "error writing %s", out);
	bt_stacks_free(&c.stacks);
	bt_dec_free(&d);
	return rc;
}
