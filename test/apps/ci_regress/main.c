/*
 * test/apps/ci_regress/main.c: a small workload on CPU 0 for the exact CI
 * gate (test/ci_exact.py, docs/ci.md): two builds of it differ by one
 * compile-time switch, and `baretrace stats --diff` of their make ci
 * traces must name exactly what the switch changed.
 *
 *   -DCI_EXTRA_LOOP=1  ci_mix runs its loop once more (the data word
 *                      ci_mix_rounds is one higher; the code is the same
 *                      instructions at the same addresses)
 *   -DCI_SWAP_CALL=1   ci_step calls ci_helper_new instead of
 *                      ci_helper_old (a call that appears, one that goes)
 *
 * Everything runs on CPU 0 while the other CPUs idle, in well under one
 * timer tick, so the run's instruction counts are its own.
 */
#include <stdint.h>
#include <stdio.h>

#define CI_FN __attribute__((noipa))

#ifndef CI_EXTRA_LOOP
#define CI_EXTRA_LOOP 0
#endif
#ifndef CI_SWAP_CALL
#define CI_SWAP_CALL 0
#endif

#define CI_STEPS	8

/* Read through volatile, so the compiler cannot count the loop itself:
 * the switch changes this word only. */
static volatile uint32_t ci_mix_rounds = 40 + CI_EXTRA_LOOP;

CI_FN uint32_t ci_mix(uint32_t x)
{
	uint32_t n = ci_mix_rounds;

	for (uint32_t i = 0; i < n; i++)
		x = (x ^ (x >> 7)) * 0x9e3779b1u + i;
	return x;
}

CI_FN uint32_t ci_helper_old(uint32_t x)
{
	return x * 3u + 1u;
}

CI_FN uint32_t ci_helper_new(uint32_t x)
{
	return x * 5u + 7u;
}

CI_FN uint32_t ci_fold(uint32_t a, uint32_t b)
{
	return (a << 5 | a >> 27) ^ b;
}

CI_FN uint32_t ci_step(uint32_t acc, uint32_t i)
{
	uint32_t h = CI_SWAP_CALL ? ci_helper_new(acc + i) : ci_helper_old(acc + i);

	return ci_fold(acc, h);
}

CI_FN uint32_t ci_run(void)
{
	uint32_t acc = 0x12345678u;

	for (uint32_t i = 0; i < CI_STEPS; i++)
		acc = ci_step(acc, i);
	return ci_fold(acc, ci_mix(acc));
}

int main(void)
{
	uint32_t r = ci_run();

	printf("ci_regress: result %08x\n", (unsigned int)r);
	return 0;
}
