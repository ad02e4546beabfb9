/*
 * tools/baretrace/output/render/render_ext.c: text for extension records
 * (docs/wire.md 2.6), shared by report and the exporters: argument lists,
 * trigger actions, and report's lines for records that stand alone.
 * Arguments are register values, so they print here as 64-bit hex, as the
 * target held them (typed.c shows them by name and type where DWARF says);
 * stack frames are return addresses, named by the function that holds the
 * call before them. A probe's fetches go by the same names in the report
 * and every export (bt_probe_field_names): words, distinct within the probe
 * and from the fields an export puts beside them. A target since issue 39
 * sends such names (trace/core/probe_spec.c: +8(x0) is x0_p8, two x0 are x0
 * and x0_2); an older one sent an unnamed fetch's text ("+8(x0)", "-8(x0)",
 * "x0" twice), which is turned into a word by the same rule here and made
 * unique.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../decode/decode.h"
#include "../../decode/symtab.h"
#include "../../decode/units.h"

#include "render.h"

static const char *const actions[] = {
	[WIRE_TRIG_TRACEON] = "traceon", [WIRE_TRIG_TRACEOFF] = "traceoff",
	[WIRE_TRIG_SNAPSHOT] = "snapshot", [WIRE_TRIG_STACKTRACE] = "stacktrace",
	[WIRE_TRIG_DUMP] = "dump",
};

const char *bt_trigger_action(uint8_t action, char *buf, size_t n)
{
	if (action < sizeof(actions) / sizeof(actions[0]) && actions[action])
		return actions[action];
	snprintf(buf, n, "action#%u", action);
	return buf;
}

void bt_fmt_arg_values(const int64_t *v, unsigned n, const char *sep, char *buf, size_t cap)
{
	size_t len = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < n && len < cap; i++) {
		int k = snprintf(buf + len, cap - len, "%s0x%llx", i ? sep : "",
				 (unsigned long long)v[i]);

		if (k < 0)
			break;
		len += (size_t)k;
	}
}

void bt_fmt_probe_value(uint8_t type, int64_t v, int unreadable, char *buf, size_t n)
{
	if (unreadable)
		snprintf(buf, n, v ? "(unreadable)" : "(fault)");
	else if (type == BT_PROBE_X32 || type == BT_PROBE_X64)
		snprintf(buf, n, "0x%llx", (unsigned long long)v);
	else if (type >= WIRE_FIELD_S8 && type <= WIRE_FIELD_S64)
		snprintf(buf, n, "%lld", (long long)v);
	else
		snprintf(buf, n, "%llu", (unsigned long long)v);
}

void bt_fmt_probe(const struct bt_decoder *d, const struct wire_ext *x, char *buf, size_t cap)
{
	const struct bt_probe *p = bt_meta_probe(&d->meta, x->probe);
	struct wire_ext walk = *x;
	char val[32], num[24], names[BT_PROBE_FETCH_MAX][BT_PROBE_FIELD_MAX];
	size_t len;
	uint64_t u;

	if (p)
		bt_probe_field_names(p, names);
	if (p)
		snprintf(buf, cap, "probe %s%s:", p->name, p->ret ? " (return)" : "");
	else
		snprintf(buf, cap, "probe #%llu:", (unsigned long long)x->probe);
	len = strlen(buf);
	for (unsigned i = 0; i < x->count && len < cap && !wire_ext_value(&walk, &u); i++) {
		const char *name = p && i < p->nfetch ? names[i] : NULL;
		uint8_t type = p && i < p->nfetch ? p->type[i] : BT_PROBE_X64;
		int k;

		if (!name) {
			snprintf(num, sizeof(num), "arg%u", i + 1);
			name = num;
		}
		bt_fmt_probe_value(type, wire_unzigzag(u), i < 8 && (x->faulted >> i & 1),
				   val, sizeof(val));
		k = snprintf(buf + len, cap - len, " %s=%s", name, val);
		if (k < 0)
			break;
		len += (size_t)k;
	}
}

void bt_print_ext(struct bt_decoder *d, unsigned cpu, const char *ts, struct wire_ext *x)
{
	int64_t args[BT_ARGS_SHOWN];
	char nb[32], ab[16], text[BT_ARGS_SHOWN * 20];
	uint64_t v;

	switch (x->subtype) {
	case WIRE_EXT_ARGS:
		bt_fmt_arg_values(args, bt_ext_args(x, args, BT_ARGS_SHOWN), " ", text,
				  sizeof(text));
		printf("[%03u] %s: args of %s: %s\n", cpu, ts,
		       bt_func_name(d, x->site, nb, sizeof(nb)), text);
		break;
	case WIRE_EXT_TRIGGER:
		printf("[%03u] %s: trigger %s on %s\n", cpu, ts,
		       bt_trigger_action(x->action, ab, sizeof(ab)),
		       bt_func_name(d, x->site, nb, sizeof(nb)));
		break;
	case WIRE_EXT_PROBE:
		bt_fmt_probe(d, x, text, sizeof(text));
		printf("[%03u] %s: %s\n", cpu, ts, text);
		break;
	case WIRE_EXT_STACK:
		printf("[%03u] %s: <stack trace>\n", cpu, ts);
		for (unsigned i = 0; i < x->count && !wire_ext_value(x, &v); i++)
			printf(" => %s\n", bt_caller_name(&d->syms, v, nb, sizeof(nb)));
		break;
	}
}

/* Names the exports use beside the fetches (CTF's mask, trace-cmd's
 * common fields and probed address). */
static const char *const reserved[] = {
	"faulted", "unreadable", "__unreadable", "__probe_ip", "common_type", "common_flags",
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
