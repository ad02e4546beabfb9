/*
 * kernel/smp/smp_call.c: calling across CPUs: the SGIs between them, cross-CPU
 * calls (smp_call, smp_call_others and the bounded forms the reports and
 * the end of a run use), naming CPUs that do not answer, and stopping
 * the others on a crash. Bringing CPUs up and the idle loop are smp.c.
 */
#include <stdbool.h>
#include <stdint.h>

#include <baretrace_events.h>
#include "barrier.h"
#include "irq.h"
#include "kprintf.h"
#include "percpu.h"
#include "smp.h"
#include "spinlock.h"
#include "ktime.h"

/* Serialises callers of smp_call/smp_call_others: one call in flight. */
static struct spinlock smp_call_lock = SPINLOCK_INIT;

static void sgi_call(unsigned int irq, void *arg)
{
	struct percpu *pc = this_cpu();
	/* Taken with an exchange: a caller that gave up on this CPU
	 * (smp_call_others_bounded) takes its call back with a
	 * compare-and-swap, and exactly one of the two wins. */
	smp_fn fn = __atomic_exchange_n(&pc->call_fn, NULL, __ATOMIC_ACQUIRE);

	(void)arg;
	trace_event(ipi, receive, irq);
	if (!fn)
		return;
	fn(pc->call_arg);
	smp_store_release(&pc->call_seq, pc->call_seq + 1);
}

static void sgi_wake(unsigned int irq, void *arg)
{
	(void)irq;
	(void)arg;	/* the idle loop rechecks its work slot */
}

static void sgi_stop(unsigned int irq, void *arg)
{
	(void)irq;
	(void)arg;
	WRITE_ONCE(this_cpu()->online, false);
	irq_disable();
	for (;;)
		wfi();
}

int smp_call(unsigned int cpu, smp_fn fn, void *arg)
{
	if (!cpu_is_online(cpu))
		return -1;
	if (cpu == cpu_id()) {
		unsigned long flags = irq_save();

		fn(arg);
		irq_restore(flags);
		return 0;
	}
	struct percpu *t = cpu_data(cpu);

	spin_lock(&smp_call_lock);
	uint32_t seq = t->call_seq;

	t->call_arg = arg;
	WRITE_ONCE(t->call_fn, fn);
	trace_event(smp, call, cpu, fn);
	trace_event(ipi, send, cpu, SGI_CALL);
	irqchip_send_sgi(SGI_CALL, cpu);
	while (smp_load_acquire(&t->call_seq) == seq)
		cpu_relax();
	spin_unlock(&smp_call_lock);
	return 0;
}

void smp_call_others(smp_fn fn, void *arg)
{
	uint32_t seq[NR_CPUS];
	unsigned int self = cpu_id();

	spin_lock(&smp_call_lock);
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		if (c == self || !cpu_is_online(c))
			continue;
		seq[c] = percpu_data[c].call_seq;
		percpu_data[c].call_arg = arg;
		WRITE_ONCE(percpu_data[c].call_fn, fn);
	}
	trace_event(smp, call, ~0U, fn);	/* cpu ~0: every other CPU */
	trace_event(ipi, send, ~0U, SGI_CALL);
	irqchip_send_sgi_others(SGI_CALL);
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		if (c == self || !cpu_is_online(c))
			continue;
		while (smp_load_acquire(&percpu_data[c].call_seq) == seq[c])
			cpu_relax();
	}
	spin_unlock(&smp_call_lock);
}

uint64_t smp_others_mask(void)
{
	uint64_t m = 0;

	for (unsigned int c = 0; c < NR_CPUS; c++)
		if (c != cpu_id() && cpu_is_online(c))
			m |= 1ULL << c;
	return m;
}

