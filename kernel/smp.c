/*
 * kernel/smp.c: secondary CPU bring-up, cross-CPU calls, handed-over
 * work and the idle loop.
 */
#include <stdbool.h>
#include <stdint.h>

#include <baretrace_events.h>
#include "barrier.h"
#include "bootargs.h"
#include "exception.h"
#include "fdt.h"
#include "fdt_dev.h"
#include "irq.h"
#include "kprintf.h"
#include "mmu.h"
#include "percpu.h"
#include "pmu.h"
#include "smp.h"
#include "spinlock.h"
#include "tls.h"
#include "ktime.h"

#include "board.h"

#define MPIDR_AFF_MASK	0xff00ffffffUL

/* Where each CPU's stacks are in its slot of cpu_stack_area (config.h). */
#define SLOT(cpu)		((uintptr_t)cpu_stack_area + (uintptr_t)(cpu) * STACK_SLOT_SIZE)
#define STACK_TOP(cpu)		(SLOT(cpu) + STACK_SLOT_STACK + STACK_SIZE)
#define STACK_LIMIT(cpu)	(SLOT(cpu) + STACK_SLOT_STACK + EXC_ENTRY_RESERVE)
#define EMERGENCY_TOP(cpu)	(SLOT(cpu) + STACK_SLOT_EMERGENCY + EMERGENCY_STACK_SIZE)
#define BOOT_TOKEN(mpidr)	((mpidr) | (1UL << BOOT_TOKEN_BIT))

/* CPU 0's stack fields are there before its first exception can be
 * taken (the vectors check SP against them); boot/head.S puts its SP at
 * boot_stack_top, the same STACK_TOP(0). */
struct percpu percpu_data[NR_CPUS] = {
	[0] = { .stack_top = STACK_TOP(0), .stack_limit = STACK_LIMIT(0),
		.emergency_top = EMERGENCY_TOP(0) },
};
/* Logical ids are dense: CPUs 0 .. nr_cpus_online - 1 are the ones that
 * came up, so every per-CPU array indexed below smp_num_cpus() is
 * complete. Only the boot CPU writes it, in smp_init. */
unsigned int nr_cpus_online = 1;
static unsigned int max_cpus = NR_CPUS;

/* Serialises callers of smp_call/smp_call_others: one call in flight. */
static struct spinlock smp_call_lock = SPINLOCK_INIT;

extern char secondary_entry[];

/* CPUs to start when there is no DTB /cpus (board.h, which every board
 * defines; e.g. QEMU raspi3b passes no DTB). */
static const uint64_t board_cpus[] = BOARD_CPU_MPIDRS;

static int param_maxcpus(const char *val)
{
	unsigned long v;

	if (bootargs_parse_ulong(val, &v) || v < 1 || v > NR_CPUS)
		return -1;
	max_cpus = (unsigned int)v;
	return 0;
}
KERNEL_PARAM("maxcpus", param_maxcpus, "bring up at most N CPUs");

unsigned int smp_cpu_id(void)
{
	return this_cpu()->cpu;
}

unsigned int smp_num_cpus(void)
{
	return READ_ONCE(nr_cpus_online);
}

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

static bool cpu_valid(unsigned int cpu)
{
	return cpu < NR_CPUS && READ_ONCE(percpu_data[cpu].online);
}

