/*
 * trace/tracers/snapshot.c: a copy of every CPU's ring buffer taken at one
 * moment (trigger 'snapshot' or the console), printed later with
 * 'snapshot show'. Taking one copies other CPUs' rings while they may be
 * writing: a block being filled can be cut at any record boundary the
 * writer had reached, which the dump's decoder tolerates.
 */
#include <stdlib.h>
#include <string.h>

#include "barrier.h"
#include "config.h"
#include "kprintf.h"
#include "percpu.h"
#include "ring/ring.h"
#include "tracer.h"
#include "trigger.h"


/* Allocated in thread context before a trigger can fire; 'taken' is
 * set after the copy with a release store. */
static struct ring_cpu copies[NR_CPUS];
static void *copy_mem[NR_CPUS];
static size_t copy_bytes;
static volatile int taken;

int snapshot_alloc(void)
{
	size_t bytes = ring_bytes();

	if (copy_bytes == bytes && copy_mem[0])
		return 0;
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		free(copy_mem[c]);
		copy_mem[c] = c < smp_num_cpus() ? malloc(bytes) : NULL;
		if (c < smp_num_cpus() && !copy_mem[c])
			return -1;
	}
	copy_bytes = bytes;
	taken = 0;
	return 0;
}

void snapshot_take(void)
{
	unsigned long flags = irq_save();

	for (unsigned int c = 0; c < smp_num_cpus(); c++) {
		const struct ring_cpu *r = ring_of(c);

		if (!r || !copy_mem[c] || (size_t)r->nblocks * RING_BLOCK_SIZE != copy_bytes)
			continue;
		copies[c] = *r;
		memcpy(copy_mem[c], r->mem, copy_bytes);
		/* Point the copy's pointers into the copied memory. */
		uintptr_t shift = (uintptr_t)copy_mem[c] - (uintptr_t)r->mem;

		copies[c].mem = copy_mem[c];
		if (copies[c].cur) {
			copies[c].cur = (void *)((uintptr_t)copies[c].cur + shift);
			copies[c].wr += shift;
		}
	}
	smp_store_release(&taken, 1);
	irq_restore(flags);
}

int snapshot_taken(void)
{
	return smp_load_acquire(&taken);
}

int trace_snapshot(void)
{
	if (!ring_of(0))
		return TRACE_EINVAL;
	if (snapshot_alloc())
		return TRACE_ENOMEM;
	snapshot_take();
	return 0;
}

const struct ring_cpu *snapshot_copy(unsigned int cpu)
{
	return snapshot_taken() && cpu < NR_CPUS && copies[cpu].mem ? &copies[cpu] : NULL;
}
