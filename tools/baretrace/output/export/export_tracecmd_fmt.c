/*
 * tools/baretrace/output/export/export_tracecmd_fmt.c: the pieces both
 * the trace-cmd header (export_tracecmd_head.c) and the typed events
 * (export_tracecmd_typed.c) are written with: text into a growing
 * buffer, one event's format file (tracefs' events/SYS/EV/format
 * layout: the four common fields, its own, "print fmt:"), and where a
 * tracepoint's fields sit in its event (export_tracecmd.c writes them
 * there).
 */
#include <stdarg.h>
#include <stdio.h>

#include "../../../../wire/wire.h"
#include "../../base/util.h"
#include "../../decode/decode.h"

#include "bt_tracecmd.h"

void bt_tc_printf(struct bt_tc_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	b->p = bt_grow(b->p, &b->cap, b->len + (size_t)n + 1, 1);
	va_start(ap, fmt);
	vsnprintf((char *)b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void bt_tc_format_text(struct bt_tc_buf *t, const char *name, unsigned id,
		       const struct bt_tc_field *f, unsigned n, const char *print)
{
	static const struct bt_tc_field common[] = {
		{ "unsigned short common_type", 0, 2, 0 },
		{ "unsigned char common_flags", 2, 1, 0 },
		{ "unsigned char common_preempt_count", 3, 1, 0 },
		{ "int common_pid", 4, 4, 1 },
	};

	t->len = 0;
	bt_tc_printf(t, "name: %s\nID: %u\nformat:\n", name, id);
	for (unsigned i = 0; i < 4 + n; i++) {
		const struct bt_tc_field *x = i < 4 ? &common[i] : &f[i - 4];

		bt_tc_printf(t, "%s\tfield:%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			     i == 4 ? "\n" : "", x->decl, x->offset, x->size, x->is_signed);
	}
	bt_tc_printf(t, "\nprint fmt: %s\n", print);
}

unsigned bt_tc_layout(const struct bt_schema *sc, unsigned *off, unsigned *fixed)
{
	unsigned at = 8;

	for (unsigned pass = 0; pass < 2; pass++)	/* integers, then strings */
		for (unsigned i = 0; i < sc->nfields; i++)
			if ((sc->fields[i].type == WIRE_FIELD_STRING) == pass) {
				off[i] = at;
				at += pass ? 4 : 8;
			}
	if (fixed)
		*fixed = at;
	return at;
}
