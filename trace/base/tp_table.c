/*
 * trace/base/tp_table.c: the tracepoint table: the events the image
 * defines (lookup by name and by id, in link order), the dispatch every
 * site calls, and a field's value as its type says. Below the patcher in
 * the layers (trace/LAYERS), because the patcher has a tracepoint of its
 * own; attaching probes and patching sites is in tracepoint.c, which
 * says how the probe arrays tp_iterate reads are changed.
 */
#include <string.h>

#include <baretrace_tracepoint.h>

#include "barrier.h"
#include "tp_table.h"

extern const struct tp_event __bt_events_start[], __bt_events_end[];

_Static_assert(__builtin_offsetof(struct tp_event, state) == TP_EVENT_STATE, "tp_table.h");
_Static_assert(__builtin_offsetof(struct tp_state, cur) == TP_STATE_CUR, "tp_table.h");
_Static_assert(sizeof(((struct tp_state *)0)->probes[0]) == 1 << TP_PROBES_SHIFT, "tp_table.h");

unsigned int tp_count(void)
{
	return (unsigned int)(__bt_events_end - __bt_events_start);
}

const struct tp_event *tp_by_id(unsigned int id)
{
	return id < tp_count() ? &__bt_events_start[id] : NULL;
}

const struct tp_event *tp_find(const char *name)
{
	for (const struct tp_event *e = __bt_events_start; e < __bt_events_end; e++)
		if (!strcmp(e->name, name))
			return e;
	return NULL;
}

/* Reached only from a site's BL (directly or through tp_iterate_fp),
 * which masks IRQ and FIQ around it: the grace period counts on that
 * (trace/events/tracepoint.c). */
void tp_iterate(const struct tp_event *ev, const uint64_t *fields)
{
	struct tp_state *s = ev->state;

	tp_call_probes(ev, fields, s->probes[__atomic_load_n(&s->cur, __ATOMIC_ACQUIRE)]);
}

void tp_call_probes(const struct tp_event *ev, const uint64_t *fields, const tp_probe_fn *p)
{
	for (unsigned int i = 0; i < TP_MAX_PROBES && p[i]; i++)
		p[i](ev, fields);
}

/* The field as its type says: truncated, sign-extended if signed. */
uint64_t tp_field_value(const struct tp_field *f, uint64_t v)
{
	switch (f->type) {
	case TP_U8: return (uint8_t)v;
	case TP_U16: return (uint16_t)v;
	case TP_U32: return (uint32_t)v;
	case TP_S8: return (uint64_t)(int64_t)(int8_t)v;
	case TP_S16: return (uint64_t)(int64_t)(int16_t)v;
	case TP_S32: return (uint64_t)(int64_t)(int32_t)v;
	default: return v;
	}
}
