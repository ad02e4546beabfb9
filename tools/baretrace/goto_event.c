/*
 * tools/baretrace/goto_event.c: the EVENT of `baretrace goto RUN EVENT`,
 * read before anything runs (cmd_goto.c: a malformed one is a bad
 * command line, exit status 2) and found among the trace's entries in
 * report's order (goto.c; none such: status 1). Three forms:
 *
 *   N              the entry report --numbers prints as #N
 *   FUNC[@CPU][#N] the Nth entry of FUNC on CPU (without @CPU: the Nth
 *                  in report's order; N is 1 without #N)
 *   @T[@CPU]       the last entry at or before time T (on CPU): T in
 *                  counter ticks (digits only: the CNTVCT value the trace
 *                  recorded, which goto prints as "at counter T"), or in
 *                  seconds as report prints them (digits, '.', up to 9
 *                  decimals: 0.725623 is every tick report shows so, so
 *                  an entry printed 0.725623 is at or before it)
 */
#include <stdio.h>
#include <string.h>

#include "decode/decode.h"
#include "decode/symtab.h"
#include "goto.h"
#include "output/report/report.h"

/* An unsigned decimal of 1 to 19 digits at s, its end in *end. */
static int number(const char *s, const char **end, uint64_t *v)
{
	const char *p = s;

	*v = 0;
	while (*p >= '0' && *p <= '9' && p - s < 19)
		*v = *v * 10 + (uint64_t)(*p++ - '0');
	*end = p;
	return p > s && !(*p >= '0' && *p <= '9');
}

/* "@CPU" or nothing at s. */
static int cpu_suffix(const char *s, struct bt_goto_event *e)
{
	const char *end;
	uint64_t c;

	e->cpu = ~0ULL;
	if (!*s)
		return 0;
	if (*s != '@' || !number(s + 1, &end, &c) || *end || c >= BT_MAX_CPUS)
		return -1;
	e->cpu = c;
	return 0;
}

static int parse_time(const char *s, struct bt_goto_event *e)
{
	const char *end, *frac;
	uint64_t whole, part = 0;

	e->kind = BT_GOTO_TIME;
	if (!number(s, &end, &whole))
		return -1;
	e->t = whole;
	e->digits = 0;
	if (*end == '.') {
		frac = end + 1;
		if (!number(frac, &end, &part) || end - frac > 9 || whole > 1000000000ULL)
			return -1;
		e->digits = (unsigned)(end - frac);
		for (unsigned i = 0; i < e->digits; i++)
			e->t *= 10;
		e->t += part;
	}
	return cpu_suffix(end, e);
}

int bt_goto_parse_event(const char *ev, struct bt_goto_event *e)
{
	const char *end, *hash;
	size_t len;

	memset(e, 0, sizeof(*e));
	e->nth = 1;
	if (ev[0] == '@')
		return parse_time(ev + 1, e);
	if (ev[0] >= '0' && ev[0] <= '9') {
		e->kind = BT_GOTO_NUMBER;
		return number(ev, &end, &e->no) && !*end && e->no ? 0 : -1;
	}
	e->kind = BT_GOTO_FUNC;
	len = strcspn(ev, "@#");
	if (!len || len >= sizeof(e->name))
		return -1;
	memcpy(e->name, ev, len);
	hash = strchr(ev, '#');
	if (hash) {
		if (!number(hash + 1, &end, &e->nth) || *end || !e->nth)
			return -1;
		char at[64];

		snprintf(at, sizeof(at), "%.*s", (int)(hash - ev - len), ev + len);
		return (size_t)(hash - ev - len) >= sizeof(at) ? -1 : cpu_suffix(at, e);
	}
	return cpu_suffix(ev + len, e);
}

/* ts at or before T: ticks, or seconds with 'digits' decimals as report
 * prints them (truncated: ts * 10^digits / freq <= T). */
static int at_or_before(const struct bt_goto_event *e, uint64_t ts, uint64_t freq)
{
	unsigned __int128 scaled = ts;

	if (!e->digits)
		return ts <= e->t;
	for (unsigned i = 0; i < e->digits; i++)
		scaled *= 10;
	return scaled < ((unsigned __int128)e->t + 1) * freq;
}

long bt_goto_find_event(const struct bt_goto_event *e, const char *text,
			const struct bt_entry_seen *seen, size_t nseen,
			struct bt_symtab *syms, uint64_t freq)
{
	char nb[64];
	uint64_t nth = e->nth;
	long best = -1;

	if (e->kind == BT_GOTO_NUMBER) {
		if (e->no <= nseen)
			return (long)e->no - 1;
		fprintf(stderr, "baretrace goto: no event %s: the trace has entries #1 to #%zu "
			"(report --numbers)\n", text, nseen);
		return -1;
	}
	for (size_t i = 0; i < nseen; i++) {
		if (e->cpu != ~0ULL && seen[i].cpu != e->cpu)
			continue;
		if (e->kind == BT_GOTO_TIME) {
			if (at_or_before(e, seen[i].ts, freq) &&
			    (best < 0 || seen[i].ts >= seen[best].ts))
				best = (long)i;
		} else if (!strcmp(bt_site_name(syms, seen[i].site, nb, sizeof(nb)), e->name) &&
			   !--nth)
			return (long)i;
	}
	if (best >= 0)
		return best;
	if (e->kind == BT_GOTO_TIME)
		fprintf(stderr, "baretrace goto: the trace has no entry at or before %s%s\n", text,
			e->cpu != ~0ULL ? " on that CPU" : "");
	else
		fprintf(stderr, "baretrace goto: the trace has no %s: fewer entries of %s%s\n", text,
			e->name, e->cpu != ~0ULL ? " on that CPU" : "");
	return -1;
}
