/*
 * tools/baretrace/output/ktap.c: `baretrace ktap LOG [--junit FILE]`,
 * the KTAP results in a run's console text (kernel/ktest.c prints them)
 * as a summary and, with --junit, as JUnit XML (junit.c): one testcase
 * per KTAP test, the test's "# " diagnostic lines the failure's text.
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

#include "../bt.h"
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

static void append(char **buf, size_t *len, size_t *cap, const char *s, size_t n)
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

static void clear_tail(struct ktap *k)
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
		clear_tail(k);
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
	clear_tail(k);
}

/* One console line, frames taken out, no line break. Returns 1 at the
 * run's final line (nothing after it belongs to the run). */
static int line(struct ktap *k, int *started, const char *s)
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
			append(&k->diag, &k->diag_len, &k->diag_cap, t, strlen(t));
		keep_tail(k, s, strlen(s));
	}
	return 0;
}

/* The log without binary frames: STX up to its ETX dropped. */
static size_t drop_frames(char *buf, size_t n)
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

static char *read_log(const char *path, size_t *n)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 0, len = 0, got;
	char *buf = NULL;

	if (!f)
		bt_die(BT_EXIT_INPUT, "ktap: cannot open %s: %m", path);
	do {
		buf = bt_grow(buf, &cap, len + 65536 + 1, 1);
		got = fread(buf + len, 1, 65536, f);
		len += got;
	} while (got);
	if (ferror(f))
		bt_die(BT_EXIT_INPUT, "ktap: cannot read %s: %m", path);
	if (f != stdin)
		fclose(f);
	if (len >= 8 && !memcmp(buf, bt_file_magic, 8))
		bt_die(BT_EXIT_INPUT, "ktap: %s is a trace file: trace files hold no console "
		       "text; give the run's console log (make run's output, or 'baretrace "
		       "capture --log FILE')", path);
	*n = len;
	return buf;
}

/* A plan that did not complete, or an end the run's final line names
 * (crash, panic, hang, ...): the failed case "run", saying which. */
static void run_case(struct ktap *k)
{
	const char *word = k->ended ? strchr(k->ended, '(') : NULL;
	char *msg = NULL, *text = NULL;
	size_t mlen = 0, mcap = 0, tlen = 0, tcap = 0;
	char head[512];
	int complete = k->plan >= 0 && k->done >= k->plan;

	if (complete && !word)
		return;
	if (k->ended)
		snprintf(head, sizeof(head), "the run ended with \"%s\"", k->ended);
	else
		snprintf(head, sizeof(head), "the log ends without the run's final line "
			 "\"baretrace: exit status N\" (the run was cut short or stopped from "
			 "outside)");
	append(&msg, &mlen, &mcap, head, strlen(head));
	if (k->plan < 0)
		snprintf(head, sizeof(head), "; no plan (1..N) after %ld test%s", k->done,
			 bt_plural((uint64_t)k->done));
	else if (!complete)
		snprintf(head, sizeof(head), " after %ld of %ld tests: test%s %ld..%ld did "
			 "not report", k->done, k->plan, k->plan - k->done > 1 ? "s" : "",
			 k->done + 1, k->plan);
	else
		snprintf(head, sizeof(head), " after all %ld tests reported", k->plan);
	msg = bt_grow(msg, &mcap, mlen + strlen(head) + 1, 1);
	strcpy(msg + mlen, head);
	append(&text, &tlen, &tcap, msg, strlen(msg));
	if (k->ntail)
		append(&text, &tlen, &tcap, "the console's last lines:", 25);
	for (size_t i = 0; i < k->ntail; i++)
		append(&text, &tlen, &tcap, k->tail[i], strlen(k->tail[i]));
	bt_junit_add(&k->cases, k->suite, "run", BT_JUNIT_FAIL, msg, text);
	k->failed++;
	free(msg);
	free(text);
}

static void __attribute__((noreturn)) bad_line(const char *what, const char *arg)
{
	fprintf(stderr, "baretrace ktap: %s%s%s\n\n", what, arg ? " " : "", arg ? arg : "");
	bt_help(stderr, bt_cmd_find("ktap"));
	exit(BT_EXIT_USAGE);
}

int bt_ktap_main(int argc, char **argv)
{
	struct ktap k = { .suite = "ktest", .plan = -1 };
	const char *log = NULL, *junit = NULL;
	char *buf, *s, *nl;
	size_t n;
	int started = 0, rc;

	for (int i = 1; i < argc; i++) {
		if ((!strcmp(argv[i], "--junit") || !strcmp(argv[i], "--suite")) && i + 1 >= argc)
			bad_line("option needs a value:", argv[i]);
		if (!strcmp(argv[i], "--junit"))
			junit = argv[++i];
		else if (starts(argv[i], "--junit="))
			junit = argv[i] + 8;
		else if (!strcmp(argv[i], "--suite"))
			k.suite = argv[++i];
		else if (starts(argv[i], "--suite="))
			k.suite = argv[i] + 8;
		else if (argv[i][0] == '-' && argv[i][1])
			bad_line("unknown option", argv[i]);
		else if (log)
			bad_line("takes one console log; unexpected", argv[i]);
		else
			log = argv[i];
	}
	if (!log)
		bad_line("needs the run's console log (make run's output, 'baretrace capture "
			 "--log FILE', or - for stdin)", NULL);
	if (!*k.suite)
		bad_line("--suite needs a name", NULL);
	if (junit && bt_junit_check_path(junit, "ktap"))
		return BT_EXIT_INPUT;
	buf = read_log(log, &n);
	drop_frames(buf, n);
	for (s = buf; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = 0;
		if (line(&k, &started, s) || !nl)
			break;
	}
	if (!started)
		bt_die(BT_EXIT_INPUT, "ktap: no KTAP output in %s (no \"KTAP version\" line): "
		       "not a run of the KTAP suites (BOOTARGS='-- ktest'), or the run ended "
		       "before they started%s%s", log, k.ended ? "; it ended with: " : "",
		       k.ended ? k.ended : "");
	run_case(&k);
	printf("# ktap: %s: %zu testcase%s: %zu passed, %zu failed, %zu skipped", log,
	       k.cases.n, bt_plural(k.cases.n), k.cases.n - k.failed - k.skipped, k.failed,
	       k.skipped);
	if (k.plan >= 0)
		printf(" (plan 1..%ld, %s)\n", k.plan, k.done >= k.plan ? "complete" : "incomplete");
	else
		printf(" (no plan)\n");
	for (size_t i = 0; i < k.cases.n; i++)
		if (k.cases.v[i].state == BT_JUNIT_FAIL)
			printf("# failed: %s.%s: %s\n", k.cases.v[i].suite, k.cases.v[i].name,
			       k.cases.v[i].message);
	rc = junit ? bt_junit_write(&k.cases, junit, "ktap", "ktap") : 0;
	if (!rc && junit)
		printf("junit:  %s\n", junit);
	clear_tail(&k);
	free(k.diag);
	free(k.sub);
	free(k.ended);
	bt_junit_free(&k.cases);
	free(buf);
	return rc ? rc : k.failed ? BT_EXIT_OVER : 0;
}
