/*
 * kernel/cpu/percpu.h: per-CPU data, reached through TPIDR_EL1.
 *
 * Each CPU's TPIDR_EL1 holds the address of its own struct percpu from
 * the moment it enters C until power-off. Fields are written only by the
 * owning CPU unless a comment says otherwise.
 */
#ifndef KERNEL_PERCPU_H
#define KERNEL_PERCPU_H

#include <stdbool.h>
#include <stdint.h>

#include <baretrace.h>

#include "barrier.h"
#include "config.h"

struct exc_frame;

struct percpu {
	unsigned int cpu;		/* logical id, 0 = boot CPU */
	unsigned int gic_mask;		/* this CPU's GIC target bit */
	uintptr_t stack_top;		/* initial SP */
	/* Expected-fault recovery (kernel/cpu/fault.h): resume PC, 0 when none,
	 * and the ESR of the last recovered fault. */
	uintptr_t fault_recover;
	/* Set before the CPU starts, read by exception entry (entry.S):
	 * the lowest SP an exception may arrive with (stack base +
	 * EXC_ENTRY_RESERVE) and the top of the emergency stack. */
	uintptr_t stack_limit;
	uintptr_t emergency_top;
	/* Start-up handshake (kernel/smp/smp.c start_cpu, boot/head.S): the
	 * starter sets BOOT_TOKEN(mpidr); the started CPU, MMU on, swaps it
	 * for BOOT_ARRIVED before it touches the stack; a starter that gives
	 * up swaps it for BOOT_ABANDONED, and a CPU arriving later finds no
	 * token of its own and parks without using the slot. */
	uint64_t boot_token;
	uint64_t fault_esr;
	uint64_t mpidr;			/* affinity from the DTB */
	volatile bool online;		/* set once by the CPU itself */
	unsigned int irq_depth;		/* nesting of IRQ handlers */
	uint64_t irqs;			/* interrupts taken */
	uint64_t ticks;			/* timer ticks taken */

	/* Cross-CPU call slot: a caller holds smp_call_lock while it fills
	 * fn/arg and waits for 'call_done'; only this CPU clears 'call_fn'. */
	smp_fn call_fn;
	void *call_arg;
	volatile uint32_t call_seq;	/* bumped by this CPU when a call ran */
	/* The trace core's recursion guard (trace/core/entry.S): nonzero
	 * while this CPU runs a trace callback, and then the DAIF value to
	 * restore. Only this CPU touches it, with IRQ/FIQ masked. Kept here,
	 * in EL1 state, because TPIDR_EL0 belongs to the application. Next
	 * to 'ring' and 'fgraph' so the recorders read one cache line. */
	uint32_t trace_callback_daif;

	/* This CPU's trace ring buffer (trace/ring/ring.h), set while tracing is
	 * stopped; the owner writes through it. */
	void *ring;
	/* Its profile rows and shadow stack (trace/tracers/profile.h,
	 * fgraph.h); set once, before any tracer starts. In this order, so
	 * that one LDP reads the rows and the stack (the profiler's return,
	 * trace/tracers/rec_graph.S) and another the stack and the site
	 * look-up base (the entries there). */
	void *profile;
	void *fgraph;
	/* The trace core's site look-up base (trace/core/core.h
	 * trace_site_slot_bias), copied here once at boot so the recorders
	 * read it in the same line as 'ring', with no address to form. */
	uintptr_t trace_site_bias;

	/* Thread-context work handed over by smp_start(); written by the
	 * starter while work_fn is NULL, cleared by this CPU when done. */
	smp_fn work_fn;
	void *work_arg;

	/* The innermost interrupt's saved registers while a handler runs
	 * (kernel/cpu/irq.c), NULL outside one: what the interrupted code was
	 * doing, for the break key and lockup reports
	 * (kernel/report/hang.c). */
	struct exc_frame *irq_frame;
} __attribute__((aligned(64)));

_Static_assert(__builtin_offsetof(struct percpu, stack_top) == PERCPU_STACK_TOP, "asm offset");
_Static_assert(__builtin_offsetof(struct percpu, fault_recover) == PERCPU_FAULT_RECOVER, "asm offset");
_Static_assert(__builtin_offsetof(struct percpu, stack_limit) == PERCPU_STACK_LIMIT, "asm offset");
_Static_assert(__builtin_offsetof(struct percpu, emergency_top) == PERCPU_EMERGENCY_TOP, "asm offset");
_Static_assert(__builtin_offsetof(struct percpu, boot_token) == PERCPU_BOOT_TOKEN, "asm offset");

/* Where each CPU's stacks are in its slot of cpu_stack_area (config.h;
 * declared in mmu.h): what struct percpu's stack fields hold. */
#define SLOT(cpu)		((uintptr_t)cpu_stack_area + (uintptr_t)(cpu) * STACK_SLOT_SIZE)
#define STACK_TOP(cpu)		(SLOT(cpu) + STACK_SLOT_STACK + STACK_SIZE)
#define STACK_LIMIT(cpu)	(SLOT(cpu) + STACK_SLOT_STACK + EXC_ENTRY_RESERVE)
#define EMERGENCY_TOP(cpu)	(SLOT(cpu) + STACK_SLOT_EMERGENCY + EMERGENCY_STACK_SIZE)

/* kernel/cpu/percpu.c */
extern struct percpu percpu_data[NR_CPUS];
extern unsigned int nr_cpus_online;

static inline struct percpu *this_cpu(void)
{
	return (struct percpu *)read_sysreg(tpidr_el1);
}

static inline unsigned int cpu_id(void)
{
	return this_cpu()->cpu;
}

static inline struct percpu *cpu_data(unsigned int cpu)
{
	return &percpu_data[cpu];
}

/* Whether 'cpu' is the id of a CPU that is up (and not stopped). */
static inline bool cpu_is_online(unsigned int cpu)
{
	return cpu < NR_CPUS && READ_ONCE(percpu_data[cpu].online);
}

#endif /* KERNEL_PERCPU_H */
