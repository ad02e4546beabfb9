/*
 * tools/baretrace/output/ci/ktap_cmd.c: the command `baretrace ktap LOG
 * [--junit FILE] [--suite NAME]` (what it reads: ktap.c): reads the
 * log, adds the "run" case when the run did not end as planned, prints
 * the summary and writes the JUnit file (junit.c). The exit status is
 * said in ktap.c's comment.
 */
#include <stdlib.h>
#include <string.h>

#include "../../base/util.h"
#include "../../bt.h"
#include "../../input/tracefile.h"

#include "junit.h"
#include "ktap.h"
#include "ktap_int.h"

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
	ktap_append(&msg, &mlen, &mcap, head, strlen(head));
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
	ktap_append(&text, &tlen, &tcap, msg, strlen(msg));
	if (k->ntail)
		ktap_append(&text, &tlen, &tcap, "the console's last lines:", 25);
	for (size_t i = 0; i < k->ntail; i++)
		ktap_append(&text, &tlen, &tcap, k->tail[i], strlen(k->tail[i]));
	bt_junit_add(&k->cases, k->suite, "run", BT_JUNIT_FAIL, msg, text);
	k->failed++;
	free(msg);
	free(text);
}

static void __attribute__((noreturn)) bad_line(const char *what, const char *arg)
{
	fprintf(stderr, "baretrace ktap: %s%s%s\n", what, arg ? " " : "", arg ? arg : "");
	bt_try_help("ktap");
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
		else if (!strncmp(argv[i], "--junit=", 8))
			junit = argv[i] + 8;
		else if (!strcmp(argv[i], "--suite"))
			k.suite = argv[++i];
		else if (!strncmp(argv[i], "--suite=", 8))
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
	ktap_drop_frames(buf, n);
	for (s = buf; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = 0;
		if (ktap_line(&k, &started, s) || !nl)
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
	ktap_clear_tail(&k);
	free(k.diag);
	free(k.sub);
	free(k.ended);
	bt_junit_free(&k.cases);
	free(buf);
	return rc ? rc : k.failed ? BT_EXIT_OVER : 0;
}
