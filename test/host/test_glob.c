/* sources: trace/base/glob.c */
/*
 * test/host/test_glob.c: the filter glob matcher against cases worked
 * out by hand from ftrace's documented syntax.
 */
#include <stdio.h>
#include <string.h>

#include "../../trace/base/glob.h"
#include "tap.h"

static void match(const char *pat, const char *s, int want)
{
	tap_ok(glob_match(pat, strlen(pat), s) == want, "\"%s\" %s \"%s\"", pat,
	       want ? "matches" : "does not match", s);
}

static void valid(const char *pat, int want)
{
	tap_ok(glob_valid(pat, strlen(pat)) == want, "\"%s\" is %s", pat,
	       want ? "valid" : "invalid");
}

/* The first bad pattern of a list, "" for none. */
static void list_bad(const char *list, const char *want)
{
	size_t n = 0;
	const char *bad = glob_list_bad(list, &n);
	char got[64] = "";

	if (bad)
		snprintf(got, sizeof(got), "%.*s", (int)n, bad);
	if (!tap_ok(!strcmp(got, want), "list \"%s\": first bad pattern \"%s\"", list, want))
		tap_diag("got \"%s\"", got);
}

static void lists(void)
{
	const char *p = " a*,!b\tc ", *pat;
	size_t n;

	n = glob_list_next(&p, &pat);
	tap_ok(n == 2 && !strncmp(pat, "a*", 2), "list: first pattern a*");
	n = glob_list_next(&p, &pat);
	tap_ok(n == 2 && !strncmp(pat, "!b", 2), "list: second pattern !b, '!' kept");
	n = glob_list_next(&p, &pat);
	tap_ok(n == 1 && *pat == 'c', "list: third pattern c after a tab");
	tap_ok(glob_list_next(&p, &pat) == 0, "list: then the end");
	list_bad("", "");
	list_bad("tt_* !tt_beta", "");
	list_bad("[", "[");
	list_bad("ok x[a-", "x[a-");
	list_bad("a ! b", "!");
	list_bad("a,!x\\", "!x\\");
	list_bad("@app !@kernel,@dr*", "");	/* '@': a source folder */
	list_bad("a @ b", "@");
	list_bad("a,!@", "!@");
	list_bad("@[a-", "@[a-");
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	match("foo", "foo", 1);
	match("foo", "foobar", 0);
	match("foo*", "foobar", 1);
	match("foo*", "foo", 1);
	match("*bar", "foobar", 1);
	match("*bar", "foobarx", 0);
	match("*oba*", "foobar", 1);
	match("*oba*", "foxbar", 0);
	match("f?o", "foo", 1);
	match("f?o", "fo", 0);
	match("[a-c]at", "bat", 1);
	match("[a-c]at", "dat", 0);
	match("[!a-c]at", "dat", 1);
	match("[^a-c]at", "cat", 0);
	match("[]]x", "]x", 1);
	match("a\\*b", "a*b", 1);
	match("a\\*b", "axb", 0);
	match("*a*b*c*", "xxaxxbxxcxx", 1);
	match("*a*b*c*", "xxaxxcxxbxx", 0);
	match("**", "", 1);
	match("?", "", 0);
	match("", "", 1);
	match("", "x", 0);
	match("pipeline_*", "pipeline_run", 1);
	match("*_[0-9]", "irq_7", 1);
	valid("foo*", 1);
	valid("[a-c", 0);
	valid("[!", 0);
	valid("x\\", 0);
	valid("[]]", 1);
	valid("", 1);
	/* The length bounds the pattern: bytes after it are ignored. */
	tap_ok(glob_match("abcdef", 3, "abc"), "length bounds the pattern");
	/* Pathological backtracking stays linear-ish and terminates. */
	char s[4001];

	memset(s, 'a', 4000);
	s[4000] = '\0';
	tap_ok(!glob_match("*a*a*a*a*a*a*a*b", 16, s),
	       "seven stars against 4000 'a's: no match, and it returns");
	lists();
	return tap_done();
}
