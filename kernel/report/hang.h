/*
 * kernel/report/hang.h: reports on a board that seems to hang, while it keeps
 * running: the break key (a BREAK on the console line, or Ctrl-\ twice)
 * prints every CPU's registers and backtrace and dumps the trace; the
 * lockup detector (kernel/report/lockup.c) notices a CPU that takes no timer
 * tick and reports it. One report at a time, from interrupt context.
 */
#ifndef KERNEL_HANG_H
#define KERNEL_HANG_H

#include <stdbool.h>
#include <stdint.h>

#include "outcome.h"

/* How long a report waits for other CPUs to answer its cross-CPU call:
 * one with interrupts masked never does. */
#define HANG_CALL_US	100000

/* The break key's report. The console's receive interrupt calls it. */
void hang_break(void);

/*
 * A report like the break key's that ends the run: "==== baretrace WHO on
 * CPU n: WHY; ...", the outcome marked on this CPU, every CPU's registers
 * and backtrace, the trace dump, then power_end(outcome) (or, with
 * 'reset', the watchdog's reset). The caller holds the report lock
 * (hang_report_begin), in interrupt context. Never returns.
 */
void hang_end_run(enum run_outcome outcome, const char *who, const char *why, bool reset)
	__attribute__((noreturn));
/* Before a report's end of the run: this CPU claims the end
 * (power_claim_end), the other CPUs stop where they are (smp_stop_others;
 * those that do not answer are named, as "the WHO's stop request"), the
 * console writes without its lock. If another CPU already ends the run,
 * nothing is stopped: the caller's power_end() then stops this CPU and
 * the other one finishes. */
void hang_stop_others(const char *who);
/* kernel/report/run_end.c: the host's request to end the run (the console's
 * receive interrupt calls it; docs/serial-line.md): a report, then the
 * run ends with 'outcome' (RUN_INTERRUPT or RUN_HANG). */
void run_end_request(enum run_outcome outcome);

/* One report at a time: begin returns false while another runs (on any
 * CPU); end lets the next one start. hang_reporting says one runs. */
bool hang_report_begin(void);
void hang_report_end(void);
bool hang_reporting(void);

/* Registers of other CPUs: asks every other CPU, through a cross-CPU
 * call, for the registers of the code its interrupt stopped and its
 * backtrace, and records this CPU's own (when in an interrupt) too.
 * Returns the mask of CPUs whose registers were recorded. */
uint64_t hang_gather_regs(void);
/* Prints CPU 'cpu's recorded registers and backtrace. */
void hang_print_regs(unsigned int cpu);
/* The trace core's part (kernel/report/hooks.h), when registered. */
void hang_dump(const char *why);
void hang_last_records(unsigned int cpu, unsigned int n);

/* kernel/report/lockup.c: the calling CPU is busy on purpose with interrupts
 * masked (a long report or dump); its tick starts counting again now. */
void lockup_touch(void);
/* The end of the run: no more lockup reports (power-off drains with
 * interrupts masked for as long as the line needs). */
void lockup_stop(void);

#endif /* KERNEL_HANG_H */
