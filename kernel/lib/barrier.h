/*
 * kernel/lib/barrier.h: named memory-ordering and cache helpers.
 *
 * C code orders memory through these, never through raw inline asm, so
 * every barrier in the tree can be found by name.
 */
#ifndef KERNEL_BARRIER_H
#define KERNEL_BARRIER_H

#ifndef __ASSEMBLER__

#define isb()		__asm__ volatile("isb" ::: "memory")
#define dsb_ish()	__asm__ volatile("dsb ish" ::: "memory")
#define dsb_ishst()	__asm__ volatile("dsb ishst" ::: "memory")
#define dsb_sy()	__asm__ volatile("dsb sy" ::: "memory")
#define dmb_ish()	__asm__ volatile("dmb ish" ::: "memory")
#define wfi()		__asm__ volatile("wfi" ::: "memory")
#define wfe()		__asm__ volatile("wfe" ::: "memory")
#define sev()		__asm__ volatile("sev" ::: "memory")
#define cpu_relax()	__asm__ volatile("yield" ::: "memory")
#define barrier()	__asm__ volatile("" ::: "memory")

#define READ_ONCE(x)		(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v)	(*(volatile __typeof__(x) *)&(x) = (v))

#define smp_store_release(p, v)	__atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define smp_load_acquire(p)	__atomic_load_n((p), __ATOMIC_ACQUIRE)

#define read_sysreg(r) ({						\
	unsigned long __v;						\
	__asm__ volatile("mrs %0, " #r : "=r"(__v));			\
	__v;								\
})
#define write_sysreg(r, v) do {						\
	unsigned long __v = (unsigned long)(v);				\
	__asm__ volatile("msr " #r ", %0" ::"r"(__v));			\
} while (0)

/* Interrupt mask (DAIF.I). Returns the previous DAIF for restore. */
static inline unsigned long irq_save(void)
{
	unsigned long flags = read_sysreg(daif);

	__asm__ volatile("msr daifset, #2" ::: "memory");
	return flags;
}

static inline void irq_restore(unsigned long flags)
{
	write_sysreg(daif, flags);
	barrier();
}

static inline void irq_enable(void)
{
	__asm__ volatile("msr daifclr, #2" ::: "memory");
}

static inline void irq_disable(void)
{
	__asm__ volatile("msr daifset, #2" ::: "memory");
}

#endif /* !__ASSEMBLER__ */
#endif /* KERNEL_BARRIER_H */
