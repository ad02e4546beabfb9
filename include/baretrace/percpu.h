/*
 * include/baretrace/percpu.h: per-CPU data for applications (part of
 * baretrace.h; include that).
 *
 * A per-CPU variable is an array with one slot per possible CPU, each slot
 * on its own 64-byte cache line (the line size of every board's cores) so
 * that CPUs writing their own slot never contend for a line:
 *
 *   static BT_PER_CPU(uint64_t, hits);       // file scope, zeroed
 *   bt_this_cpu(hits)++;                      // this CPU's slot
 *   for (unsigned c = 0; c < smp_num_cpus(); c++)
 *           total += bt_per_cpu(hits, c);     // any CPU's slot
 *
 * It is plain memory indexed by smp_cpu_id(): no allocator, no kernel
 * state. What it guarantees, and what not:
 *  - A thread never moves between CPUs here (smp_start runs fn on the CPU
 *    named; nothing migrates), so bt_this_cpu in thread code names the
 *    same slot for the whole call.
 *  - An interrupt handler on the same CPU may run between a read and a
 *    write of the slot. If handlers write the slot too, wrap the
 *    read-modify-write in bt_irq_save/bt_irq_restore.
 *  - Reading another CPU's slot is a plain load: for a value that slot's
 *    CPU is still changing use __atomic loads/stores or a bt_spinlock.
 * "any context".
 */
#ifndef BARETRACE_PERCPU_H
#define BARETRACE_PERCPU_H

/* The most CPUs the kernel runs (kernel/lib/config.h NR_CPUS; the kernel
 * checks at build time that both agree). smp_num_cpus() <= this. */
#define BT_MAX_CPUS		8
#define BT_PERCPU_ALIGN		64

#define BT_PER_CPU(type, name)						\
	struct {							\
		type value;						\
	} __attribute__((aligned(BT_PERCPU_ALIGN))) name[BT_MAX_CPUS]

#define bt_per_cpu(name, cpu)	((name)[(cpu)].value)
#define bt_this_cpu(name)	bt_per_cpu(name, smp_cpu_id())

#endif /* BARETRACE_PERCPU_H */
