/*
 * trace/output/dump_text.c: the words of the console's text dump (dump.c)
 * for records that carry values: a duration in microseconds, a
 * trace_printf message formatted from its recorded arguments, and a
 * tracepoint's fields as name=value. The text is what 'baretrace report'
 * prints for the same record (tools/baretrace/output/render/render.c): the same
 * conversions, every integer taken as 64 bits whatever its length
 * modifier, '?' for a missing argument, a conversion it does not know
 * copied as written.
 *
 * Digits come from the kernel's formatter (kernel/lib/kfmt.c); padding,
 * precision, signs and prefixes are applied here. No allocation, no lock,
 * no patch site (trace/ is built without them): it runs in a crash or
 * panic report too.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "kfmt.h"
#include "kprintf.h"
#include "ktime.h"
#include "wire.h"
#include "wire_fmt.h"
#include "dump_text.h"

extern const struct trace_format __bt_formats_start[], __bt_formats_end[];

/* The line being built: always NUL-terminated, cut at its end. */
struct text {
	char *p;
	size_t left;	/* bytes free, the NUL's included */
};

static void add(struct text *t, const char *s, size_t n)
{
	for (size_t i = 0; i < n && t->left > 1; i++, t->left--)
		*t->p++ = s[i];
	*t->p = '\0';
}

static void add_rep(struct text *t, char c, int n)
{
	for (; n > 0; n--)
		add(t, &c, 1);
}

/* Printable bytes as they are, others as '?': one record stays one line. */
static void add_printable(struct text *t, const uint8_t *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i] >= 0x20 && s[i] < 0x7f ? (char)s[i] : '?';

		add(t, &c, 1);
	}
}

/* One value of a conversion: an integer, or a tracepoint's string. */
struct value {
	bool is_str;
	int64_t i;
	const uint8_t *str;
	size_t len;
};

/* The values a format converts, in order, from a record's tail. */
struct values {
	const uint8_t *p, *end;
	bool fields;		/* a tracepoint field: one value, typed */
	uint8_t type;		/* its enum tp_type */
	unsigned int used;
};

static bool next_value(struct values *w, struct value *v)
{
	uint64_t u = 0;
	int k;

	if (w->fields && w->used)
		return false;	/* a field's format converts its one value */
	k = w->p < w->end ? wire_varint_get(w->p, (size_t)(w->end - w->p), &u) : -1;
	if (k < 0)
		return false;
	w->used++;
	w->p += k;
	*v = (struct value){ .i = wire_unzigzag(u) };
	if (!w->fields || w->type != TP_STR)
		return true;
	if (u > (uint64_t)(w->end - w->p))
		return false;
	*v = (struct value){ .is_str = true, .str = w->p, .len = (size_t)u };
	w->p += u;
	return true;
}

/* An integer conversion (d i u x X o) of v, with C's flags, width and
 * precision. */
static void add_integer(struct text *t, char conv, const char *flags, int width, int prec,
			int64_t v)
{
	bool neg = (conv == 'd' || conv == 'i') && v < 0;
	uint64_t u = neg ? 0 - (uint64_t)v : (uint64_t)v;
	char num[24], sign[3] = "";
	int n = 0;

	if (conv == 'o') {	/* the kernel's formatter has no octal */
		char *e = num + sizeof(num);

		do
			*--e = (char)('0' + (u & 7));
		while ((u >>= 3));
		n = (int)(num + sizeof(num) - e);
		memmove(num, e, (size_t)n);
	} else {
		n = ksnprintf(num, sizeof(num), conv == 'x' ? "%llx" : conv == 'X' ? "%llX" : "%llu",
			      (unsigned long long)u);
	}
	if (prec == 0 && u == 0)
		n = 0;	/* C: precision 0 prints no digit for 0 */
	if (neg)
		strcpy(sign, "-");
	else if ((conv == 'd' || conv == 'i') && strchr(flags, '+'))
		strcpy(sign, "+");
	else if ((conv == 'd' || conv == 'i') && strchr(flags, ' '))
		strcpy(sign, " ");
	else if (strchr(flags, '#') && u && (conv == 'x' || conv == 'X'))
		strcpy(sign, conv == 'x' ? "0x" : "0X");
	else if (strchr(flags, '#') && conv == 'o' && (!n || num[0] != '0') && prec <= n)
		strcpy(sign, "0");

	int zeros = prec > n ? prec - n : 0;
	int body = (int)strlen(sign) + zeros + n;
	bool left = strchr(flags, '-'), zero_pad = strchr(flags, '0') && !left && prec < 0;

	if (!left && !zero_pad)
		add_rep(t, ' ', width - body);
	add(t, sign, strlen(sign));
	if (zero_pad)
		add_rep(t, '0', width - body);
	add_rep(t, '0', zeros);
	add(t, num, (size_t)n);
	if (left)
		add_rep(t, ' ', width - body);
}

