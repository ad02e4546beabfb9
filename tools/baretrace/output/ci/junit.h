/*
 * tools/baretrace/output/ci/junit.h: JUnit XML, the test report CI systems
 * read (GitLab's artifacts:reports:junit, GitHub actions that publish
 * test results, Jenkins). junit.c writes it; ktap.c (`baretrace ktap`)
 * and junit_gate.c (`stats --diff --junit`) make the cases.
 *
 * The shape written, the one GitLab documents:
 *   <testsuites name tests failures errors skipped time>
 *     <testsuite name tests failures errors skipped time>
 *       <testcase classname name time>           passed
 *         <failure message type>TEXT</failure>   failed
 *         <skipped message/>                     skipped
 *         <system-out>TEXT</system-out>          a note, any state
 * one testsuite per run of consecutive cases of one suite.
 */
#ifndef TOOLS_BARETRACE_OUTPUT_JUNIT_H
#define TOOLS_BARETRACE_OUTPUT_JUNIT_H

#include <stddef.h>
#include <stdio.h>

enum bt_junit_state { BT_JUNIT_PASS, BT_JUNIT_FAIL, BT_JUNIT_SKIP };

struct bt_junit_case {
	char *suite;		/* the testsuite's name and the classname */
	char *name;
	int state;		/* enum bt_junit_state */
	char *message;		/* failure or skip: one line; NULL: none */
	char *text;		/* failure: the body; NULL: none */
	char *out;		/* <system-out>; NULL: none */
};

/* A growing list of cases; every string is the list's own (copied). */
struct bt_junit {
	struct bt_junit_case *v;
	size_t n, cap;
};

struct bt_junit_case *bt_junit_add(struct bt_junit *j, const char *suite, const char *name,
				   int state, const char *message, const char *text);
void bt_junit_free(struct bt_junit *j);
/* 0 if PATH can be written (before any work, so a bad path changes
 * nothing); else says why on stderr and returns BT_EXIT_INPUT. */
int bt_junit_check_path(const char *path, const char *who);
/* Writes the cases as one <testsuites NAME>: 0, or BT_EXIT_INPUT with
 * the reason said (a partly written file is removed). */
int bt_junit_write(const struct bt_junit *j, const char *path, const char *name,
		   const char *who);
/* Strings as XML 1.0 text or attribute values (junit.c, for the tests):
 * markup escaped, what XML 1.0 forbids (C0 controls but tab, newline and
 * CR; U+FFFE, U+FFFF) and bytes that are not UTF-8 written as "\xNN". */
void bt_xml_escape(FILE *f, const char *s, int attr);

#endif /* TOOLS_BARETRACE_OUTPUT_JUNIT_H */
