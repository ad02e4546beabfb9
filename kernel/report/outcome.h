/*
 * kernel/report/outcome.h: how a run ended. Header only: the host tool
 * reads the same numbers off the wire (docs/wire.md 2.4 and 2.6), and
 * reads this file for their words and exit codes.
 *
 * RUN_EXIT is main() returning (or exit()) with a status; every other
 * outcome is told apart from any status main() can return by its word,
 * which the console's final line ("baretrace: exit status 139 (crash)"),
 * build/run/status and the host tool's outputs carry. The number is the
 * process exit status that stands for it (semihosting, tools/qemu-run):
 * the shell's own where one fits (124 as timeout(1), 128 + the signal
 * otherwise, 2 for a refused command line), so a script that sees only
 * the number still reads it the usual way.
 */
#ifndef KERNEL_OUTCOME_H
#define KERNEL_OUTCOME_H

enum run_outcome {
	RUN_EXIT = 0,		/* main() returned the status */
	RUN_CRASH = 1,		/* an exception nothing handles */
	RUN_PANIC = 2,		/* panic() */
	RUN_HANG = 3,		/* the lockup detector, watchdog=, TIMEOUT= */
	RUN_WATCHDOG = 4,	/* the board reset by its watchdog */
	RUN_INTERRUPT = 5,	/* the user asked the run to end */
	RUN_REFUSED = 6,	/* a boot setting was refused */
	RUN_OUTCOMES
};

/* "exit", "crash", ...; 0 (NULL) for a number outside the enum. */
static inline const char *run_outcome_name(unsigned outcome)
{
	static const char *const names[RUN_OUTCOMES] = {
		"exit", "crash", "panic", "hang", "watchdog", "interrupt", "refused",
	};

	return outcome < RUN_OUTCOMES ? names[outcome] : 0;
}

/* The process exit status for an outcome; status is main()'s (RUN_EXIT). */
static inline int run_outcome_code(unsigned outcome, int status)
{
	static const int codes[RUN_OUTCOMES] = { 0, 139, 134, 124, 137, 130, 2 };

	if (outcome == RUN_EXIT)
		return status;
	return outcome < RUN_OUTCOMES ? codes[outcome] : 1;
}

#endif /* KERNEL_OUTCOME_H */
