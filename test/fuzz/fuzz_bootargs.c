/* sources: kernel/bootinfo/bootargs_parse.c kernel/lib/nearest.c */
/*
 * test/fuzz/fuzz_bootargs.c: a bootargs line as arbitrary bytes, through
 * bootargs_split and then bootargs_apply_word for every kernel word, the
 * way bootargs_init uses them.
 *
 * Besides sanitizer findings it checks the promises bootargs.h makes:
 * words stay inside buf and the counts inside their arrays, a failure
 * keeps only whole words and says where it stopped, unknown names never reach a setter,
 * an unknown name's suggestion (nearest.h, as bootargs.c asks for it) is
 * a known name within the limit, and bootargs_parse_ulong agrees with the
 * C library's strtoull on the grammar it documents.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bootargs.h"
#include "fuzz.h"
#include "nearest.h"

static int is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

/*
 * The reference: digits (hex after "0x"), one optional K/M/G, nothing
 * else, value must fit 64 bits. The conversion itself is strtoull's.
 */
static void check_ulong(const char *s)
{
	unsigned long v = 0x5a5a5a5a, want = 0;
	int rc = bootargs_parse_ulong(s, &v);
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *d = s + (hex ? 2 : 0), *e = d;
	int ok = 1;

	while (hex ? is_hex(*e) : (*e >= '0' && *e <= '9'))
		e++;
	unsigned shift = 0;

	if (*e == 'K' || *e == 'k')
		shift = 10;
	else if (*e == 'M' || *e == 'm')
		shift = 20;
	else if (*e == 'G' || *e == 'g')
		shift = 30;
	if (e == d || e[shift ? 1 : 0] != '\0') {
		ok = 0;
	} else {
		errno = 0;
		want = strtoull(d, NULL, hex ? 16 : 10);
		if (errno == ERANGE || (shift && want > (UINT64_MAX >> shift)))
			ok = 0;
		want <<= shift;
	}
	if (ok)
		must(rc == 0 && v == want);
	else
		must(rc == -1 && v == 0x5a5a5a5a);
}

static int calls;

static int set_size(const char *v)
{
	unsigned long n;

	calls++;
	check_ulong(v);
	return bootargs_parse_ulong(v, &n);
}

static int set_level(const char *v)
{
	unsigned long n;

	calls++;
	return bootargs_parse_ulong(v, &n) || n > 7 ? -1 : 0;
}

static int set_flag(const char *v)
{
	calls++;
	return v[0] && strcmp(v, "0") && strcmp(v, "1") ? -1 : 0;
}

static const struct kernel_param table[] = {
	{ "mem", set_size, "" },
	{ "loglevel", set_level, "" },
	{ "quiet", set_flag, "" },
	{ "q", set_flag, "" },	/* a prefix of another name */
};

/* A word must start inside buf and end with a NUL inside buf. */
static void check_word(const struct bootargs *a, const char *w)
{
	must(w >= a->buf && w < a->buf + sizeof(a->buf));
	must(memchr(w, '\0', (size_t)(a->buf + sizeof(a->buf) - w)) != NULL);
}

/* The suggestion for an unknown word: none, or a name of the table at
 * most the limit away (a third of the name's length, 1 to 2 edits). */
static void check_nearest(const char *w)
{
	struct nearest n;
	size_t len = strcspn(w, "=");
	size_t limit = len / 3 < 1 ? 1 : len / 3 > 2 ? 2 : len / 3;

	nearest_start(&n, w, len);
	for (size_t k = 0; k < sizeof(table) / sizeof(table[0]); k++)
		nearest_try(&n, table[k].name);
	if (!n.best)
		return;
	must(n.best == table[0].name || n.best == table[1].name ||
	     n.best == table[2].name || n.best == table[3].name);
	must(nearest_edits(w, len, n.best) <= limit);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *line = malloc(size + 1);
	struct bootargs *a = malloc(sizeof(*a));
	const char *err = NULL;

	memcpy(line, data, size);
	line[size] = '\0';
	memset(a, 0xa5, sizeof(*a));
	int rc = bootargs_split(line, a, &err);

	must(rc == 0 || rc == -1);
	/* A failed split keeps the whole words before the problem. */
	if (rc)
		must(err != NULL && a->ignored_at <= size);
	must(a->nkernel >= 0 && a->napp >= 0 &&
	     a->nkernel + a->napp <= BOOTARGS_MAX_WORDS);
	must(a->app[a->napp] == NULL);
	for (int i = 0; i < a->napp; i++)
		check_word(a, a->app[i]);
	for (int i = 0; i < a->nkernel; i++) {
		check_word(a, a->kernel[i]);
		calls = 0;
		int r = bootargs_apply_word(table, 4, a->kernel[i]);

		must((r == -1 && calls == 0) ||
		     ((r == 0 || r == -2) && calls == 1));
		if (r == -1)
			check_nearest(a->kernel[i]);
	}
	check_ulong(line);
	free(a);
	free(line);
	return 0;
}
