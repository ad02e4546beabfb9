/*
 * wire/wire_fmt.h: reading one conversion of a trace_printf format
 * (docs/wire.md 2.2 key 8), for the two places that render a kind-5
 * record as text: the target's dump (trace/output/dump_text.c) and the
 * host tool (tools/baretrace/output/render/render.c). Each formats the value
 * its own way; what a conversion says is read here once.
 */
#ifndef TRACE_WIRE_FMT_H
#define TRACE_WIRE_FMT_H

struct wire_fmt_spec {
	char flags[8];		/* of "-+ #0", at most five, NUL-ended */
	int width;		/* 0 when none; at most 64 */
	int prec;		/* -1 when none; at most 64 */
	char conv;		/* one of "diuxXocps", or 0: not a conversion of ours */
};

/*
 * *f points just after a '%'. Reads flags, width, precision and length
 * modifiers (which change nothing: every value is 64-bit). Returns 1 and
 * leaves *f after the conversion character when it is one of ours;
 * returns 0 with s->conv = 0 and *f on the character it stopped at (the
 * caller copies the text from the '%' to there as it is).
 */
int wire_fmt_spec(const char **f, struct wire_fmt_spec *s);

#endif /* TRACE_WIRE_FMT_H */
