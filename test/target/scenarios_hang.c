/*
 * test/target/scenarios_hang.c: a board that seems to hang, read from
 * the console by test/hang_scenarios.py:
 *   spin SECONDS     CPU 0 (main) and CPU 1 spin with interrupts on,
 *                    calling traced functions, for SECONDS, while the
 *                    host sends the break key; then "spin: done"
 *   lockup CPU MS    CPU 'CPU' spins MS milliseconds with interrupts
 *                    masked, calling hang_masked_step; the others run
 *                    on; then "lockup: CPU n back after MS ms"
 *   stuck CPU [panic]
 *                    CPU 'CPU' spins for good with interrupts masked,
 *                    calling hang_masked_step once every 20000 turns of
 *                    an empty loop (few events: the idle CPUs export
 *                    them for the whole end-of-run wait; counted in
 *                    instructions, not time, which under -icount depends
 *                    on how QEMU schedules the CPUs); once it has made
 *                    1000 calls main returns (or panics), and the end of
 *                    the run must not wait for it (issue 22)
 *   lockexit         main returns while a lockup report runs on another
 *                    CPU: CPU 2 spins for good with interrupts masked;
 *                    CPU 0 masks its own a few ticks later (so another
 *                    CPU notices CPU 2 first), waits until the report
 *                    has begun, and returns (issue 39: the report then
 *                    stopped the CPU ending the run, and nothing ended it)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <baretrace.h>

#include "barrier.h"
#include "exception.h"
#include "hang.h"
#include "irq.h"
#include "target.h"

#define NOIPA __attribute__((noipa))

static volatile int spin_stop;

/* Separate, traced functions: the names the reports must show. */
NOIPA int hang_spin_step(int x) { return tt_alpha(x) + 1; }
NOIPA int hang_masked_step(int x) { return tt_beta(x) + 1; }

static NOIPA void hang_spin_other(void *arg)
{
	(void)arg;
	for (int i = 0; !spin_stop; i++)
		tt_gamma(i);
}

static NOIPA void hang_spin_main(uint64_t end)
{
	for (int i = 0; time_ns() < end; i++)
		hang_spin_step(i);
}

int scenario_spin(unsigned int seconds)
{
	if (smp_num_cpus() > 1)
		smp_start(1, hang_spin_other, NULL);
	printf("spin: CPUs 0 and 1 spin %u s with interrupts on\n", seconds);
	hang_spin_main(time_ns() + (uint64_t)seconds * 1000000000ULL);
	spin_stop = 1;
	if (smp_num_cpus() > 1)
		smp_wait(1);
	printf("spin: done\n");
	return 0;
}

static unsigned int masked_ms;

static NOIPA void hang_masked_spin(void *arg)
{
	uint64_t end = time_ns() + (uint64_t)masked_ms * 1000000;
	unsigned long flags = irq_save();

	(void)arg;
	for (int i = 0; time_ns() < end; i++)
		hang_masked_step(i);
	irq_restore(flags);
}

int scenario_lockup(const char *cpu_arg, const char *ms_arg)
{
	unsigned int cpu = (unsigned int)strtoul(cpu_arg, NULL, 0);

	masked_ms = (unsigned int)strtoul(ms_arg, NULL, 0);
	if (cpu == 0 || cpu >= smp_num_cpus()) {
		printf("lockup: no CPU %u to run on (1 to %u)\n", cpu, smp_num_cpus() - 1);
		return 2;
	}
	printf("lockup: CPU %u masks interrupts for %u ms\n", cpu, masked_ms);
	smp_start(cpu, hang_masked_spin, NULL);
	smp_wait(cpu);
	printf("lockup: CPU %u back after %u ms\n", cpu, masked_ms);
	return 0;
}

