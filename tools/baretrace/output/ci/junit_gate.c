/*
 * tools/baretrace/output/ci/junit_gate.c: the verdicts of `stats --diff
 * --fail-above PCT` as JUnit cases (see junit_gate.h). Suite and
 * classname "stats-diff", a case per function, named as the function;
 * a failed one's message "FUNC grew more than PCT%: total +30.0%", its
 * text one line per key over: "total: old 12.300 us, new 16.000 us,
 * delta +3.700 us, +30.1%". Added and removed functions pass (a rename
 * must not stop a build) and say which they are in <system-out>.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/util.h"

#include "junit.h"
#include "junit_gate.h"

#define GATE_SUITE	"stats-diff"

/* A value in its unit: ns as us, 3 decimals; counts whole, or with two
 * decimals where an average is not. */
static void fmt_value(char *buf, size_t n, double v, const char *unit, int sign)
{
	const char *fmt = sign ? "%+.*f %s" : "%.*f %s";

	if (!strcmp(unit, "ns"))
		snprintf(buf, n, fmt, 3, v / 1000.0, "us");
	else
		snprintf(buf, n, fmt, v == floor(v) ? 0 : 2, v, unit);
}

static void fmt_pct(char *buf, size_t n, double pct)
{
	if (isinf(pct))
		snprintf(buf, n, "+inf%%");
	else
		snprintf(buf, n, "%+.1f%%", pct);
}

void bt_gate_junit_row(struct bt_junit *j, const char *function, const char *group,
		       const struct bt_gate_key *over, unsigned nover, const char *pct)
{
	char msg[1024], line[512], a[64], b[64], d[64], p[32];
	char *text = NULL;
	size_t len = 0, cap = 0, m;
	struct bt_junit_case *c;

	if (!nover) {
		c = bt_junit_add(j, GATE_SUITE, function, BT_JUNIT_PASS, NULL, NULL);
		if (group) {
			snprintf(line, sizeof(line), "%s: only in the %s trace, not gated", group,
				 !strcmp(group, "added") ? "NEW" : "OLD");
			c->out = bt_strndup(line, strlen(line));
		}
		return;
	}
	m = (size_t)snprintf(msg, sizeof(msg), "%s grew more than %s%%:", function, pct);
	for (unsigned i = 0; i < nover; i++) {
		const struct bt_gate_key *k = &over[i];
		size_t l;

		fmt_value(a, sizeof(a), k->old, k->unit, 0);
		fmt_value(b, sizeof(b), k->new, k->unit, 0);
		fmt_value(d, sizeof(d), k->new - k->old, k->unit, 1);
		fmt_pct(p, sizeof(p), k->pct);
		if (m < sizeof(msg))
			m += (size_t)snprintf(msg + m, sizeof(msg) - m, "%s %s %s", i ? "," : "",
					      k->key, p);
		l = (size_t)snprintf(line, sizeof(line), "%s: old %s, new %s, delta %s, %s\n",
				     k->key, a, b, d, p);
		text = bt_grow(text, &cap, len + l + 1, 1);
		memcpy(text + len, line, l + 1);
		len += l;
	}
	bt_junit_add(j, GATE_SUITE, function, BT_JUNIT_FAIL, msg, text);
	free(text);
}

int bt_gate_junit_write(struct bt_junit *j, const char *path, const char *old_trace,
			const char *new_trace)
{
	char name[1024];
	int rc;

	snprintf(name, sizeof(name), "baretrace stats --diff %s %s", old_trace, new_trace);
	rc = bt_junit_write(j, path, name, "stats --diff");
	if (!rc)
		printf("junit:  %s\n", path);
	bt_junit_free(j);
	return rc;
}
