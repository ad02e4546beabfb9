/*
 * tools/baretrace/base/util.c: messages, exit statuses and memory for the
 * host tool. Out of memory is fatal: the tool holds bounded state, so
 * running out means something is badly wrong, not a case to recover.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "nearest.h"
#include "util.h"

void (*bt_before_message)(void);
void (*bt_after_usage_error)(void);

/* Whoever writes stdout may need to end a line before a message. */
static void before_message(void)
{
	if (bt_before_message)
		bt_before_message();
	fflush(stdout);
}

void bt_die(int status, const char *fmt, ...)
{
	va_list ap;

	before_message();
	fputs("baretrace: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	if (status == BT_EXIT_USAGE && bt_after_usage_error)
		bt_after_usage_error();
	exit(status);
}

void bt_warn(const char *fmt, ...)
{
	va_list ap;

	before_message();
	fputs("baretrace: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void bt_error(const char *fmt, ...)
{
	va_list ap;

	before_message();
	fputs("baretrace: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

FILE *bt_out_open(const char *path, const char *mode)
{
	return strcmp(path, "-") ? fopen(path, mode) : stdout;
}

int bt_out_close(FILE *f)
{
	if (f == stdout)
		return fflush(f) || ferror(f);
	return fclose(f);
}

void *bt_alloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		bt_die(BT_EXIT_INPUT, "out of memory (%zu bytes)", n);
	return p;
}

/* Makes room for 'want' elements, doubling; new elements are zeroed. */
void *bt_grow(void *p, size_t *cap, size_t want, size_t elem)
{
	size_t n = *cap ? *cap : 16;

	if (want <= *cap)
		return p;
	while (n < want)
		n *= 2;
	p = realloc(p, n * elem);
	if (!p)
		bt_die(BT_EXIT_INPUT, "out of memory (%zu elements)", n);
	memset((char *)p + *cap * elem, 0, (n - *cap) * elem);
	*cap = n;
	return p;
}

char *bt_strndup(const void *s, size_t n)
{
	char *p = bt_alloc(n + 1);

	memcpy(p, s, n);
	return p;
}

void bt_refuse_same_file(const char *in, const char *out)
{
	struct stat a, b;

	/* Checked before the output is opened: opening it for writing
	 * would truncate the input already. A missing name (no --log, a
	 * --qemu source) has nothing to compare; nor has "-" (a stream). */
	if (in && out && strcmp(in, "-") && strcmp(out, "-") && !stat(in, &a) && !stat(out, &b) && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
		bt_die(BT_EXIT_USAGE, "the output %s is the input %s: refusing to overwrite it",
		       out, in);
}

/* The host tool's "did you mean": the kernel's search (kernel/lib/
 * nearest.c), so the tool, make's check and the target agree on what
 * is near and which of two as near names wins (the first in strcmp
 * order). */
const char *bt_nearest(const char *word, const char *const *choices, size_t n)
{
	struct nearest near;

	nearest_start(&near, word, strlen(word));
	for (size_t i = 0; i < n; i++)
		nearest_try(&near, choices[i]);
	return near.best;
}

void bt_keep_old(const char *path)
{
	char old[4096];
	struct stat st;

	snprintf(old, sizeof(old), "%s.old", path);
	if (!stat(path, &st) && S_ISREG(st.st_mode) && rename(path, old))
		bt_die(BT_EXIT_INPUT, "cannot rename the old %s to %s: %m", path, old);
}
