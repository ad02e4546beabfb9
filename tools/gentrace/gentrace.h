/*
 * tools/gentrace/gentrace.h: what gentrace's parts share (see main.c for
 * the command line and the modes).
 *
 * frames.c writes the wire format's frames (metadata, symbol dumps, data
 * blocks cut as the target's ring cuts them); walk.c draws each CPU's
 * random call tree; coverage.c writes MODE coverage's frames. One thread:
 * the globals below are set by main() before the first frame is written.
 */
#ifndef GENTRACE_H
#define GENTRACE_H

#include <stdint.h>
#include <stdio.h>

#include "../../wire/wire.h"

#define NSITES		1500	/* sites, unless MODE coverage says */
#define BLOCK_BODY	1000	/* bytes of records per block, as the ring's 1 KiB */
#define MAX_CPUS	64
#define MAX_DEPTH	12

struct cpu {
	uint64_t ts, events, blocks;
	uint64_t first;			/* first event of the open block */
	uint64_t base;			/* its base time */
	uint8_t body[BLOCK_BODY + 64];
	struct wire_out o;
	unsigned depth;
	uint64_t site[MAX_DEPTH], start[MAX_DEPTH];
	/* The target's return rule (wire.md 2.1): the block's open graph
	 * entries, (block + 1) << 16 | count, as the ring's graph_open;
	 * each call's value after its entry (0: no entry recorded), and
	 * that of the last entry record() wrote. */
	uint64_t open, key[MAX_DEPTH], entry_key;
	uint64_t last_caller;		/* kind 0 while it stays the same */
	uint64_t last_site;
};

/* frames.c */
extern FILE *out;
extern uint64_t nsites;
extern uint32_t image_hash, have_hash;	/* coverage,hash=: the metadata names it */
extern int cxx_names;			/* MODE ",c++" */
void put_frame(unsigned type, unsigned cpu, uint64_t seq, const uint8_t *body, size_t len);
void put_meta(unsigned ncpus, unsigned version);
void put_symbols(void);
void block_open(struct cpu *c);
void block_close(struct cpu *c, unsigned cpu);
void record(struct cpu *c, unsigned cpu, struct wire_record *r, uint64_t ts);

/* walk.c */
extern uint64_t rng;
extern uint64_t slow_cpu, slowness;
extern int exits_only;
uint64_t rnd(void);
void step(struct cpu *c, unsigned cpu, int graph);

/* coverage.c */
int coverage(const char *path, const char *mode, uint64_t reached);

#endif /* GENTRACE_H */
