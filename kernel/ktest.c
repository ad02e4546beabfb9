/* kernel/ktest.c: the KTAP runner (see ktest.h). */
#include <stdbool.h>
#include <stdint.h>

#include "kprintf.h"
#include "ktest.h"

extern const struct ktest __ktests_start[], __ktests_end[];

bool ktest_check(struct ktest_ctx *t, bool ok, const char *expr,
		 const char *file, int line)
{
	if (!ok) {
		t->failures++;
		kprintf("    # %s:%d: expected %s\n", file, line, expr);
	}
	return ok;
}

bool ktest_check_eq(struct ktest_ctx *t, uint64_t a, uint64_t b,
		    const char *ea, const char *eb, const char *file, int line)
{
	if (a != b) {
		t->failures++;
		kprintf("    # %s:%d: expected %s == %s, got 0x%lx (%ld) and 0x%lx (%ld)\n",
			file, line, ea, eb, (unsigned long)a, (long)a,
			(unsigned long)b, (long)b);
	}
	return a == b;
}

static bool str_eq(const char *a, const char *b)
{
	if (!a || !b)
		return a == b;
	while (*a && *a == *b) {
		a++;
		b++;
	}
	return *a == *b;
}

bool ktest_check_str(struct ktest_ctx *t, const char *a, const char *b,
		     const char *ea, const char *file, int line)
{
	bool ok = str_eq(a, b);

	if (!ok) {
		t->failures++;
		kprintf("    # %s:%d: expected %s to be \"%s\", got \"%s\"\n",
			file, line, ea, b ? b : "(null)", a ? a : "(null)");
	}
	return ok;
}

void ktest_skip(struct ktest_ctx *t, const char *why)
{
	t->skip = why;
}

static bool selected(const char *name, int n, char **prefixes)
{
	if (!n)
		return true;
	for (int i = 0; i < n; i++) {
		const char *p = prefixes[i], *s = name;

		while (*p && *p == *s) {
			p++;
			s++;
		}
		if (!*p)
			return true;
	}
	return false;
}

int ktest_run(int nprefix, char **prefixes)
{
	int total = 0, failed = 0, i = 0;

	for (const struct ktest *k = __ktests_start; k < __ktests_end; k++)
		total += selected(k->name, nprefix, prefixes);
	kprintf("KTAP version 1\n1..%d\n", total);
	for (const struct ktest *k = __ktests_start; k < __ktests_end; k++) {
		if (!selected(k->name, nprefix, prefixes))
			continue;
		struct ktest_ctx t = { k->name, 0, NULL };

		k->fn(&t);
		i++;
		if (t.skip)
			kprintf("ok %d %s # SKIP %s\n", i, k->name, t.skip);
		else if (t.failures)
			kprintf("not ok %d %s\n", i, k->name);
		else
			kprintf("ok %d %s\n", i, k->name);
		failed += t.failures != 0;
	}
	kprintf("# ktest: %d tests, %d failed\n", total, failed);
	return failed;
}
