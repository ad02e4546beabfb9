/* kernel/config.h: build-time limits shared by C and assembly. */
#ifndef KERNEL_CONFIG_H
#define KERNEL_CONFIG_H

#define NR_CPUS			8
#define STACK_SHIFT		14		/* 16 KiB stack per CPU */
#define STACK_SIZE		(1 << STACK_SHIFT)
#define PAGE_SHIFT		12
#define PAGE_SIZE		(1 << PAGE_SHIFT)
#define HEAP_MIN_SIZE		(8 << 20)	/* _sbrk refuses to start below this */

/* Offsets into struct percpu used by assembly (checked by _Static_assert). */
#define PERCPU_CPU		0
#define PERCPU_STACK_TOP	8
#define PERCPU_FAULT_RECOVER	16

#endif /* KERNEL_CONFIG_H */
