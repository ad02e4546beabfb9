/*
 * tools/baretrace/model/filter_opts.c: the values of the host-side filter
 * flags (--cpu, -F, -N, --depth, --time-range, --min-duration), checked
 * before anything is read or written. A bad value is the command line's
 * fault: the message says what was expected and the status is 2.
 * What is set lands in filter_conf.c's bt_filter_conf, and the first
 * flag puts the filter stage (filter_stage.c) in front of every decoder.
 */
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "../decode/decode.h"

#include "model.h"

static void __attribute__((noreturn)) bad(const char *flag, const char *val, const char *want)
{
	bt_die(BT_EXIT_USAGE, "bad %s '%s': %s", flag, val, want);
}

/* One more flag and its value in the summary's "(--cpu 0 -F main)". */
static void describe(const char *flag, const char *val)
{
	struct bt_filter_conf *c = &bt_filter_conf;
	size_t len = strlen(c->desc);

	snprintf(c->desc + len, sizeof(c->desc) - len, "%s%s %s", len ? " " : "", flag, val);
	c->active = 1;
	bt_dec_stage = &bt_filter_stage;	/* every decoder from now on */
}

/* "0,2-3": CPUs by number and range, each below BT_MAX_CPUS. */
static void parse_cpus(const char *val)
{
	const char *p = val;

	if (!*val)
		bad("--cpu", val, "a list of CPU numbers and ranges, e.g. 0,2-3");
	while (*p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b;

		if (end == p || *p == '-' || *p == '+')
			bad("--cpu", val, "a list of CPU numbers and ranges, e.g. 0,2-3");
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p || *p == '-' || *p == '+')
				bad("--cpu", val, "a range is FIRST-LAST, e.g. 2-3");
		}
		if (a >= BT_MAX_CPUS || b >= BT_MAX_CPUS)
			bad("--cpu", val, "CPU numbers go from 0 to 255");
		if (b < a)
			bad("--cpu", val, "a range goes up, e.g. 2-3");
		for (unsigned long c = a; c <= b; c++)
			bt_filter_conf.cpu[c] = 1;
		if (*end == ',' && end[1])
			end++;
		else if (*end)
			bad("--cpu", val, "a list of CPU numbers and ranges, e.g. 0,2-3");
		p = end;
	}
	bt_filter_conf.have_cpu = 1;
}

/*
 * "2.39", "1.5ms", "40us", "100ns": a time in ns. A bare number is in
 * 'bare_unit' ("s"), or refused if that is NULL. Returns 0, or -1.
 */
static int parse_time(const char *s, size_t len, const char *bare_unit, uint64_t *ns)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "ns", 1 },
	};
	char buf[64], *end;
	double v;

	if (!len || len >= sizeof(buf) || s[0] == '-' || s[0] == '+' || s[0] == ' ')
		return -1;
	memcpy(buf, s, len);
	buf[len] = 0;
	v = strtod(buf, &end);
	if (end == buf || !(v >= 0) || v > 1e10)
		return -1;
	if (!*end && bare_unit)
		end = (char *)bare_unit;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(end, units[i].unit)) {
			*ns = (uint64_t)(v * units[i].ns + 0.5);
			return 0;
		}
	return -1;
}

static void parse_range(const char *val)
{
	struct bt_filter_conf *c = &bt_filter_conf;
	const char *dash = strchr(val, '-');
	const char *want = "FROM-TO in seconds as report prints them, or with a unit "
			   "(s, ms, us, ns), either end open: 2.39-2.40, 1.5ms-3ms, 2.4-";

	if (!dash || (dash == val && !dash[1]))
		bad("--time-range", val, want);
	c->have_from = dash > val;
	c->have_to = dash[1] != 0;
	if ((c->have_from && parse_time(val, (size_t)(dash - val), "s", &c->from_ns)) ||
	    (c->have_to && parse_time(dash + 1, strlen(dash + 1), "s", &c->to_ns)))
		bad("--time-range", val, want);
	if (c->have_from && c->have_to && c->from_ns > c->to_ns)
		bad("--time-range", val, "its start is after its end");
}

static void add_glob(const char *flag, const char *val, const char **globs, unsigned *n)
{
	if (!*val)
		bad(flag, val, "a function name or glob pattern, e.g. 'sensor_*'");
	if (*n >= BT_FILTER_GLOBS)
		bad(flag, val, "at most 16 patterns per flag");
	globs[(*n)++] = val;
}

int bt_filter_parse(const char *flag, const char *val)
{
	struct bt_filter_conf *c = &bt_filter_conf;
	char *end;

	if (!strcmp(flag, "--cpu")) {
		parse_cpus(val);
	} else if (!strcmp(flag, "-F") || !strcmp(flag, "--function")) {
		add_glob(flag, val, c->func, &c->nfunc);
	} else if (!strcmp(flag, "-N") || !strcmp(flag, "--notrace")) {
		add_glob(flag, val, c->notrace, &c->nnotrace);
	} else if (!strcmp(flag, "--depth")) {
		unsigned long long n = strtoull(val, &end, 10);

		if (!*val || *end || val[0] == '-' || val[0] == '+' || n == 0 || n > 100000)
			bad(flag, val, "a number of call levels kept, 1 or more");
		c->depth = n;
		c->have_depth = 1;
	} else if (!strcmp(flag, "--time-range")) {
		parse_range(val);
	} else if (!strcmp(flag, "--min-duration")) {
		if (parse_time(val, strlen(val), NULL, &c->min_ns))
			bad(flag, val, "a duration with its unit (s, ms, us, ns), e.g. 10us");
		c->have_min = 1;
	} else {
		return 0;
	}
	describe(flag, val);
	return 1;
}