/* One conversion at *f, just after its '%'; takes a value from w. */
static void convert(struct text *t, const char **f, struct values *w)
{
	const char *start = *f - 1;
	struct wire_fmt_spec sp;
	struct value v;

	if (!wire_fmt_spec(f, &sp)) {
		add(t, start, (size_t)(*f - start));	/* not a conversion of ours */
		return;
	}
	const char *flags = sp.flags;
	int width = sp.width, prec = sp.prec;
	char conv = sp.conv;

	if (!next_value(w, &v)) {
		add(t, "?", 1);
		return;
	}
	if (conv == 's' || v.is_str) {
		char num[24];
		const char *s = (const char *)v.str;
		size_t n = v.len;
		bool left = strchr(flags, '-');

		if (!v.is_str) {
			n = (size_t)ksnprintf(num, sizeof(num), "%lld", (long long)v.i);
			s = num;
		}
		if (prec >= 0 && n > (size_t)prec)
			n = (size_t)prec;
		if (!left)
			add_rep(t, ' ', width - (int)n);
		add_printable(t, (const uint8_t *)s, n);
		if (left)
			add_rep(t, ' ', width - (int)n);
	} else if (conv == 'p') {
		add(t, "0x", 2);	/* as the host: no flags, no width */
		add_integer(t, 'x', "", 0, -1, v.i);
	} else if (conv == 'c') {
		char c = v.i >= 0x20 && v.i < 0x7f ? (char)v.i : '?';

		add(t, &c, 1);
	} else {
		add_integer(t, conv, flags, width, prec, v.i);
	}
}

static void render(struct text *t, const char *fmt, struct values *w)
{
	while (*fmt) {
		const char *lit = fmt;

		while (*fmt && *fmt != '%')
			fmt++;
		add(t, lit, (size_t)(fmt - lit));
		if (!*fmt)
			break;
		if (*++fmt == '%') {
			add(t, "%", 1);
			fmt++;
			continue;
		}
		convert(t, &fmt, w);
	}
}

void dump_text_printf(char *buf, size_t cap, const struct wire_record *r)
{
	struct text t = { buf, cap };
	struct values w = { r->data, r->data + r->data_len, false, 0, 0 };
	uint64_t nfmt = (uint64_t)(__bt_formats_end - __bt_formats_start);

	buf[0] = '\0';
	if (r->id < nfmt) {
		render(&t, __bt_formats_start[r->id].fmt, &w);
		return;
	}
	/* Not this image's format: its number and the arguments. */
	char num[48];
	struct value v;

	add(&t, num, (size_t)ksnprintf(num, sizeof(num), "format#%llu",
				       (unsigned long long)r->id));
	while (next_value(&w, &v))
		add(&t, num, (size_t)ksnprintf(num, sizeof(num), " %lld", (long long)v.i));
}

static const char *default_format(uint8_t type)
{
	if (type == TP_PTR)
		return "%p";
	if (type == TP_STR)
		return "%s";
	return type >= TP_S8 ? "%lld" : "%llu";
}

void dump_text_event(char *buf, size_t cap, const struct tp_event *ev,
		     const struct wire_record *r)
{
	struct text t = { buf, cap };
	struct values w = { r->data, r->data + r->data_len, true, 0, 0 };

	buf[0] = '\0';
	add(&t, ev->name, strlen(ev->name));
	add(&t, ":", 1);
	for (unsigned int i = 0; i < ev->nfields; i++) {
		const char *f = ev->fields[i].format;
		struct value skip;

		add(&t, " ", 1);
		add(&t, ev->fields[i].name, strlen(ev->fields[i].name));
		add(&t, "=", 1);
		w.type = ev->fields[i].type;
		w.used = 0;
		render(&t, f && *f ? f : default_format(w.type), &w);
		if (!w.used)	/* a format with no conversion: step over the value */
			next_value(&w, &skip);
	}
}

void dump_text_duration(char *buf, size_t cap, uint64_t ticks)
{
	uint64_t hz = time_counter_hz();
	/* In nanoseconds without overflow: whole seconds, then the rest. */
	uint64_t ns = ticks / hz * 1000000000ULL + ticks % hz * 1000000000ULL / hz;

	ksnprintf(buf, cap, "%llu.%03llu us", (unsigned long long)(ns / 1000),
		  (unsigned long long)(ns % 1000));
}
