/*
 * kernel/smp/smp.c: secondary CPU bring-up, handed-over work and the idle
 * loop. Cross-CPU calls and the SGIs are smp_call.c.
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
#include "tls.h"
#include "ktime.h"

#include "board.h"

#define MPIDR_AFF_MASK	0xff00ffffffUL

#define BOOT_TOKEN(mpidr)	((mpidr) | (1UL << BOOT_TOKEN_BIT))

static unsigned int max_cpus = NR_CPUS;

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

/* work_fn while a starter fills in work_arg: busy, but not runnable. */
#define WORK_CLAIMED ((smp_fn)1)

int smp_start(unsigned int cpu, smp_fn fn, void *arg)
{
	if (!cpu_is_online(cpu) || cpu == smp_cpu_id() || !fn)
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