int smp_call(unsigned int cpu, smp_fn fn, void *arg)
{
	if (!cpu_valid(cpu))
		return -1;
	if (cpu == smp_cpu_id()) {
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
	unsigned int self = smp_cpu_id();

	spin_lock(&smp_call_lock);
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		if (c == self || !cpu_valid(c))
			continue;
		seq[c] = percpu_data[c].call_seq;
		percpu_data[c].call_arg = arg;
		WRITE_ONCE(percpu_data[c].call_fn, fn);
	}
	trace_event(smp, call, ~0U, fn);	/* cpu ~0: every other CPU */
	trace_event(ipi, send, ~0U, SGI_CALL);
	irqchip_send_sgi_others(SGI_CALL);
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		if (c == self || !cpu_valid(c))
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
		if (c != smp_cpu_id() && cpu_valid(c))
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

/* work_fn while a starter fills in work_arg: busy, but not runnable. */
#define WORK_CLAIMED ((smp_fn)1)

int smp_start(unsigned int cpu, smp_fn fn, void *arg)
{
	if (!cpu_valid(cpu) || cpu == smp_cpu_id() || !fn)
		return -1;
	struct percpu *t = cpu_data(cpu);
	smp_fn none = NULL;

	/* Claim the idle slot (only one starter wins), fill in the argument,
	 * then publish the function: the idle CPU's acquire load of work_fn
	 * sees work_arg. A busy CPU's running work keeps its argument. */
	if (!__atomic_compare_exchange_n(&t->work_fn, &none, WORK_CLAIMED, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return -1;
	t->work_arg = arg;
	smp_store_release(&t->work_fn, fn);
	irqchip_send_sgi(SGI_WAKE, cpu);
	return 0;
}

void smp_wait(unsigned int cpu)
{
	if (cpu >= NR_CPUS)
		return;
	while (smp_load_acquire(&percpu_data[cpu].work_fn))
		wfe();
}

/* Called by idle CPUs after every wake-up (set once, before use). */
static bool (*idle_hook)(void);

void smp_set_idle_hook(bool (*fn)(void))
{
	smp_store_release(&idle_hook, fn);
}

static void __attribute__((noreturn)) idle_loop(void)
{
	struct percpu *pc = this_cpu();

	for (;;) {
		bool (*hook)(void) = smp_load_acquire(&idle_hook);
		/* The hook returns early when work arrives, or to let the
		 * loop look: true says it has more to do, so no WFI then. */
		bool more = hook && !READ_ONCE(pc->work_fn) && hook();
		smp_fn fn = smp_load_acquire(&pc->work_fn);

		if (fn == WORK_CLAIMED)
			continue;	/* the starter is between claim and publish */
		if (fn) {
			fn(pc->work_arg);
			smp_store_release(&pc->work_fn, NULL);
			dsb_ish();
			sev();		/* wake smp_wait() */
			continue;
		}
		if (more)
			continue;
		/* Masked WFI: a wake-up SGI that arrives between the check
		 * and the WFI stays pending and ends the WFI. */
		irq_disable();
		if (!READ_ONCE(pc->work_fn))
			wfi();
		irq_enable();
	}
}

/* Entered with the MMU on (boot/head.S turned it on before the stack
 * was first used) and the slot claimed. */
void boot_secondary(void)
{
	struct percpu *pc = this_cpu();

	exception_init_cpu();
	tls_init_cpu();
	pmu_init();
	irq_init_cpu();
	time_init_cpu();
	smp_store_release(&pc->online, true);
	irq_enable();
	idle_loop();
}

static void smp_sgi_init(void)
{
	irq_register(SGI_CALL, sgi_call, NULL);
	irq_register(SGI_WAKE, sgi_wake, NULL);
	irq_register(SGI_STOP, sgi_stop, NULL);
}

uint64_t smp_stop_others(void)
{
	unsigned int self = smp_cpu_id();
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

/*
 * Starts the CPU 'mpidr' as logical CPU 'cpu'. Returns true when it came
 * up, false when it did not: its slot is then free for the next CPU
 * (ids stay dense). A CPU that was started but is late parks itself in
 * boot/head.S when it finds the slot's boot_token is not its own.
 */
static bool start_cpu(unsigned int cpu, uint64_t mpidr)
{
	struct percpu *pc = cpu_data(cpu);
	uint64_t token = BOOT_TOKEN(mpidr);

	pc->cpu = cpu;
	pc->mpidr = mpidr;
	pc->stack_top = STACK_TOP(cpu);
	pc->stack_limit = STACK_LIMIT(cpu);
	pc->emergency_top = EMERGENCY_TOP(cpu);
	/* No cache maintenance: the new CPU reads *pc only once its MMU
	 * and caches are on (boot/head.S), so it sees these stores. */
	smp_store_release(&pc->boot_token, token);
	if (cpu_boot(mpidr, (uintptr_t)secondary_entry, (uintptr_t)pc))
		return false;
	uint64_t deadline = time_counter() + time_counter_hz();	/* 1 s */

	while (!smp_load_acquire(&pc->online)) {
		if (time_counter() > deadline &&
		    __atomic_compare_exchange_n(&pc->boot_token, &token, BOOT_ABANDONED,
						false, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
			kprintf("smp: CPU %lx did not come up; its id %u goes to the next\n",
				(unsigned long)mpidr, cpu);
			return false;
		}
		/* Once the CPU has claimed the slot (token gone) it is ours:
		 * it runs boot_secondary, which ends by setting 'online'. */
		cpu_relax();
	}
	return true;
}

void smp_init(const void *fdt)
{
	uint64_t self = read_sysreg(mpidr_el1) & MPIDR_AFF_MASK;
	int cpus = fdt ? fdt_path(fdt, "/cpus") : -1;
	int len, acells = 1;
	const void *p = cpus >= 0 ? fdt_prop(fdt, cpus, "#address-cells", &len) : NULL;

	percpu_data[0].mpidr = self;
	smp_sgi_init();
	if (p && len == 4)
		acells = (int)fdt_be32(p);
	for (int n = cpus >= 0 ? fdt_first_child(fdt, cpus) : -1; n >= 0;
	     n = fdt_next_sibling(fdt, n)) {
		const void *reg = fdt_prop(fdt, n, "reg", &len);

		if (!fdt_prop_has_string(fdt, n, "device_type", "cpu") || !reg ||
		    len < 4 * acells)
			continue;
		uint64_t mpidr = fdt_cells(reg, acells) & MPIDR_AFF_MASK;

		if (mpidr == self || nr_cpus_online >= max_cpus ||
		    !fdt_cpu_startable(fdt, n))
			continue;
		if (start_cpu(nr_cpus_online, mpidr))
			nr_cpus_online++;
	}
	for (unsigned int i = 0; cpus < 0 && i < sizeof(board_cpus) / sizeof(board_cpus[0]); i++)
		if (board_cpus[i] != self && nr_cpus_online < max_cpus &&
		    start_cpu(nr_cpus_online, board_cpus[i]))
			nr_cpus_online++;
	kprintf("smp: %u CPUs online\n", nr_cpus_online);
}
