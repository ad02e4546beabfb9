/*
 * kernel/ktest.h: in-kernel tests that print KTAP.
 *
 *   KTEST(smp_call_reaches_every_cpu) { KT_EXPECT(t, x == 3); }
 *
 * Tests are collected from every linked file through section .ktests and
 * run in link order by ktest_run(); the output is KTAP version 1 (one
 * line per test, "# " diagnostics for each failed expectation). A test
 * may also skip itself with ktest_skip(t, "why").
 */
#ifndef KERNEL_KTEST_H
#define KERNEL_KTEST_H

#include <stdbool.h>
#include <stdint.h>

struct ktest_ctx {
	const char *name;
	unsigned int failures;
	const char *skip;
};

struct ktest {
	const char *name;
	void (*fn)(struct ktest_ctx *t);
};

#define KTEST(tname)							\
	static void ktest_fn_##tname(struct ktest_ctx *t);		\
	static const struct ktest ktest_##tname				\
	__attribute__((used, section(".ktests"), aligned(8))) =		\
		{ #tname, ktest_fn_##tname };				\
	static void ktest_fn_##tname(struct ktest_ctx *t)

#define KT_EXPECT(t, cond) \
	ktest_check((t), (cond), #cond, __FILE__, __LINE__)
#define KT_EQ(t, a, b) \
	ktest_check_eq((t), (uint64_t)(a), (uint64_t)(b), #a, #b, __FILE__, __LINE__)
#define KT_STREQ(t, a, b) \
	ktest_check_str((t), (a), (b), #a, __FILE__, __LINE__)

bool ktest_check(struct ktest_ctx *t, bool ok, const char *expr,
		 const char *file, int line);
bool ktest_check_eq(struct ktest_ctx *t, uint64_t a, uint64_t b,
		    const char *ea, const char *eb, const char *file, int line);
bool ktest_check_str(struct ktest_ctx *t, const char *a, const char *b,
		     const char *ea, const char *file, int line);
void ktest_skip(struct ktest_ctx *t, const char *why);

/* Runs every test whose name starts with one of the prefixes (all if
 * none), prints KTAP, returns the number of failed tests. */
int ktest_run(int nprefix, char **prefixes);

#endif /* KERNEL_KTEST_H */
