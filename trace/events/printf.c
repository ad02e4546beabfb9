/*
 * trace/events/printf.c: trace_printf records and their formats in metadata.
 * A format's id is its index in section .bt_formats (fixed at link time).
 */
#include <string.h>

#include <baretrace_trace.h>

#include "ring/ring.h"
#include "wire.h"

extern const struct trace_format __bt_formats_start[], __bt_formats_end[];

void trace_printf_args(const struct trace_format *f, unsigned int n, const int64_t *args)
{
	uint64_t id = (uint64_t)(f - __bt_formats_start);
	unsigned int len;
	uint8_t *p;

	if (n > 15)
		n = 15;
	len = wire_varint_len(id) + 1;
	for (unsigned int i = 0; i < n; i++)
		len += wire_varint_len(wire_zigzag(args[i]));
	p = ring_reserve(WIRE_REC_PRINTF, len);
	if (!p)
		return;
	p += wire_varint_put(p, id);
	*p++ = (uint8_t)n;
	for (unsigned int i = 0; i < n; i++)
		p += wire_varint_put(p, wire_zigzag(args[i]));
	ring_commit();
}

/* Metadata items (key 8) for every format, appended to o. */
unsigned int trace_format_count(void)
{
	return (unsigned int)(__bt_formats_end - __bt_formats_start);
}

/* Format strings from number 'from' on, each whole, while they fit. */
unsigned int trace_printf_meta(struct wire_out *o, unsigned int from)
{
	unsigned int n = trace_format_count();

	for (; from < n; from++) {
		const struct trace_format *f = &__bt_formats_start[from];
		size_t before = o->len;

		wire_out_varint(o, WIRE_META_FORMAT);
		wire_out_varint(o, from);
		wire_out_str(o, f->fmt, strlen(f->fmt));
		if (o->overflow) {
			o->len = before;
			o->overflow = 0;
			break;
		}
	}
	return from;
}
