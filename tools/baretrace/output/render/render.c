/*
 * tools/baretrace/output/render/render.c: text for the two records that
 * carry formats (tracepoint fields, trace_printf); times are
 * decode/units.c's.
 *
 * Format strings come off the wire, so they are never handed to printf
 * as they are: each conversion is parsed, checked against a short list
 * (flags "-+ #0", width and precision up to 64, d i u x X o c p s), and
 * rebuilt before use; anything else is printed literally.
 */
#include <stdarg.h>
#include <string.h>

#include "../../../../wire/wire_fmt.h"
#include "../../decode/decode.h"

#include "render.h"

/* Appends to a fixed buffer, truncating, always NUL-terminated. */
struct sink {
	char *p;
	size_t left;
};

static void put(struct sink *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct sink *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (s->left <= 1)
		return;
	va_start(ap, fmt);
	n = vsnprintf(s->p, s->left, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= s->left)
		n = (int)s->left - 1;
	s->p += n;
	s->left -= (size_t)n;
}

/* Printable bytes as they are; others as '?', so one event stays one line. */
static void put_text(struct sink *s, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put(s, "%c", p[i] >= 0x20 && p[i] < 0x7f ? p[i] : '?');
}

struct value {
	int is_str;
	int64_t i;
	const uint8_t *str;
	size_t len;
};

typedef int (*next_value)(void *ctx, struct value *v);

/* One conversion at *f (just after '%'); consumes a value. */
static void convert(struct sink *s, const char **f, next_value next, void *ctx)
{
	const char *start = *f - 1;
	char spec[32];
	struct wire_fmt_spec sp;
	struct value v = { 0 };

	if (!wire_fmt_spec(f, &sp)) {
		put(s, "%.*s", (int)(*f - start), start);	/* not ours: literal */
		return;
	}
	const char *flags = sp.flags;
	int width = sp.width, prec = sp.prec;
	char conv = sp.conv;

	if (!next(ctx, &v)) {
		put(s, "?");
		return;
	}
	if (conv == 's' || v.is_str) {
		snprintf(spec, sizeof(spec), "%%%s%d.*s", strchr(flags, '-') ? "-" : "", width);
		char tmp[512];
		struct sink t = { tmp, sizeof(tmp) };

		if (v.is_str)
			put_text(&t, v.str, v.len);
		else
			put(&t, "%lld", (long long)v.i);
		put(s, spec, prec < 0 ? (int)sizeof(tmp) : prec, tmp);
		return;
	}
	if (conv == 'p') {
		put(s, "0x%llx", (unsigned long long)v.i);
		return;
	}
	if (conv == 'c') {
		put(s, "%c", v.i >= 0x20 && v.i < 0x7f ? (char)v.i : '?');
		return;
	}
	if (prec >= 0)
		snprintf(spec, sizeof(spec), "%%%s%d.%dll%c", flags, width, prec, conv == 'i' ? 'd' : conv);
	else
		snprintf(spec, sizeof(spec), "%%%s%dll%c", flags, width, conv == 'i' ? 'd' : conv);
	put(s, spec, v.i);
}

static void render(struct sink *s, const char *fmt, next_value next, void *ctx)
{
	while (*fmt) {
		const char *lit = fmt;

		while (*fmt && *fmt != '%')
			fmt++;
		put_text(s, (const uint8_t *)lit, (size_t)(fmt - lit));
		if (!*fmt)
			break;
		fmt++;
		if (*fmt == '%') {
			put(s, "%%");
			fmt++;
			continue;
		}
		convert(s, &fmt, next, ctx);
	}
}

/* Tracepoint fields: one value, then the next field's. */
struct field_walk {
	const uint8_t *p, *end;
	uint8_t type;
	int used;
};

static int field_value(void *ctx, struct value *v)
{
	struct field_walk *w = ctx;
	uint64_t u = 0, n;
	int k;

	if (w->used++)	/* a field format converts its one value */
		return 0;
	k = w->p < w->end ? wire_varint_get(w->p, (size_t)(w->end - w->p), &u) : -1;
	if (k < 0)
		return 0;
	w->p += k;
	if (w->type != WIRE_FIELD_STRING) {
		v->i = wire_unzigzag(u);
		return 1;
	}
	n = u;
	if (n > (uint64_t)(w->end - w->p))
		return 0;
	v->is_str = 1;
	v->str = w->p;
	v->len = (size_t)n;
	w->p += n;
	return 1;
}

static const char *default_format(uint8_t type)
{
	if (type == WIRE_FIELD_PTR)
		return "%p";
	if (type == WIRE_FIELD_STRING)
		return "%s";
	return type >= WIRE_FIELD_S8 ? "%lld" : "%llu";
}

int bt_fmt_event(struct bt_decoder *d, const struct wire_record *r, char *buf, size_t n,
		 const char **name)
{
	const struct bt_schema *sc = bt_meta_schema(&d->meta, r->id);
	struct sink s = { buf, n };
	struct field_walk w = { r->data, r->data + r->data_len, 0, 0 };

	buf[0] = 0;
	if (!sc)
		return -1;
	*name = sc->name;
	for (unsigned i = 0; i < sc->nfields; i++) {
		const char *f = sc->fields[i].format;

		w.type = sc->types[i];
		w.used = 0;
		put(&s, "%s%s=", i ? " " : "", sc->fields[i].name);
		render(&s, f && *f ? f : default_format(w.type), field_value, &w);
		if (!w.used)	/* a format with no conversion: skip the value */
			field_value(&w, &(struct value){ 0 });
	}
	return 0;
}

struct arg_walk {
	const uint8_t *p, *end;
};

static int arg_value(void *ctx, struct value *v)
{
	struct arg_walk *w = ctx;

	return wire_arg_next(&w->p, w->end, &v->i) == 0;
}

void bt_fmt_printf(struct bt_decoder *d, const struct wire_record *r, char *buf, size_t n)
{
	const char *fmt = bt_meta_format(&d->meta, r->id);
	struct arg_walk w = { r->data, r->data + r->data_len };
	struct sink s = { buf, n };
	struct value v;

	buf[0] = 0;
	if (fmt) {
		render(&s, fmt, arg_value, &w);
		return;
	}
	put(&s, "format#%llu", (unsigned long long)r->id);
	while (arg_value(&w, &v))
		put(&s, " %lld", (long long)v.i);
}
