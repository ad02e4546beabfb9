/*
 * kernel/report/power.h: leaving the machine. power_exit() and power_reset()
 * are in <baretrace.h>; the hardware side is the board's.
 */
#ifndef KERNEL_POWER_H
#define KERNEL_POWER_H

#include <stdbool.h>

#include <baretrace.h>

#include "outcome.h"

/* Ends the run as power_exit() does, with how it ended: the final line
 * is "baretrace: exit status N" for RUN_EXIT (N = status, main()'s)
 * and "baretrace: exit status CODE (WORD)" otherwise, CODE being
 * run_outcome_code()'s, which semihosting also hands to QEMU. RUN_EXIT
 * after another outcome was marked (power_mark_outcome: a report that
 * began before main() returned) ends with that one: the final line
 * agrees with the trace's records. */
void power_end(enum run_outcome outcome, int status) __attribute__((noreturn));

/* Marks how the run ends, where it happens (the trace core's hook, see
 * hooks.h): the first call of a run counts, later ones do nothing.
 * power_end() calls it too, for whatever path did not mark first. */
void power_mark_outcome(enum run_outcome outcome, int status);
/* A CPU has begun ending the run (power_end, a reset): another CPU that
 * gets there stops where it is. */
bool power_ending(void);
/* Claims the end of the run for this CPU before it stops the others (a
 * report about to end the run): true if the end is this CPU's (now or
 * already), false if another CPU ends the run, which must then not be
 * stopped (its power_end is the one that finishes; this CPU's would
 * stop where it is). */
bool power_claim_end(void);
/* The outcome marked so far, RUN_OUTCOMES when none. */
enum run_outcome power_marked_outcome(void);

/* A watchdog's reset (watchdog=S,reset): drains the trace, says
 * "(watchdog)" on the final line and resets the board; the next boot
 * reads that it came from a watchdog (persist_prev_outcome). */
void power_watchdog_reset(void) __attribute__((noreturn));

/* Board side (drivers/psci.c or a board's own). Return only on failure. */
void hw_power_off(void);
void hw_reset(void);

#endif /* KERNEL_POWER_H */
