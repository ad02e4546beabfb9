/*
 * tools/baretrace/output/probe_names.c: the names a probe's fetches go
 * by in the report and every export (chrome-json args, CTF fields,
 * trace-cmd fields): words, distinct within the probe and from the
 * fields an export puts beside them, the same in each output.
 *
 * A target since issue 39 sends such names already (trace/core/
 * probe_spec.c: +8(x0) is x0_p8, two x0 are x0 and x0_2); an older one
 * sent an unnamed fetch's text ("+8(x0)", "-8(x0)", "x0" twice), which
 * is turned into a word by the same rule here and made unique.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../bt.h"

/* Names the exports use beside the fetches (CTF's mask, trace-cmd's
 * common fields and probed address). */
static const char *const reserved[] = {
	"faulted", "unreadable", "__probe_ip", "common_type", "common_flags",
	"common_preempt_count", "common_pid",
};

static void add(char *out, size_t n, const char *s, size_t len)
{
	size_t k = strlen(out);

	while (len-- && *s && k + 1 < n)
		out[k++] = *s++;
	out[k] = '\0';
}

/* Location text [s, e) as a word into out: [+|-]D(LOC) is LOC's word,
 * then _pD or _mD; @SYM[+OFF] SYM ('.' as '_') then _pOFF; $retval
 * retval; anything else as it is. */
static void word_of(const char *s, const char *e, char *out, size_t n)
{
	const char *open = memchr(s, '(', (size_t)(e - s));
	char num[32];

	if (open && e > open + 1 && e[-1] == ')' &&
	    (*s == '+' || *s == '-' || isdigit((unsigned char)*s) || s == open)) {
		const char *d = *s == '+' || *s == '-' ? s + 1 : s;
		char digits[24] = "0";

		word_of(open + 1, e - 1, out, n);
		if (open > d && (size_t)(open - d) < sizeof(digits))
			snprintf(digits, sizeof(digits), "%.*s", (int)(open - d), d);
		snprintf(num, sizeof(num), "_%c%llu", *s == '-' ? 'm' : 'p',
			 strtoull(digits, NULL, 0));
		add(out, n, num, strlen(num));
	} else if (*s == '@' && e > s + 1) {
		const char *plus = memchr(s, '+', (size_t)(e - s));
		unsigned long long off = plus ? strtoull(plus + 1, NULL, 0) : 0;

		add(out, n, s + 1, (size_t)((plus ? plus : e) - s - 1));
		if (off) {
			snprintf(num, sizeof(num), "_p%llu", off);
			add(out, n, num, strlen(num));
		}
	} else if (e - s == 7 && !memcmp(s, "$retval", 7)) {
		add(out, n, "retval", 6);
	} else {
		add(out, n, s, (size_t)(e - s));
	}
}

static int taken(char (*names)[BT_PROBE_FIELD_MAX], unsigned upto, const char *name)
{
	for (size_t r = 0; r < sizeof(reserved) / sizeof(reserved[0]); r++)
		if (!strcmp(reserved[r], name))
			return 1;
	for (unsigned j = 0; j < upto; j++)
		if (!strcmp(names[j], name))
			return 1;
	return 0;
}

void bt_probe_field_names(const struct bt_probe *p, char (*names)[BT_PROBE_FIELD_MAX])
{
	for (unsigned i = 0; i < p->nfetch && i < BT_PROBE_FETCH_MAX; i++) {
		char *w = names[i];
		const char *f = p->fetch[i] ? p->fetch[i] : "";
		char base[BT_PROBE_FIELD_MAX];

		w[0] = '\0';
		word_of(f, f + strlen(f), w, BT_PROBE_FIELD_MAX - 4);
		for (char *c = w; *c; c++)
			*c = isalnum((unsigned char)*c) ? *c : '_';
		if (!w[0] || isdigit((unsigned char)w[0])) {
			memmove(w + 2, w, strlen(w) + 1);
			memcpy(w, "f_", 2);
		}
		snprintf(base, sizeof(base), "%s", w);
		for (unsigned k = 2; taken(names, i, w); k++)
			snprintf(w, BT_PROBE_FIELD_MAX, "%.60s_%u", base, k % 100000);
	}
}
