/*
 * tools/baretrace/base/util.h: what every layer of the host tool shares
 * and that uses nothing of it: exit statuses, the CPU limit, messages
 * and dying (util.c), memory that never comes back NULL, output files
 * ("-" is standard output), "did you mean".
 */
#ifndef TOOLS_BARETRACE_BASE_UTIL_H
#define TOOLS_BARETRACE_BASE_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define BT_EXIT_INPUT	1	/* bad input: file, ELF, trace */
#define BT_EXIT_USAGE	2	/* bad command line */
/* stats --diff --fail-above: a function grew past the threshold; ktap: a
 * test failed. */
#define BT_EXIT_OVER	3

#define BT_MAX_CPUS	256	/* the wire's cpu field is a u8 */

/* ---- util.c ------------------------------------------------------------ */

void bt_die(int status, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
void bt_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* PATH opened for writing, or stdout for "-"; bt_out_close: fclose, or
 * a flush for stdout; non-zero on a write error. */
FILE *bt_out_open(const char *path, const char *mode);
int bt_out_close(FILE *f);
/* "baretrace: error: ...": for a failure the caller goes on from (it
 * returns a non-zero status itself). */
void bt_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Called by bt_die(), bt_warn() and bt_error() before they write (capture: a console
 * line left unfinished on stdout is ended first); NULL: nothing. */
extern void (*bt_before_message)(void);
/* Called by bt_die() after a message with status BT_EXIT_USAGE (main.c:
 * the pointer to the command's --help, and it exits); NULL: nothing. */
extern void (*bt_after_usage_error)(void);
void *bt_alloc(size_t n);		/* zeroed; dies when out of memory */
void *bt_grow(void *p, size_t *cap, size_t want, size_t elem);
char *bt_strndup(const void *p, size_t n);
/* "s" unless n is 1: "1 event", "2 events", "0 events". */
/* An option, not a file: "-" alone is standard input or output. */
static inline int bt_is_option(const char *arg)
{
	return arg[0] == '-' && arg[1];
}

static inline const char *bt_plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}
/* The choice nearest word (for "did you mean", by kernel/lib/nearest.h's
 * rule), or NULL. */
const char *bt_nearest(const char *word, const char *const *choices, size_t n);
/* Dies with BT_EXIT_USAGE if both paths name one existing file. */
void bt_refuse_same_file(const char *in, const char *out);
/* An existing regular file at path is renamed path.old first (capture's
 * default file, as perf record keeps perf.data.old); dies if it cannot. */
void bt_keep_old(const char *path);

#endif /* TOOLS_BARETRACE_BASE_UTIL_H */
