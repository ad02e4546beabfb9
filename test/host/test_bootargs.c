/* sources: kernel/bootinfo/bootargs_parse.c */
/*
 * test/host/test_bootargs.c: splitting /chosen/bootargs, parameter
 * lookup and number parsing, against values written out by hand.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bootargs.h"
#include "tap.h"

/*
 * Splits 'line' into a struct first filled with junk, so a result that
 * forgets to reset a field is caught. 'want' lists the kernel words, a
 * "--" entry, then the app words; NULL-terminated.
 */
static void split_ok(const char *what, const char *line, const char *const *want)
{
	struct bootargs *a = malloc(sizeof(*a));
	const char *err = NULL;
	int k = 0, n = 0, pass;

	memset(a, 0x5a, sizeof(*a));
	pass = bootargs_split(line, a, &err) == 0 && err == NULL;
	for (; pass && want[n] && strcmp(want[n], "--"); n++, k++)
		pass = k < a->nkernel && !strcmp(a->kernel[k], want[n]);
	pass = pass && k == a->nkernel;
	if (pass && want[n])
		n++;
	for (k = 0; pass && want[n]; n++, k++)
		pass = k < a->napp && !strcmp(a->app[k], want[n]);
	pass = pass && k == a->napp && a->app[a->napp] == NULL;
	if (!tap_ok(pass, "split: %s", what) && a->nkernel >= 0 && a->napp >= 0)
		tap_diag("got %d kernel and %d app words%s%s", a->nkernel,
			 a->napp, err ? ", err " : "", err ? err : "");
	free(a);
}

/* A split that stops at a problem: it names it, keeps the 'nk' kernel
 * and 'na' app words before it and says where in the line it stopped. */
static void split_fails(const char *what, const char *line, const char *want_err,
			int nk, int na, size_t at)
{
	struct bootargs *a = malloc(sizeof(*a));
	const char *err = NULL;

	memset(a, 0x5a, sizeof(*a));
	int rc = bootargs_split(line, a, &err);

	if (!tap_ok(rc == -1 && err && !strcmp(err, want_err) && a->nkernel == nk &&
		    a->napp == na && a->app[a->napp] == NULL && a->ignored_at == at,
		    "split stops: %s", what))
		tap_diag("rc %d, err \"%s\", %d kernel and %d app words, ignored from %zu",
			 rc, err ? err : "(none)", a->nkernel, a->napp, a->ignored_at);
	free(a);
}

/* "w0 w1 ..." with 'n' words, and "--" before word 'dashes_at' (-1: none). */
static char *words(int n, int dashes_at)
{
	char *s = malloc((size_t)n * 5 + 8), *p = s;

	for (int i = 0; i < n; i++) {
		if (i == dashes_at)
			p += sprintf(p, "-- ");
		p += sprintf(p, "w%d ", i);
	}
	*p = '\0';
	return s;
}

static char *repeat(char c, size_t n, const char *tail)
{
	char *s = malloc(n + strlen(tail) + 1);

	memset(s, c, n);
	strcpy(s + n, tail);
	return s;
}

/*
 * A 1023-byte word fills buf exactly (1023 chars + NUL); an empty quoted
 * word after it then stores its NUL at buf[1024], past the array and over
 * the first byte of kernel[0]. Run in a child: under the sanitizers the
 * kernel code aborts, and that must not take the other cases with it.
 */
