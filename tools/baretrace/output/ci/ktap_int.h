/*
 * tools/baretrace/output/ci/ktap_int.h: what ktap.c (reading KTAP lines)
 * and ktap_cmd.c (the command: the log, the "run" case, the summary and
 * the JUnit file) share. The reading rules are in ktap.c's comment.
 */
#ifndef TOOLS_BARETRACE_OUTPUT_KTAP_INT_H
#define TOOLS_BARETRACE_OUTPUT_KTAP_INT_H

#include "junit.h"

#define TAIL_LINES	20	/* console lines kept for the "run" case */

struct ktap {
	struct bt_junit cases;
	const char *suite;		/* top-level cases' suite */
	char *sub;			/* the current subtest's name, or NULL */
	size_t indent, sub_indent;	/* of the document, of the subtest */
	int sub_cases;			/* cases seen in the current subtest */
	long plan;			/* N of "1..N"; -1: none yet */
	long done;			/* top-level results */
	size_t failed, skipped;
	char *diag;			/* "#" lines since the last result */
	size_t diag_len, diag_cap;
	char *tail[TAIL_LINES];		/* console lines since the last result */
	size_t ntail;
	char *ended;			/* the final line, or NULL */
};

/* buf gets "\n" (unless empty) and s[0..n); kept NUL-terminated. */
void ktap_append(char **buf, size_t *len, size_t *cap, const char *s, size_t n);
/* Forgets the console lines and diagnostics since the last result. */
void ktap_clear_tail(struct ktap *k);
/* One console line, frames taken out, no line break: 1 at the run's
 * final line (nothing after it belongs to the run). *started: a KTAP
 * document has begun. */
int ktap_line(struct ktap *k, int *started, const char *s);
/* The log without binary frames (STX up to its ETX), CRs or NULs. */
size_t ktap_drop_frames(char *buf, size_t n);

#endif /* TOOLS_BARETRACE_OUTPUT_KTAP_INT_H */