/*
 * lockcrash MS: a crash while the lockup detector is dumping. CPU 2
 * masks interrupts (a lockup, as 'lockup 2 ...'), CPU 0 keeps the rings
 * full; CPU 3, interrupts masked too so it is not the CPU reporting,
 * waits until the report has begun, then MS milliseconds more, and
 * loads from an unmapped address: a crash while the reporter holds the
 * report and dump locks with interrupts masked. The rings are filled
 * first, so the dump takes seconds of printing (thousands of lines, each
 * costing far more than a microsecond of guest time on any host); where
 * the crash landed is read back from the console by the host check.
 */
static unsigned int lockcrash_ms;

static NOIPA void lockcrash_crash(void *arg)
{
	(void)arg;
	irq_save();
	while (!hang_reporting())
		cpu_relax();
	for (uint64_t end = time_ns() + (uint64_t)lockcrash_ms * 1000000; time_ns() < end;)
		cpu_relax();
	crash_null_deref((volatile uint32_t *)0x1000);	/* unmapped */
}

int scenario_lockcrash(const char *ms_arg)
{
	lockcrash_ms = (unsigned int)strtoul(ms_arg, NULL, 0);
	if (smp_num_cpus() < 4) {
		printf("lockcrash: needs 4 CPUs\n");
		return 2;
	}
	masked_ms = 60000;
	/* Rings full first, so the report's dump is long (seconds). */
	for (int i = 0; i < 400000; i++)
		hang_spin_step(i);
	printf("lockcrash: CPU 2 masks interrupts; CPU 3 crashes %u ms into the report\n",
	       lockcrash_ms);
	smp_start(2, hang_masked_spin, NULL);
	smp_start(3, lockcrash_crash, NULL);
	for (int i = 0;; i++)
		hang_spin_step(i);
}

static volatile unsigned long stuck_calls;

static NOIPA void hang_stuck_spin(void *arg)
{
	(void)arg;
	irq_save();	/* for good: this CPU answers no interrupt again */
	for (int i = 0;; i++) {
		hang_masked_step(i);
		stuck_calls++;
		for (volatile int k = 0; k < 20000; k++)
			;
	}
}

int scenario_stuck(const char *cpu_arg, const char *then)
{
	unsigned int cpu = (unsigned int)strtoul(cpu_arg, NULL, 0);

	if (cpu == 0 || cpu >= smp_num_cpus()) {
		printf("stuck: no CPU %u to run on (1 to %u)\n", cpu, smp_num_cpus() - 1);
		return 2;
	}
	smp_start(cpu, hang_stuck_spin, NULL);
	while (stuck_calls < 1000)
		;
	printf("stuck: CPU %u spins with interrupts masked after %lu calls; main %s\n", cpu,
	       stuck_calls, then ? "panics" : "returns");
	if (then)
		panic("stuck: main panics while CPU %u spins masked", cpu);
	return 0;
}

static volatile int lockexit_masked;

static NOIPA void lockexit_spin(void *arg)
{
	(void)arg;
	irq_save();	/* for good */
	lockexit_masked = 1;
	for (int i = 0;; i++)
		hang_masked_step(i);
}

int scenario_lockexit(void)
{
	if (smp_num_cpus() < 4) {
		printf("lockexit: needs 4 CPUs\n");
		return 2;
	}
	smp_start(2, lockexit_spin, NULL);
	while (!lockexit_masked)
		cpu_relax();
	/* Five ticks after CPU 2 masked: its silence is 50 ms older than
	 * this CPU's, so a CPU that notices sees CPU 2's first. */
	for (uint64_t t = time_ticks(); time_ticks() < t + 5;)
		cpu_relax();
	/* Masked from here to the end of the run: the report's calls and
	 * its stop request must not stop this CPU before main() has
	 * returned (unmasked, the stop could come before or after the
	 * line, by how long the report's lines took). This CPU goes
	 * silent 50 ms after CPU 2 does; the detector reports the CPU
	 * silent longest (kernel/report/lockup.c), CPU 2. */
	(void)irq_save();
	while (!hang_reporting())
		cpu_relax();
	printf("lockexit: a lockup report has begun; main returns\n");
	return 0;
}
