/* sources: kernel/lib/nearest.c */
/*
 * test/host/test_nearest.c: the "did you mean" search the kernel and
 * make's pre-boot check share (kernel/lib/nearest.h): edit counts
 * against values worked out by hand, against a whole-table count written
 * here on its own, the nearness limit, and the tie rule.
 */
#include <stdlib.h>
#include <string.h>

#include "nearest.h"
#include "tap.h"

static void edits_are(const char *a, const char *b, unsigned int want)
{
	unsigned int got = nearest_edits(a, strlen(a), b);

	if (!tap_ok(got == want, "edits '%s' -> '%s' = %u", a, b, want))
		tap_diag("got %u", got);
}

static void by_hand(void)
{
	edits_are("maxcpu", "maxcpus", 1);		/* insertion */
	edits_are("maxcpus", "maxcpu", 1);		/* deletion */
	edits_are("tick_hz", "tick_hx", 1);		/* replacement */
	edits_are("function_grpah", "function_graph", 1);	/* swap */
	edits_are("trace_filer", "trace_filter", 1);
	edits_are("kitten", "sitting", 3);
	edits_are("", "abc", 3);
	edits_are("abc", "", 3);
	edits_are("same", "same", 0);
	/* A swap and then an edit inside it is not counted as 2 (each
	 * substring is edited once): "ca" -> "abc" is 3. */
	edits_are("ca", "abc", 3);
	/* Too long to compare: further than any limit. */
	edits_are("a_word_of_thirty_three_characters", "a_word_of_thirty_three_characters",
		  NEAREST_MAX_LEN + 1);
	/* Only the first len bytes count: the name of "maxcpu=2". */
	tap_ok(nearest_edits("maxcpu=2", 6, "maxcpus") == 1, "edits of 'maxcpu' in 'maxcpu=2'");
}

/* The whole table, as a textbook writes it; independent of the rows. */
static unsigned int reference(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	unsigned int d[NEAREST_MAX_LEN + 1][NEAREST_MAX_LEN + 1];

	for (size_t i = 0; i <= la; i++)
		for (size_t j = 0; j <= lb; j++) {
			unsigned int v;

			if (!i || !j) {
				d[i][j] = (unsigned int)(i + j);
				continue;
			}
			v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

static void against_reference(void)
{
	char a[NEAREST_MAX_LEN + 1], b[NEAREST_MAX_LEN + 1];
	int bad = 0;

	srand(40);
	for (int k = 0; k < 20000 && !bad; k++) {
		size_t la = (size_t)rand() % (NEAREST_MAX_LEN + 1);
		size_t lb = (size_t)rand() % (NEAREST_MAX_LEN + 1);

		for (size_t i = 0; i < la; i++)
			a[i] = (char)('a' + rand() % 3);	/* few letters: many swaps */
		for (size_t i = 0; i < lb; i++)
			b[i] = (char)('a' + rand() % 3);
		a[la] = b[lb] = '\0';
		if (nearest_edits(a, la, b) != reference(a, b)) {
			tap_diag("'%s' -> '%s': %u, the table says %u", a, b,
				 nearest_edits(a, la, b), reference(a, b));
			bad = 1;
		}
	}
	tap_ok(!bad, "20000 random pairs up to %d letters: the rows agree with the whole table",
	       NEAREST_MAX_LEN);
}

static void near_is(const char *list, const char *word, const char *want)
{
	const char *got = nearest_in_list(list, word, strlen(word));
	int pass = want ? got && !strcmp(got, want) : !got;

	if (!tap_ok(pass, "nearest to '%s' is %s", word, want ? want : "none"))
		tap_diag("got %s", got ? got : "none");
}

static void nearness(void)
{
	static const char tracers[] = "function\0function_graph\0nop\0profile\0coverage\0";
	static const char params[] = "maxcpus\0tick_hz\0trace\0trace_filter\0panic\0";

	near_is(tracers, "function_grpah", "function_graph");
	near_is(tracers, "functoin", "function");
	near_is(tracers, "fucntion_graph", "function_graph");
	near_is(tracers, "graph", NULL);		/* 9 edits away */
	near_is(tracers, "nope", "nop");
	near_is(params, "maxcpu", "maxcpus");
	near_is(params, "trace_filer", "trace_filter");
	near_is(params, "tracer", "trace");
	/* The limit: a third of the word, at least 1, at most 2. */
	near_is("abc\0", "ab", "abc");		/* 2 letters: 1 edit */
	near_is("abcd\0", "ab", NULL);		/* 2 letters: not 2 edits */
	near_is("abcxyz\0", "abcdef", NULL);	/* 6 letters: 2, not 3 */
	near_is("abcdxy\0", "abcdef", "abcdxy");
	near_is("panic_on_everything\0", "panic_on_everythingxxx", NULL);
	near_is(params, "", NULL);
	/* Of two names as near, the first in strcmp order, in any order. */
	near_is("cut\0cot\0", "cat", "cot");
	near_is("cot\0cut\0", "cat", "cot");
	/* The nearer wins over the first. */
	near_is("tick_hx\0tick_hz\0", "tick_hz", "tick_hz");
}

int main(void)
{
	by_hand();
	against_reference();
	nearness();
	return tap_done();
}
