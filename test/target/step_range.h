/*
 * test/target/step_range.h: a call single-stepped through a restartable
 * range (kernel/cpu/restart.h) and interrupted, exactly, at the k-th
 * instruction of the range that runs with interrupts unmasked.
 *
 * The step exception (MDSCR_EL1.SS and KDE, PSTATE.D clear; QEMU TCG
 * implements the software step) is taken after each instruction; at
 * the k-th such step in the range the handler does what an IRQ's entry
 * does, the kernel's restart check (exception_restart), then what a
 * handler would: the given traced call. IRQs are masked for the call
 * (no real one lands) and FIQ is not, so the steps where the code in
 * the range masked IRQ and FIQ itself, which no interrupt could reach,
 * are told apart and not interrupted. The range's counter read (MRS
 * Xt, CNTVCT_EL0) gives the ring's last record time plus 'delta', so a
 * run takes the same path however long the steps before it took.
 */
#ifndef TEST_STEP_RANGE_H
#define TEST_STEP_RANGE_H

#include <stdbool.h>
#include <stdint.h>

#define STEP_RANGE_MAX	256	/* instructions of a range that can be followed */

/* Written by the test between runs; the step handler (same CPU) writes
 * the results during one. */
#define STEP_RANGES	4	/* ranges with one restart address */

struct step_range {
	uintptr_t start, end;		/* the ranges' span: index i is start + 4 i */
	uintptr_t from[STEP_RANGES], to[STEP_RANGES];	/* the ranges */
	unsigned int n;
	int (*interrupt)(int);		/* the handler's traced call */
	uint64_t delta;
	unsigned int k;			/* interrupt at the k-th unmasked step */
	/* Results: */
	unsigned int idx;
	bool in, done;
	uintptr_t interrupted_at;	/* 0: the call left the range first */
	uintptr_t resumed_at;		/* where the restart check sent it, or 0 */
	unsigned int handler_calls;
	bool visited[STEP_RANGE_MAX], visited_unmasked[STEP_RANGE_MAX];
	bool interrupted[STEP_RANGE_MAX];
};

extern struct step_range step_st;

/* Fills step_st's ranges with those of .restart_table whose restart
 * address is 'restart'; false if none, or too many or too long. */
bool step_range_of(uintptr_t restart);
/* Whether pc is in one of them. */
bool step_range_in(uintptr_t pc);
/* Installs (on) or removes the step handler. */
void step_range_handler(bool on);
/* fn(3), stepped, with step_st's run results reset first. */
void step_range_call(int (*fn)(int));

#endif /* TEST_STEP_RANGE_H */
