/*
 * kernel/lib/kfmt.c: kvsnprintf, pure and freestanding (also built into the
 * host unit tests). Output is always NUL-terminated when size > 0; the
 * return value is the length the full output would have had.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kfmt.h"

#define KFMT_MAX_WIDTH	1024	/* wider fields are clamped */

struct out {
	char *buf;
	size_t size;
	size_t len;		/* the whole output so far */
	/* Set: buf is a window; when full it goes to emit and refills. */
	void (*emit)(const char *s, size_t n);
	size_t pos;		/* bytes waiting in buf (with emit) */
};

static void put(struct out *o, char c)
{
	if (o->emit) {
		if (o->pos == o->size) {
			o->emit(o->buf, o->pos);
			o->pos = 0;
		}
		o->buf[o->pos++] = c;
	} else if (o->len + 1 < o->size) {
		o->buf[o->len] = c;
	}
	o->len++;
}

/* 'prefix' leading bytes of s (a sign or "0x") go before zero padding
 * and after space padding. */
static void put_padded(struct out *o, const char *s, size_t n, int width,
		       bool left, char pad, size_t prefix)
{
	size_t fill = width > 0 && (size_t)width > n ? (size_t)width - n : 0;

	if (pad == '0')
		for (; prefix; prefix--, n--)
			put(o, *s++);
	if (!left)
		while (fill--)
			put(o, pad);
	while (n--)
		put(o, *s++);
	if (left)
		while (fill--)
			put(o, ' ');
}

static size_t utoa(char *end, unsigned long long v, unsigned int base,
		   bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char *p = end;

	do {
		*--p = digits[v % base];
		v /= base;
	} while (v);
	return (size_t)(end - p);
}

static void format(struct out *o, const char *fmt, va_list ap);

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0, NULL, 0 };

	format(&o, fmt, ap);
	if (size)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int kvformat_chunks(char *buf, size_t size, void (*emit)(const char *s, size_t n),
		    const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0, emit, 0 };

	if (!size)
		return 0;
	format(&o, fmt, ap);
	if (o.pos)
		emit(buf, o.pos);
	return (int)o.len;
}

static void format(struct out *o, const char *fmt, va_list ap)
{
	char num[24];

	for (; *fmt; fmt++) {
		if (*fmt != '%') {
			put(o, *fmt);
			continue;
		}
		bool left = false;
		char pad = ' ';
		int width = 0, lng = 0;

		for (fmt++; *fmt == '-' || *fmt == '0'; fmt++) {
			if (*fmt == '-')
				left = true;
			else
				pad = '0';
		}
		if (*fmt == '*') {	/* width from the arguments */
			width = va_arg(ap, int);
			if (width < 0) {
				left = true;
				width = width == INT_MIN ? KFMT_MAX_WIDTH : -width;
			}
			fmt++;
		}
		for (; *fmt >= '0' && *fmt <= '9'; fmt++)
			if (width < KFMT_MAX_WIDTH)	/* clamp, never overflow */
				width = width * 10 + (*fmt - '0');
		if (width > KFMT_MAX_WIDTH)
			width = KFMT_MAX_WIDTH;
		for (; *fmt == 'l' || *fmt == 'z'; fmt++)
			lng++;
		if (left)
			pad = ' ';

		char *end = num + sizeof(num);
		size_t n;
		unsigned long long u;

		switch (*fmt) {
		case 'd':
		case 'i': {
			long long v = lng ? va_arg(ap, long long) : va_arg(ap, int);

			u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
			n = utoa(end, u, 10, false);
			if (v < 0)
				num[sizeof(num) - ++n] = '-';
			put_padded(o, end - n, n, width, left, pad, v < 0);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
			u = lng ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned int);
			n = utoa(end, u, *fmt == 'u' ? 10 : 16, *fmt == 'X');
			put_padded(o, end - n, n, width, left, pad, 0);
			break;
		case 'p':
			u = (uintptr_t)va_arg(ap, void *);
			n = utoa(end, u, 16, false);
			num[sizeof(num) - ++n] = 'x';
			num[sizeof(num) - ++n] = '0';
			put_padded(o, end - n, n, width, left, pad, 2);
			break;
		case 's': {
			const char *s = va_arg(ap, const char *);

			if (!s)
				s = "(null)";
			for (n = 0; s[n]; n++)
				;
			put_padded(o, s, n, width, left, ' ', 0);
			break;
		}
		case 'c':
			num[0] = (char)va_arg(ap, int);
			put_padded(o, num, 1, width, left, ' ', 0);
			break;
		case '%':
			put(o, '%');
			break;
		case '\0':
			fmt--;	/* a lone '%' at the end: stop */
			break;
		default:	/* unknown conversion: print it as written */
			put(o, '%');
			put(o, *fmt);
			break;
		}
	}
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
