/*
 * tools/baretrace/output/ci/ktap.c: reading the KTAP results in a run's
 * console text (kernel/ktest.c prints them), line by line, into JUnit
 * cases (junit.h) for `baretrace ktap LOG [--junit FILE]` (ktap_cmd.c):
 * one testcase per KTAP test, its "# " diagnostic lines the failure's
 * text.
 *
 * The console text is what `make run` prints, `baretrace capture --log`
 * keeps, or QEMU's serial output: trace files (.bt) hold no console text.
 * Binary frames in it (STX .. ETX, docs/wire.md) are dropped first.
 *
 * What is read: the first KTAP (or TAP) document, from its "KTAP version"
 * line; its plan "1..N"; its results "ok N name", "not ok N name", a
 * "# SKIP why" directive making a test skipped (and "# TODO" too: a test
 * known not to work yet); the "#" lines before a result are that test's
 * diagnostics (ktest prints them before the result line). A subtest (an
 * indented "KTAP version" after "# Subtest: NAME") is a suite of its own:
 * its results are cases of suite NAME, and the parent's result line for
 * it is no case. Top-level cases are of suite --suite NAME (default
 * "ktest"). The run's final line "baretrace: exit status N [(WORD)]"
 * (tools/qemu-run) says how it ended. A plan that did not complete (a
 * crash, a hang, a cut log), or an end with a WORD (crash, panic, hang,
 * ...), adds a failed case "run" that says so, with the console's last
 * lines.
 *
 * Exit status: 0 every test passed or skipped and the plan completed; 3
 * a test failed or the run did not complete its plan; 1 bad input (no
 * KTAP in LOG, a .bt file, a JUnit file that cannot be written: nothing
 * is written then); 2 a bad command line.
 */
#include <stdlib.h>
#include <string.h>

#include "../../base/util.h"

#include "junit.h"
#include "ktap_int.h"

void ktap_append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
{
	*buf = bt_grow(*buf, cap, *len + n + 2, 1);
	if (*len)
		(*buf)[(*len)++] = '\n';
	memcpy(*buf + *len, s, n);
	*len += n;
	(*buf)[*len] = 0;
}

static void keep_tail(struct ktap *k, const char *s, size_t n)
{
	if (k->ntail == TAIL_LINES) {
		free(k->tail[0]);
		memmove(k->tail, k->tail + 1, sizeof(k->tail[0]) * (TAIL_LINES - 1));
		k->ntail--;
	}
	k->tail[k->ntail++] = bt_strndup(s, n);
}

void ktap_clear_tail(struct ktap *k)
{
	for (size_t i = 0; i < k->ntail; i++)
		free(k->tail[i]);
	k->ntail = 0;
	k->diag_len = 0;
	if (k->diag)
		k->diag[0] = 0;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* "ok 3 name # SKIP why": the case, at the depth its indent says. */
static void result(struct ktap *k, const char *s, size_t indent)
{
	int ok = starts(s, "ok ");
	char *end, *name, *dir, *msg;
	long num = strtol(s + (ok ? 3 : 7), &end, 10);
	int top = indent == k->indent, state;

	if (end == s + (ok ? 3 : 7) || (*end && *end != ' '))
		return;		/* "ok" alone, "ok x": not a result */
	end += strspn(end, " ");
	if (starts(end, "- "))
		end += 2;
	name = bt_strndup(end, strlen(end));
	dir = strstr(name, " # ");
	if (dir)
		*dir = 0, dir += 3;
	if (top)
		k->done = num;
	if (top && k->sub && k->sub_cases) {	/* the subtest's own line */
		free(k->sub);
		k->sub = NULL;
		free(name);
		ktap_clear_tail(k);
		return;
	}
	state = !ok ? BT_JUNIT_FAIL : BT_JUNIT_PASS;
	if (dir && (!strncasecmp(dir, "SKIP", 4) || !strncasecmp(dir, "TODO", 4)))
		state = BT_JUNIT_SKIP;
	msg = bt_strndup(s, strlen(s));
	bt_junit_add(&k->cases, top ? k->suite : k->sub, name, state,
		     state == BT_JUNIT_SKIP ? dir : msg,
		     state != BT_JUNIT_FAIL ? NULL
		     : k->diag_len ? k->diag : "(no diagnostic lines before the result)");
	k->failed += state == BT_JUNIT_FAIL;
	k->skipped += state == BT_JUNIT_SKIP;
	k->sub_cases += !top;
	free(msg);
	free(name);
	ktap_clear_tail(k);
}

int ktap_line(struct ktap *k, int *started, const char *s)
{
	size_t indent = strspn(s, " \t");
	const char *t = s + indent;

	if (strstr(s, "baretrace: exit status ")) {
		k->ended = bt_strndup(strstr(s, "baretrace: exit status "),
				      strlen(strstr(s, "baretrace: exit status ")));
		return 1;
	}
	if (!*started) {
		const char *v = strstr(s, "KTAP version ");

		if (!v && (v = strstr(s, "TAP version ")) && v > s && v[-1] == 'K')
			v = NULL;
		if (!v)
			return 0;
		*started = 1;
		k->indent = (size_t)(v - s);	/* what precedes it: indent, or a prefix */
		return 0;
	}
	if (indent < k->indent)
		indent = k->indent;	/* a line a prefix did not reach */
	if (k->plan >= 0 && k->done >= k->plan && indent == k->indent)
		return 0;		/* past the document's end */
	if (indent > k->indent && (starts(t, "KTAP version ") || starts(t, "TAP version "))) {
		k->sub_indent = indent;
		k->sub_cases = 0;
		if (!k->sub)
			k->sub = bt_strndup("subtest", 7);
	} else if (starts(t, "# Subtest: ")) {
		free(k->sub);
		k->sub = bt_strndup(t + 11, strlen(t + 11));
	} else if (indent == k->indent && starts(t, "1..")) {
		k->plan = strtol(t + 3, NULL, 10);
	} else if (starts(t, "ok ") || starts(t, "not ok ")) {
		if (indent == k->indent || (k->sub && indent == k->sub_indent))
			result(k, t, indent);
	} else if (*t) {
		/* "# ..." is a diagnostic; "#0 ..." (a backtrace) is not */
		if (t[0] == '#' && (t[1] == ' ' || !t[1]))
			ktap_append(&k->diag, &k->diag_len, &k->diag_cap, t, strlen(t));
		keep_tail(k, s, strlen(s));
	}
	return 0;
}

size_t ktap_drop_frames(char *buf, size_t n)
{
	size_t o = 0;
	int in = 0;

	for (size_t i = 0; i < n; i++) {
		if (buf[i] == 0x02)
			in = 1;
		else if (buf[i] == 0x03)
			in = 0;
		else if (!in && buf[i] != '\r' && buf[i] != 0 && buf[i] != 0x10)
			buf[o++] = buf[i];
	}
	buf[o] = 0;
	return o;
}
