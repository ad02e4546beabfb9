/* test/target/tracecheck.h: reading back what tracers recorded. */
#ifndef TEST_TRACECHECK_H
#define TEST_TRACECHECK_H

#include <stdint.h>

#include "wire.h"

#define CHECK_MAX 256

struct rec {
	unsigned int kind;
	uint64_t ts, site, depth, duration;
	uint64_t caller;	/* kinds 0, 1 (the decoder's, kept for kind 0) */
	int64_t retval;
	uint8_t flags, subtype;
	int paired;		/* an exit written as a return (wire.md 2.1) */
	uint8_t data[48];	/* an extension's body: a 32-byte string fits */
	unsigned int data_len;
};

/* Fresh ring buffers (8 KiB per CPU, overwrite) for a test. */
void check_reset(void);
/* Closes this CPU's block and decodes every record of 'cpu' into out;
 * returns how many (the rest are dropped). */
unsigned int check_collect(unsigned int cpu, struct rec *out, unsigned int max);
int site_of(const char *name);
/* Where the BL at a function's site goes, or 0 if it holds no BL. */
uintptr_t site_bl_target(const char *name);
/* Instructions (the PMU's count: exact under -icount) of 'calls' calls
 * of fn(0), fn(1), ..., interrupts masked; 0 where the PMU counts none. */
uint64_t check_insns_of(int (*fn)(int), unsigned int calls);

#endif /* TEST_TRACECHECK_H */
