/* test/target/test_api_lock.c: include/baretrace/lock.h, the public
 * spinlocks and interrupt-safe sections, and per-CPU data
 * (include/baretrace/percpu.h). Only the public header: what an
 * application sees. The boot stage also runs these under multi-threaded
 * TCG, where the CPUs truly run at once. */
#include <stdint.h>

#include <baretrace.h>

#include "ktest.h"

#define ROUNDS 20000

static bt_spinlock api_lock = BT_SPINLOCK_INIT;
static uint64_t api_counter;	/* guarded by api_lock, plain ++ */
static uint64_t hook_hits;	/* guarded by api_lock */
static volatile int hook_on;	/* the tick hook takes the lock only then */

static void hammer(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		bt_spin_lock(&api_lock);
		api_counter++;
		bt_spin_unlock(&api_lock);
	}
}

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

KTEST(api_lock_counts_exactly_under_contention)
{
	api_counter = 0;
	KT_EQ(t, start_others(hammer), smp_num_cpus() - 1);
	hammer(NULL);
	wait_others();
	KT_EQ(t, api_counter, (uint64_t)smp_num_cpus() * ROUNDS);
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
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		unsigned long f = bt_spin_lock_irqsave(&api_lock);

		api_counter++;
		bt_spin_unlock_irqrestore(&api_lock, f);
		if (i % 1000 == 0)
			time_delay_us(200);	/* let ticks land between rounds */
	}
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
	KT_EQ(t, start_others(hammer_irqsave), smp_num_cpus() - 1);
	hammer_irqsave(NULL);
	/* at least one tick on this CPU while the hook is on */
	time_wait_tick(time_ticks(), 1000000);
	wait_others();
	hook_on = 0;
	bt_spin_lock(&api_lock);
	KT_EQ(t, api_counter, (uint64_t)smp_num_cpus() * ROUNDS + hook_hits);
	KT_EXPECT(t, hook_hits > 0);
	bt_spin_unlock(&api_lock);
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
