/*
 * tools/baretrace/output/render_ext.c: text for extension records (docs/wire.md
 * 2.6), shared by report and the exporters: argument lists, trigger
 * actions, and report's lines for records that stand alone. Arguments
 * are register values, so they print here as 64-bit hex, as the target
 * held them (typed.c shows them by name and type where DWARF says); stack frames are return addresses, named by the function that
 * holds the call before them.
 */
#include <string.h>

#include "../bt.h"

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

unsigned bt_ext_args(const struct wire_ext *x, int64_t *v, unsigned max)
{
	struct wire_ext walk = *x;
	unsigned n = 0;
	uint64_t u;

	while (n < x->count && n < max && !wire_ext_value(&walk, &u))
		v[n++] = wire_unzigzag(u);
	return n;
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