uint64_t smp_call_cpus_bounded(uint64_t cpus, smp_fn fn, void *arg, uint64_t us)
{
	uint64_t end = counter_read() + us * time_counter_hz() / 1000000;
	uint32_t seq[NR_CPUS];
	uint64_t others = smp_others_mask(), asked = cpus & others, answered = 0;

	if (!asked)
		return 0;
	/* The lock's holder may be waiting for this very CPU (which has
	 * interrupts masked here): try, but not past the deadline. */
	while (!spin_trylock(&smp_call_lock))
		if (counter_read() > end)
			return 0;
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		if (!(asked & (1ULL << c)))
			continue;
		seq[c] = percpu_data[c].call_seq;
		percpu_data[c].call_arg = arg;
		WRITE_ONCE(percpu_data[c].call_fn, fn);
	}
	trace_event(smp, call, asked == others ? ~0U : (unsigned int)__builtin_ctzll(asked), fn);
	if (asked == others) {
		trace_event(ipi, send, ~0U, SGI_CALL);
		irqchip_send_sgi_others(SGI_CALL);
	} else {
		for (unsigned int c = 0; c < NR_CPUS; c++) {
			if (!(asked & (1ULL << c)))
				continue;
			trace_event(ipi, send, c, SGI_CALL);
			irqchip_send_sgi(SGI_CALL, c);
		}
	}
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		if (!(asked & (1ULL << c)))
			continue;
		while (smp_load_acquire(&percpu_data[c].call_seq) == seq[c] &&
		       counter_read() < end)
			cpu_relax();
		if (smp_load_acquire(&percpu_data[c].call_seq) != seq[c]) {
			answered |= 1ULL << c;
			continue;
		}
		smp_fn mine = fn;

		/* Take the call back; if the CPU took it first, it is
		 * running it now and bumps call_seq within a few
		 * instructions: wait for that, so the slot is free for the
		 * next caller. */
		if (__atomic_compare_exchange_n(&percpu_data[c].call_fn, &mine, NULL, false,
						__ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			continue;
		while (smp_load_acquire(&percpu_data[c].call_seq) == seq[c])
			cpu_relax();
		answered |= 1ULL << c;
	}
	spin_unlock(&smp_call_lock);
	return answered;
}

uint64_t smp_call_others_bounded(smp_fn fn, void *arg, uint64_t us)
{
	return smp_call_cpus_bounded(smp_others_mask(), fn, arg, us);
}

/* CPUs already named by smp_name_silent: each is named once a run
 * (bits only added, atomically: a patcher on another CPU may name one
 * while the end of the run does). */
static uint64_t named_silent;

void smp_name_silent(uint64_t cpus, const char *what, uint64_t us)
{
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		if (!(cpus & (1ULL << c)) ||
		    (__atomic_fetch_or(&named_silent, 1ULL << c, __ATOMIC_RELAXED) & (1ULL << c)))
			continue;
		kprintf("cpu%u did not answer %s within %lu ms (interrupts masked?)\n",
			c, what, (unsigned long)(us / 1000));
	}
}

uint64_t smp_silent_mask(void)
{
	return __atomic_load_n(&named_silent, __ATOMIC_RELAXED);
}

void smp_sgi_init(void)
{
	irq_register(SGI_CALL, sgi_call, NULL);
	irq_register(SGI_WAKE, sgi_wake, NULL);
	irq_register(SGI_STOP, sgi_stop, NULL);
}

uint64_t smp_stop_others(void)
{
	unsigned int self = cpu_id();
	uint64_t running = 0;
	uint64_t deadline = time_counter() + SMP_STOP_US * time_counter_hz() / 1000000;

	irqchip_send_sgi_others(SGI_STOP);
	/* Each CPU clears its 'online' in sgi_stop before it parks; one
	 * with interrupts masked takes the SGI when it unmasks them, so wait,
	 * but not for ever (it may be crashed or spinning). A second, not
	 * less: under QEMU on a loaded host a vCPU thread can be descheduled
	 * for tens of milliseconds, and only a CPU that never stops costs it. */
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		if (c == self)
			continue;
		while (READ_ONCE(percpu_data[c].online) && time_counter() < deadline)
			cpu_relax();
		if (READ_ONCE(percpu_data[c].online))
			running |= 1ULL << c;
	}
	return running;
}
