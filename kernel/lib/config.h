/* kernel/lib/config.h: build-time limits shared by C and assembly. */
#ifndef KERNEL_CONFIG_H
#define KERNEL_CONFIG_H

#define NR_CPUS			8
#define STACK_SHIFT		14		/* 16 KiB stack per CPU */
#define STACK_SIZE		(1 << STACK_SHIFT)
#define PAGE_SHIFT		12
#define PAGE_SIZE		(1 << PAGE_SHIFT)
#define HEAP_MIN_SIZE		(8 << 20)	/* _sbrk refuses to start below this */
/* AArch64 TLS variant 1: TP + 16 = the block (kernel/cpu/tls.c) */
#define TLS_TCB_SIZE		16

/*
 * Each CPU's stacks, in one slot of cpu_stack_area (boot/head.S), from
 * the bottom up:
 *   guard      unmapped: the stack's overflow faults here
 *   stack      STACK_SIZE, the CPU's only stack (thread and interrupts)
 *   guard      unmapped: below the emergency stack
 *   emergency  where an exception that finds SP outside the stack runs
 *              (kernel/cpu/entry.S checks SP first) and reports the overflow
 */
#define STACK_GUARD_SIZE	PAGE_SIZE
#define EMERGENCY_STACK_SIZE	(8 << 10)	/* the crash report's depth */
#define STACK_SLOT_STACK	STACK_GUARD_SIZE	/* offsets in a slot */
#define STACK_SLOT_EMERGENCY	(STACK_SLOT_STACK + STACK_SIZE + STACK_GUARD_SIZE)
#define STACK_SLOT_SIZE		(STACK_SLOT_EMERGENCY + EMERGENCY_STACK_SIZE)
/* What exception entry may push below the interrupted SP before it calls
 * C: a frame needs less (asserted in kernel/cpu/exception.h), the rest is
 * headroom for state saved later (FP/SIMD). Below stack base + this, an
 * exception is a stack overflow and goes to the emergency stack. */
#define EXC_ENTRY_RESERVE	1024

/* Offsets into struct percpu used by assembly (checked by _Static_assert). */
#define PERCPU_CPU		0
#define PERCPU_STACK_TOP	8
#define PERCPU_FAULT_RECOVER	16
#define PERCPU_STACK_LIMIT	24
#define PERCPU_EMERGENCY_TOP	32
#define PERCPU_BOOT_TOKEN	40

/* percpu->boot_token values: the affinity bits of the CPU being started
 * with BOOT_TOKEN_BIT set (so no token is 0 or 1), then one of these. */
#define BOOT_TOKEN_BIT		63
#define BOOT_ARRIVED		0
#define BOOT_ABANDONED		1

/* HVC immediate that boot/head.S's EL2 stub takes as "raise a virtual
 * SError at EL1" (tests only; see el2_vectors). */
#define HVC_INJECT_VSERROR	0x5e

#endif /* KERNEL_CONFIG_H */
