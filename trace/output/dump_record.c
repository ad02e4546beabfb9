/*
 * trace/output/dump_record.c: one record of a ring as one line of the
 * console's text dump, for every kind the wire has (docs/wire.md 2.1),
 * in the words 'baretrace report' gives it:
 *
 *   [CPU] SECONDS.MICROS: TEXT
 *
 * A stack trace (an extension record) is the one record with more: its
 * frames follow, one ' => ' line each. A loss record (kind 6) is no
 * event (wire.md 2.8): it is a note, "CPU:n [LOST N EVENTS]", printed
 * only where it stands true (dump.c says when) and never counted. Every
 * other record read is printed and counted, so "# trace dump: N
 * records" is the number of lines that open with [CPU].
 *
 * And where the lines go: the console, or a caller's sink (dump.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "kfmt.h"
#include "kprintf.h"
#include "ktime.h"
#include "mmu.h"
#include "symbols.h"
#include "wire.h"
#include "dump.h"
#include "dump_int.h"
#include "dump_text.h"

/* Everything below is used with dump_lock held (dump.c): one line, one
 * record's text and one sink at a time. */
static const struct dump_sink *sink;
static char line[384];
static char text[256];
/* Graph calls open in the CPU's records so far: an exit's '}' goes
 * where its entry's name went (an exit with no entry dumped: depth 0). */
static uint64_t open_calls;

void dump_set_sink(const struct dump_sink *s)
{
	sink = s;
}

/* A record is one line however its text came: a control character
 * (a trace_printf format's '\n', say) is shown as '?', trailing line
 * ends are dropped. */
void dump_line(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	n = n < 0 ? 0 : n < (int)sizeof(line) ? n : (int)sizeof(line) - 1;
	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	for (int i = 0; i < n; i++)
		if ((unsigned char)line[i] < 0x20 && line[i] != '\t')
			line[i] = '?';
	if (sink)
		sink->line(sink->ctx, line);
	else
		kprintf("%s\n", line);
}

const char *dump_site_name(uint64_t site)
{
	const char *n = site < trace_site_count() ? trace_site_name((unsigned int)site) : NULL;

	return n ? n : "?";
}

/* The decoder needs each tracepoint's field types to step over its
 * record (the image's own schemas, as the metadata gives the host). */
static uint8_t tp_types[TP_MAX_FIELDS];

static int dump_event_types(void *ctx, uint64_t id, const uint8_t **types)
{
	const struct tp_event *ev = id < 0x10000 ? tp_by_id((unsigned int)id) : NULL;

	(void)ctx;
	if (!ev)
		return -1;
	for (unsigned int i = 0; i < ev->nfields; i++)
		tp_types[i] = ev->fields[i].type;
	*types = tp_types;
	return (int)ev->nfields;
}

static void print_ts(unsigned int cpu, uint64_t ts, char *buf, size_t n)
{
	uint64_t hz = time_counter_hz();
	uint64_t us = ts % hz * 1000000 / hz;

	ksnprintf(buf, n, "[%03u] %lu.%06lu:", cpu, (unsigned long)(ts / hz),
		  (unsigned long)us);
}

void dump_record_start(void)
{
	open_calls = 0;
}

/* Every record decoded, printed or skipped: the calls open after it. */
static void track(const struct wire_record *r)
{
	if (r->kind == WIRE_REC_GRAPH_ENTRY)
		open_calls = r->depth + 1;
	else if (r->kind == WIRE_REC_EXIT && open_calls)
		open_calls--;
}

/* Each case prints exactly one line, which opens with ts but for a loss
 * record's (CPU:n): test/target/test_dump_kinds.c checks it for every
 * kind the header's three bits can hold. */
void dump_record(unsigned int cpu, const struct wire_record *r)
{
	char ts[40];
	const char *s;

	print_ts(cpu, r->ts, ts, sizeof(ts));
	track(r);	/* an exit's depth: its entry's, the calls still open */
	switch (r->kind) {
	case WIRE_REC_FUNC:
	case WIRE_REC_FUNC_CALLER:
		s = r->has_caller ? sym_lookup((uintptr_t)_text + r->caller * 4 - 4, NULL, NULL)
				  : NULL;
		dump_line("%s %s <-%s", ts, dump_site_name(r->site), s ? s : "?");
		break;
	case WIRE_REC_GRAPH_ENTRY:
		dump_line("%s %*s%s() {", ts, (int)r->depth * 2, "", dump_site_name(r->site));
		break;
	case WIRE_REC_EXIT:
		dump_text_duration(text, sizeof(text), r->duration);
		if (r->flags & WIRE_EXIT_HAS_RETVAL)
			dump_line("%s %*s} %s %s = %ld", ts, (int)open_calls * 2, "",
				  dump_site_name(r->site), text, (long)r->retval);
		else
			dump_line("%s %*s} %s %s", ts, (int)open_calls * 2, "",
				  dump_site_name(r->site), text);
		break;
	case WIRE_REC_LOST:	/* no event, not counted: a note, as report's holes */
		dump_line("CPU:%u [LOST %lu EVENTS]", cpu, (unsigned long)r->count);
		break;
	case WIRE_REC_EVENT: {
		const struct tp_event *ev = r->id < 0x10000 ? tp_by_id((unsigned int)r->id) : NULL;

		if (ev)
			dump_text_event(text, sizeof(text), ev, r);
		else	/* not reached: the decoder stops at an unknown event */
			ksnprintf(text, sizeof(text), "event#%lu", (unsigned long)r->id);
		dump_line("%s %s", ts, text);
		break;
	}
	case WIRE_REC_PRINTF:
		dump_text_printf(text, sizeof(text), r);
		dump_line("%s %s", ts, text);
		break;
	case WIRE_REC_EXT:
		dump_ext(ts, r);
		break;
	default:	/* none: the header has three bits of kind, all named */
		dump_line("%s record of kind %u", ts, r->kind);
		break;
	}
}

/* dump_lock held: one block decoded at a time. */
static struct wire_rec_iter it;

unsigned long dump_block(const uint8_t *body, size_t len, unsigned int cpu, unsigned long skip,
			 bool lost_here)
{
	struct wire_record r;
	unsigned long n = 0;
	int rc;

	if (wire_rec_begin(&it, body, len, dump_event_types, NULL))
		return 0;
	while ((rc = wire_rec_next(&it, &r)) == WIRE_REC_OK) {
		/* A loss record is no event (wire.md 2.8), so never one of
		 * the records counted: a note where it is true, among the
		 * records printed. */
		if (r.kind == WIRE_REC_LOST && (!lost_here || n < skip))
			continue;
		if (r.kind != WIRE_REC_LOST && n++ < skip) {
			track(&r);
			continue;
		}
		dump_yield_to_crash();
		dump_record(cpu, &r);
	}
	/* The rest of the block is neither shown nor counted: say so. */
	if (rc != WIRE_REC_DONE && n >= skip)
		dump_line("CPU:%u [the rest of a block is not shown: %s]", cpu,
			  rc == WIRE_REC_EEVENT ? "a tracepoint this image has no schema for"
						: "a malformed record");
	return n;
}
