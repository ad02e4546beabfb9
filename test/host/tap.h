/*
 * test/host/tap.h: the smallest TAP producer the host tests need.
 *
 * Each test file includes this once. The plan goes out last (TAP allows
 * "1..N" after the results), so a file never has to count its cases by
 * hand and a crash part-way shows up as a missing plan, which a TAP
 * reader treats as failure. tap_done() is the exit status: 0 only if
 * every case passed. A case marked with tap_todo() is a known bug: it
 * prints "# TODO" as TAP specifies and does not fail the file, so the
 * bug stays visible without blocking everyone else's runs.
 */
#ifndef TEST_HOST_TAP_H
#define TEST_HOST_TAP_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct tap_state {
	int run;
	int failed;
	const char *todo;	/* reason, for the next case only */
};

static struct tap_state tap_state;

static inline void tap_diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
}

/* The next case is a known failure; 'why' names the bug. */
static inline void tap_todo(const char *why)
{
	tap_state.todo = why;
}

static inline int tap_ok(int pass, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int tap_ok(int pass, const char *fmt, ...)
{
	va_list ap;

	tap_state.run++;
	printf("%sok %d - ", pass ? "" : "not ", tap_state.run);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (tap_state.todo)
		printf(" # TODO %s", tap_state.todo);
	else if (!pass)
		tap_state.failed++;
	tap_state.todo = NULL;
	fputc('\n', stdout);
	/* Keep TAP lines in order with sanitizer reports on stderr. */
	fflush(stdout);
	return pass;
}

/* Equality checks that say what went wrong, not just that it did. */
static inline int tap_eq_int(long long got, long long want, const char *what)
{
	if (!tap_ok(got == want, "%s", what))
		tap_diag("got %lld, want %lld", got, want);
	return got == want;
}

static inline int tap_eq_u64(uint64_t got, uint64_t want, const char *what)
{
	if (!tap_ok(got == want, "%s", what))
		tap_diag("got 0x%llx, want 0x%llx", (unsigned long long)got,
			 (unsigned long long)want);
	return got == want;
}

static inline int tap_eq_str(const char *got, const char *want,
			     const char *what)
{
	int pass = got && want && strcmp(got, want) == 0;

	if (!tap_ok(pass, "%s", what))
		tap_diag("got \"%s\", want \"%s\"", got ? got : "(null)", want);
	return pass;
}

/* Prints the plan; the result is the process exit status. */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_state.run);
	if (tap_state.failed)
		tap_diag("%d of %d failed", tap_state.failed, tap_state.run);
	return tap_state.failed ? 1 : 0;
}

#endif /* TEST_HOST_TAP_H */
