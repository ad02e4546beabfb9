/*
 * trace/events/tp_record.c: the standard tracepoint recorder (a probe writing
 * kind-4 records), its field filter, enabling by glob, and the event
 * schemas (metadata key 7) that let the host decode any event.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "bootargs.h"
#include "core/core.h"
#include "base/glob.h"
#include "kprintf.h"
#include "ring/ring.h"
#include "tracepoint.h"
#include "tracers/tracer.h"

extern const struct tp_event __bt_events_start[];

static unsigned int str_len(const struct tp_field *f, uint64_t v)
{
	const char *p = (const char *)(uintptr_t)v;

	return p ? (unsigned int)strnlen(p, f->size) : 0;
}

/*
 * The filter is read here without a lock: tp_set_filter writes it only
 * while the recorder is detached from the event (and a round has passed).
 */
void tp_record(const struct tp_event *ev, const uint64_t *fields)
{
	const struct tp_state *s = ev->state;
	uint64_t id = (uint64_t)(ev - __bt_events_start);
	unsigned int len = wire_varint_len(id);
	uint8_t *p;

	if (s->has_filter) {
		const struct tp_field *f = &ev->fields[s->filter_field];
		bool eq = tp_field_value(f, fields[s->filter_field]) == s->filter_value;

		if (eq == (bool)s->filter_ne) {
			ev->state->filtered_out++;
			return;
		}
	}
	for (unsigned int i = 0; i < ev->nfields; i++) {
		const struct tp_field *f = &ev->fields[i];

		if (f->type == TP_STR) {
			unsigned int n = str_len(f, fields[i]);

			len += wire_varint_len(n) + n;
		} else {
			len += wire_varint_len(wire_zigzag((int64_t)tp_field_value(f, fields[i])));
		}
	}
	p = ring_reserve(WIRE_REC_EVENT, len);
	if (!p)
		return;
	p += wire_varint_put(p, id);
	for (unsigned int i = 0; i < ev->nfields; i++) {
		const struct tp_field *f = &ev->fields[i];

		if (f->type == TP_STR) {
			unsigned int n = str_len(f, fields[i]);

			p += wire_varint_put(p, n);
			memcpy(p, (const void *)(uintptr_t)fields[i], n);
			p += n;
		} else {
			p += wire_varint_put(p, wire_zigzag((int64_t)tp_field_value(f, fields[i])));
		}
	}
	ring_commit();
}

/* Event schemas from id 'from' on, each whole, while they fit. */
unsigned int tp_meta(struct wire_out *o, unsigned int from)
{
	unsigned int id;

	for (id = from; id < tp_count(); id++) {
		const struct tp_event *ev = tp_by_id(id);
		size_t before = o->len;

		wire_out_varint(o, WIRE_META_EVENT_SCHEMA);
		wire_out_varint(o, id);
		wire_out_str(o, ev->name, strlen(ev->name));
		wire_out_u8(o, (uint8_t)ev->nfields);
		for (unsigned int i = 0; i < ev->nfields; i++) {
			const struct tp_field *f = &ev->fields[i];

			wire_out_str(o, f->name, strlen(f->name));
			wire_out_u8(o, f->type);
			wire_out_str(o, f->format, strlen(f->format));
		}
		if (o->overflow) {
			o->len = before;
			o->overflow = 0;
			break;
		}
	}
	return id;
}

static int set_recording(const struct tp_event *ev, bool on)
{
	struct tp_state *s = ev->state;

	if (s->recording == on)
		return 0;
	int err = on ? tp_probe_attach_flags(ev, tp_record, TP_PROBE_NO_FPSIMD)
		      : tp_probe_detach(ev, tp_record);

	if (!err)
		s->recording = on;
	return err;
}

/* "irq:*,timer:tick" or space-separated: the recorder on or off for
 * every matching event. TRACE_EINVAL if a glob is bad or matches none. */
int tp_enable(const char *globs, int on)
{
	const char *p = globs;
	int err = on ? ring_make_ready() : 0;	/* rings and exporter */

	if (err)
		return err;

	while (*p) {
		size_t n = strcspn(p, ", ");
		unsigned int matched = 0;

		if (n && !glob_valid(p, n))
			return TRACE_EINVAL;
		for (unsigned int id = 0; n && id < tp_count(); id++) {
			const struct tp_event *ev = tp_by_id(id);

			if (glob_match(p, n, ev->name)) {
				matched++;
				if (!err)
					err = set_recording(ev, on);
			}
		}
		if (n && !matched && !err)
			err = TRACE_EINVAL;
		p += n;
		p += strspn(p, ", ");
	}
	return err;
}

/* A number that fits the field's type: no sign for unsigned types, the
 * type's range for all (999...9 for a u32 is refused, not cut to
 * 4294967295; -5 is refused, not taken as 4294967291). *end is NULL
 * when refused. */
static uint64_t parse_value(const struct tp_field *f, const char *s, char **end)
{
	bool is_signed = f->type >= TP_S8 && f->type <= TP_S64;
	const char *digits = s + (*s == '-' || *s == '+');
	uint64_t v;

	if (*digits < '0' || *digits > '9' || (*s == '-' && !is_signed)) {
		*end = NULL;
		return 0;
	}
	errno = 0;
	v = is_signed ? (uint64_t)strtoll(s, end, 0) : (uint64_t)strtoull(s, end, 0);
	/* tp_field_value narrows to the type: unchanged only if it fits */
	if (errno == ERANGE || **end || tp_field_value(f, v) != v)
		*end = NULL;
	return v;
}

/* "field==value", "field!=value", or "" for none. */
int tp_set_filter(const char *event, const char *expr)
{
	const struct tp_event *ev = tp_find(event);
	struct tp_state *s = ev ? ev->state : NULL;
	const char *op = strstr(expr, "==");
	const char *ne = strstr(expr, "!=");
	unsigned int field = 0;
	uint64_t value = 0;

	if (!ev)
		return TRACE_EINVAL;
	if (*expr) {
		op = op ? op : ne;
		if (!op)
			return TRACE_EINVAL;
		while (field < ev->nfields && (strlen(ev->fields[field].name) != (size_t)(op - expr) ||
		       strncmp(ev->fields[field].name, expr, (size_t)(op - expr))))
			field++;
		char *end;

		if (field == ev->nfields || ev->fields[field].type == TP_STR)
			return TRACE_EINVAL;
		value = parse_value(&ev->fields[field], op + 2, &end);
		if (!end)
			return TRACE_EINVAL;	/* not a number of the field's type */
	}
	/* The recorder comes off while the filter changes, so no CPU reads
	 * half a filter; it is put back with the new one. */
	bool was = s->recording;
	int err = set_recording(ev, false);

	if (err)
		return err;
	s->has_filter = *expr != 0;
	s->filter_field = (unsigned char)field;
	s->filter_ne = op == ne && ne;
	s->filter_value = value;
	s->filtered_out = 0;
	return set_recording(ev, was);
}

static const char *p_events;

static int param_event(const char *v)
{
	p_events = v;
	return 0;
}
KERNEL_PARAM("trace_event", param_event, "record these tracepoints (globs, e.g. irq:*,timer:tick)");

int tp_boot_start(void)
{
	if (p_events && tp_enable(p_events, 1)) {
		kprintf("trace: trace_event '%s' refused; not applied\n", p_events);
		return -1;
	}
	return 0;
}
