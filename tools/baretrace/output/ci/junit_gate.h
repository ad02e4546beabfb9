/*
 * tools/baretrace/output/ci/junit_gate.h: `stats --diff --junit FILE`, the
 * gate's verdicts as JUnit XML (junit.h): one testcase per function the
 * diff compared, failed when --fail-above found it over. stats_diff.c
 * hands over each row's verdict; the figures come in its units.
 */
#ifndef TOOLS_BARETRACE_OUTPUT_JUNIT_GATE_H
#define TOOLS_BARETRACE_OUTPUT_JUNIT_GATE_H

#include "junit.h"

/* One key over the threshold: its name, OLD's and NEW's value in unit
 * ("ns" is shown in us; "calls", "instructions", ... as counts), and
 * the change in % of OLD. */
struct bt_gate_key {
	const char *key;
	double old, new, pct;
	const char *unit;
};

/* A row: function, NULL when in both traces or "added"/"removed"; the
 * keys over the threshold (none: the case passes). */
void bt_gate_junit_row(struct bt_junit *j, const char *function, const char *group,
		       const struct bt_gate_key *over, unsigned nover, const char *pct);
/* Writes FILE, says its path on stdout: 0, or BT_EXIT_INPUT. */
int bt_gate_junit_write(struct bt_junit *j, const char *path, const char *old_trace,
			const char *new_trace);

#endif /* TOOLS_BARETRACE_OUTPUT_JUNIT_GATE_H */
