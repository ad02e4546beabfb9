/* test/target/test_api_lock.c: include/baretrace/lock.h, the public
 * spinlocks and interrupt-safe sections, and per-CPU data
 * (include/baretrace/percpu.h). Only the public header: what an
 * application sees. The boot stage also runs these under multi-threaded
 * TCG, where the CPUs truly run at once. */
#include <stdint.h>

#include <baretrace.h>

#include "ktest.h"

/* Each CPU takes the lock for RUN_MS of the generic counter, not a fixed
 * number of times: with more vCPU threads than host cores a ticket lock
 * hands over only as fast as the host schedules the next waiter (seen:
 * about a hundred handovers a second under multi-threaded TCG on a busy
 * 2-core host), so a fixed count could take minutes. The verdict is
 * exact either way: the shared total equals the sum of every CPU's own
 * count. */
#define RUN_MS 100

static bt_spinlock api_lock = BT_SPINLOCK_INIT;
static uint64_t api_counter;	/* guarded by api_lock, plain ++ */
static uint64_t hook_hits;	/* guarded by api_lock */
static volatile int hook_on;	/* the tick hook takes the lock only then */
static uint64_t api_deadline;	/* counter value; set before the CPUs start */
static BT_PER_CPU(uint64_t, api_rounds);	/* each CPU's own count */

static void hammer(void *arg)
{
	uint64_t n = 0;

	(void)arg;
	do {
		bt_spin_lock(&api_lock);
		api_counter++;
		bt_spin_unlock(&api_lock);
		n++;
	} while (time_counter() < api_deadline);
	bt_this_cpu(api_rounds) = n;
}

/* Runs fn on every CPU until RUN_MS from now; the sum of their rounds. */
static uint64_t run_everywhere(struct ktest_ctx *t, smp_fn fn)
{
	unsigned int started = 0;
	uint64_t sum = 0;

	api_deadline = time_counter() + time_counter_hz() * RUN_MS / 1000;
	for (unsigned int c = 0; c < BT_MAX_CPUS; c++)
		bt_per_cpu(api_rounds, c) = 0;
	for (unsigned int c = 1; c < smp_num_cpus(); c++)
		started += smp_start(c, fn, NULL) == 0;
	KT_EQ(t, started, smp_num_cpus() - 1);
	fn(NULL);
	for (unsigned int c = 1; c < smp_num_cpus(); c++)
		smp_wait(c);
	for (unsigned int c = 0; c < smp_num_cpus(); c++) {
		KT_EXPECT(t, bt_per_cpu(api_rounds, c) > 0);
		sum += bt_per_cpu(api_rounds, c);
	}
	return sum;
}

KTEST(api_lock_counts_exactly_under_contention)
{
	api_counter = 0;
	uint64_t sum = run_everywhere(t, hammer);

	KT_EQ(t, api_counter, sum);
}

/* The tick interrupt takes the same lock on every CPU: a thread holding
 * it without masking interrupts would deadlock against its own tick. */
static void tick_takes_lock(unsigned int cpu, uint64_t tick)
{
	(void)cpu;
	(void)tick;
	if (!hook_on)
		return;
	bt_spin_lock(&api_lock);
	api_counter++;
	hook_hits++;
	bt_spin_unlock(&api_lock);
}

static void hammer_irqsave(void *arg)
{
	uint64_t n = 0;

	(void)arg;
	do {
		unsigned long f = bt_spin_lock_irqsave(&api_lock);

		api_counter++;
		bt_spin_unlock_irqrestore(&api_lock, f);
		if (++n % 256 == 0)
			time_delay_us(50);	/* let ticks land between rounds */
	} while (time_counter() < api_deadline);
	bt_this_cpu(api_rounds) = n;
}

KTEST(api_lock_irqsave_excludes_interrupt_handlers)
{
	static int hooked;

	if (!hooked) {
		KT_EQ(t, time_tick_hook(tick_takes_lock), 0);
		hooked = 1;
	}
	api_counter = hook_hits = 0;
	hook_on = 1;
	uint64_t sum = run_everywhere(t, hammer_irqsave);

	/* at least one tick on this CPU while the hook is on */
	time_wait_tick(time_ticks(), 1000000);
	hook_on = 0;
	unsigned long f = bt_spin_lock_irqsave(&api_lock);

	KT_EQ(t, api_counter, sum + hook_hits);
	KT_EXPECT(t, hook_hits > 0);
	bt_spin_unlock_irqrestore(&api_lock, f);
}

KTEST(api_trylock_and_irq_sections)
{
	bt_spinlock l = BT_SPINLOCK_INIT;

	KT_EXPECT(t, bt_spin_trylock(&l));
	KT_EXPECT(t, !bt_spin_trylock(&l));	/* held: refused */
	bt_spin_unlock(&l);
	KT_EXPECT(t, bt_spin_trylock(&l));
	bt_spin_unlock(&l);

	KT_EXPECT(t, !bt_irqs_masked());	/* thread context, main() */
	unsigned long outer = bt_irq_save();

	KT_EXPECT(t, bt_irqs_masked());
	unsigned long inner = bt_irq_save();

	bt_irq_restore(inner);
	KT_EXPECT(t, bt_irqs_masked());	/* the inner restore keeps it masked */
	/* No tick is handled on this CPU inside the section. */
	uint64_t ticks = time_ticks();

	time_delay_us(3 * 1000000 / time_tick_hz());
	KT_EQ(t, time_ticks(), ticks);
	bt_irq_restore(outer);
	KT_EXPECT(t, !bt_irqs_masked());
	time_wait_tick(ticks, 1000000);	/* the held-back tick comes now */
	KT_EXPECT(t, time_ticks() > ticks);
}

static BT_PER_CPU(uint64_t, api_slot);

static unsigned int start_others(smp_fn fn)
{
	unsigned int started = 0;

	for (unsigned int c = 1; c < smp_num_cpus(); c++)
		started += smp_start(c, fn, NULL) == 0;
	return started;
}

static void wait_others(void)
{
	for (unsigned int c = 1; c < smp_num_cpus(); c++)
		smp_wait(c);
}

static void fill_slot(void *arg)
{
	(void)arg;
	for (unsigned int i = 0; i <= smp_cpu_id() * 1000; i++)
		bt_this_cpu(api_slot)++;
}

KTEST(api_percpu_slots_are_separate_lines)
{
	unsigned int n = smp_num_cpus();

	KT_EXPECT(t, n <= BT_MAX_CPUS);
	for (unsigned int c = 0; c < BT_MAX_CPUS; c++)
		bt_per_cpu(api_slot, c) = 0;
	KT_EQ(t, start_others(fill_slot), n - 1);
	fill_slot(NULL);
	wait_others();
	for (unsigned int c = 0; c < BT_MAX_CPUS; c++)
		KT_EQ(t, bt_per_cpu(api_slot, c), c < n ? c * 1000 + 1 : 0);
	for (unsigned int c = 1; c < BT_MAX_CPUS; c++)
		KT_EQ(t, (uintptr_t)&bt_per_cpu(api_slot, c) - (uintptr_t)&bt_per_cpu(api_slot, c - 1),
		      BT_PERCPU_ALIGN);
	KT_EQ(t, (uintptr_t)&bt_per_cpu(api_slot, 0) % BT_PERCPU_ALIGN, 0);
}