static void empty_word_at_limit(void)
{
	char *line = repeat('a', BOOTARGS_MAX_LEN - 1, " \"\"");
	pid_t pid = fork();
	int status = -1;

	if (pid == 0) {
		static struct bootargs a;
		const char *err = NULL;
		int rc = bootargs_split(line, &a, &err);

		_exit((rc == -1 && a.nkernel == 1 && a.kernel[0] == a.buf) ||
		      (rc == 0 && a.nkernel == 2 && a.kernel[0] == a.buf &&
		       a.kernel[1] < a.buf + sizeof(a.buf)) ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	if (!tap_ok(pid > 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0,
		    "split: empty quoted word after a full buffer stays inside buf"))
		tap_diag("child wait status 0x%x (sanitizer report on stderr)",
			 status);
	free(line);
}

static void splitting(void)
{
	split_ok("kernel words only", "loglevel=3 panic",
		 (const char *[]){ "loglevel=3", "panic", NULL });
	split_ok("kernel and app words", " a=1 -- prog x y ",
		 (const char *[]){ "a=1", "--", "prog", "x", "y", NULL });
	split_ok("app words only", "-- prog", (const char *[]){ "--", "prog", NULL });
	split_ok("trailing \"--\" gives no app words", "k --",
		 (const char *[]){ "k", NULL });
	split_ok("quotes group spaces", "msg=\"hello world\" x",
		 (const char *[]){ "msg=hello world", "x", NULL });
	split_ok("a quoted whole word", "\"msg=a  b\"",
		 (const char *[]){ "msg=a  b", NULL });
	split_ok("an empty quoted word", "a \"\" b",
		 (const char *[]){ "a", "", "b", NULL });
	split_ok("a second \"--\" is an app word", "-- a -- b",
		 (const char *[]){ "--", "a", "--", "b", NULL });
	split_ok("\"---\" and \"--x\" are plain words", "--- --x",
		 (const char *[]){ "---", "--x", NULL });
	split_ok("tabs, CR and LF separate", "a\tb\r\nc\n",
		 (const char *[]){ "a", "b", "c", NULL });
	split_ok("empty line", "", (const char *[]){ NULL });
	split_ok("whitespace-only line", " \t \n ", (const char *[]){ NULL });

	split_fails("unterminated quote keeps the words before it", "a b=\"oops",
		    "unterminated quote", 1, 0, 2);
}

/* A line past the limit in words of a sixteenth of it (so the byte
 * limit comes before the word count): panic= and the words that fit
 * still count, the word that straddles the limit and those after it are
 * named as left out. */
#define LONG_WORD	(BOOTARGS_MAX_LEN / 16)	/* with its NUL */

static void long_line(void)
{
	struct bootargs *a = malloc(sizeof(*a));
	char *line = malloc(2 * BOOTARGS_MAX_LEN), *p = line;
	const char *err = NULL;
	int i;

	p += sprintf(p, "panic=poweroff");
	for (i = 0; p - line < BOOTARGS_MAX_LEN + 500; i++)
		p += sprintf(p, " trace_filter=%03d%0*d", i, LONG_WORD - 17, 0);
	int rc = bootargs_split(line, a, &err);
	/* words take LONG_WORD bytes with their NUL, panic=poweroff 15 */
	int fit = (BOOTARGS_MAX_LEN - 15) / LONG_WORD;
	char want[32];

	snprintf(want, sizeof(want), " trace_filter=%03d", fit);
	tap_ok(rc == -1 && err && !strcmp(err, "line too long") && a->nkernel == 1 + fit &&
	       fit < BOOTARGS_MAX_WORDS && !strcmp(a->kernel[0], "panic=poweroff") &&
	       strlen(a->kernel[1]) == LONG_WORD - 1 &&
	       a->ignored_at == (size_t)(strstr(line, want) - line) + 1,
	       "split: a %d-byte line keeps panic= and the %d words that fit", (int)(p - line),
	       fit);
	free(line);
	free(a);
}

static void limits(void)
{
	struct bootargs *a = malloc(sizeof(*a));
	const char *err = NULL;
	char *s = words(BOOTARGS_MAX_WORDS, -1);

	split_ok("exactly 32 words", s, (const char *[]){
		"w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7", "w8", "w9",
		"w10", "w11", "w12", "w13", "w14", "w15", "w16", "w17", "w18",
		"w19", "w20", "w21", "w22", "w23", "w24", "w25", "w26", "w27",
		"w28", "w29", "w30", "w31", NULL });
	free(s);
	s = words(BOOTARGS_MAX_WORDS + 1, -1);
	split_fails("33 kernel words keep the first 32", s, "too many words", 32, 0,
		    (size_t)(strstr(s, "w32 ") - s));
	free(s);
	s = words(BOOTARGS_MAX_WORDS, 16);
	tap_ok(bootargs_split(s, a, &err) == 0 && a->nkernel == 16 &&
	       a->napp == 16 && !strcmp(a->app[15], "w31"),
	       "split: \"--\" does not count toward the 32 words");
	free(s);
	s = words(BOOTARGS_MAX_WORDS + 1, 16);
	split_fails("33 words split by \"--\" keep 16 + 16", s, "too many words", 16, 16,
		    (size_t)(strstr(s, "w32 ") - s));
	free(s);

	s = repeat('a', BOOTARGS_MAX_LEN - 1, "");
	tap_ok(bootargs_split(s, a, &err) == 0 && a->nkernel == 1 &&
	       strlen(a->kernel[0]) == BOOTARGS_MAX_LEN - 1,
	       "split: a 1023-byte word just fits");
	free(a);
	free(s);
	s = repeat('a', BOOTARGS_MAX_LEN, "");
	split_fails("a 1024-byte word", s, "line too long", 0, 0, 0);
	free(s);
	s = repeat('a', BOOTARGS_MAX_LEN - 1, " b");
	split_fails("a second word past the buffer keeps the first", s, "line too long",
		    1, 0, BOOTARGS_MAX_LEN);
	free(s);
	long_line();
	empty_word_at_limit();
}

/* Setters record what they were given, so the tests see every call. */
static int calls;
static char last_value[32];
static unsigned long level = 3;

static int set_any(const char *v)
{
	calls++;
	snprintf(last_value, sizeof(last_value), "%s", v);
	return 0;
}

static int set_level(const char *v)
{
	unsigned long n;

	calls++;
	snprintf(last_value, sizeof(last_value), "%s", v);
	if (bootargs_parse_ulong(v, &n) || n > 7)
		return -1;
	level = n;
	return 0;
}

static const struct kernel_param table[] = {
	{ "panic", set_any, "" },
	{ "loglevel", set_level, "" },
	{ "quiet", set_any, "" },
};

static void apply(const char *word, int want_rc, int want_calls,
		  const char *want_value, unsigned long want_level)
{
	calls = 0;
	strcpy(last_value, "(not called)");
	int rc = bootargs_apply_word(table, 3, word);

	if (!tap_ok(rc == want_rc && calls == want_calls &&
		    !strcmp(last_value, want_value) && level == want_level,
		    "apply \"%s\": rc %d, value \"%s\"", word, want_rc, want_value))
		tap_diag("rc %d, %d calls, value \"%s\", level %lu", rc, calls,
			 last_value, level);
}

static void lookup(void)
{
	apply("loglevel=5", 0, 1, "5", 5);
	apply("quiet", 0, 1, "", 5);
	apply("quiet=", 0, 1, "", 5);
	apply("panic=a=b", 0, 1, "a=b", 5);
	apply("panicky=1", -1, 0, "(not called)", 5);
	apply("pan", -1, 0, "(not called)", 5);
	apply("nosuch", -1, 0, "(not called)", 5);
	apply("=5", -1, 0, "(not called)", 5);
	apply("loglevel=9", -2, 1, "9", 5);
	apply("loglevel=x", -2, 1, "x", 5);
	tap_eq_int(bootargs_apply_word(table, 0, "panic"), -1,
		   "apply with an empty table: unknown");
}

static void number(const char *s, int want_rc, unsigned long want)
{
	unsigned long v = 0xdeadbeef;
	int rc = bootargs_parse_ulong(s, &v);

	/* On failure 'want' is the untouched sentinel. */
	int pass = rc == want_rc && v == want;

	if (want_rc ? !tap_ok(pass, "parse \"%s\": rejected, output untouched", s)
		    : !tap_ok(pass, "parse \"%s\" is %lu", s, want))
		tap_diag("got %d, %lu", rc, v);
}

static void numbers(void)
{
	number("0", 0, 0);
	number("42", 0, 42);
	number("0x1F", 0, 31);
	number("0Xff", 0, 255);
	number("64K", 0, 65536);
	number("4k", 0, 4096);
	number("2M", 0, 2097152);
	number("1G", 0, 1073741824);
	number("0x10M", 0, 16777216);
	number("18446744073709551615", 0, UINT64_MAX);
	number("0xffffffffffffffff", 0, UINT64_MAX);
	number("17179869183G", 0, 0xffffffffc0000000UL);
	static const char *const bad[] = {
		"", "x", "12z", "0x", "0xK", "K", "-1", " 1", "1 ", "1KK",
		"18446744073709551616", "0x10000000000000000", "17179869184G",
		"99999999999999999999999",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		number(bad[i], -1, 0xdeadbeef);
}

int main(void)
{
	splitting();
	limits();
	lookup();
	numbers();
	return tap_done();
}
