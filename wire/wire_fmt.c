/* wire/wire_fmt.c: one trace_printf conversion, read (wire_fmt.h). */
#include <string.h>

#include "wire_fmt.h"

/* A width or precision, capped: a format cannot ask for a huge field. */
static int digits(const char **f)
{
	int v = 0;

	for (; **f >= '0' && **f <= '9'; (*f)++)
		if (v < 1000)
			v = v * 10 + (**f - '0');
	return v > 64 ? 64 : v;
}

int wire_fmt_spec(const char **f, struct wire_fmt_spec *s)
{
	int nflags = 0;

	while (**f && strchr("-+ #0", **f) && nflags < 5)
		s->flags[nflags++] = *(*f)++;
	s->flags[nflags] = '\0';
	s->width = digits(f);
	s->prec = -1;
	if (**f == '.') {
		(*f)++;
		s->prec = digits(f);
	}
	while (**f && strchr("hlLqjzt", **f))
		(*f)++;
	s->conv = **f;
	if (!s->conv || !strchr("diuxXocps", s->conv)) {
		s->conv = 0;
		return 0;
	}
	(*f)++;
	return 1;
}
