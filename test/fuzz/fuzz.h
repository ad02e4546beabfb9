/*
 * test/fuzz/fuzz.h: what every fuzz target shares. Included once per
 * target (each is its own program).
 */
#ifndef TEST_FUZZ_H
#define TEST_FUZZ_H

#include <stdlib.h>

/* Make UBSan findings fatal even when built without
 * -fno-sanitize-recover, so libFuzzer stops and saves the input. */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1";
}

/* An invariant the target checks: a failure is a crash to libFuzzer. */
static inline void must(int ok)
{
	if (!ok)
		abort();
}

#endif /* TEST_FUZZ_H */
