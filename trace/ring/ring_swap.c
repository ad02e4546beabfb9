/*
 * trace/ring/ring_swap.c: the rings' memory: set up, and swapped for new
 * memory while every CPU may be writing (see ring.h for the rules).
 */
#include <stdlib.h>

#include <baretrace_trace.h>

#include "barrier.h"
#include "ktime.h"
#include "percpu.h"
#include "smp.h"
#include "ring.h"

/* Each CPU's ring state: here until the first ring_setup, which moves
 * it into the region kept across resets when there is one (prev.h), so
 * the next boot finds the writers' positions; set once, under the
 * caller's lock, while no ring exists. */
static struct ring_cpu rings_bss[NR_CPUS];
static struct ring_cpu *rings = rings_bss;
static size_t ring_size = RING_DEFAULT_MIN;
static enum ring_mode ring_mode_now = RING_OVERWRITE;

struct ring_cpu *ring_of(unsigned int cpu)
{
	return cpu < NR_CPUS && rings[cpu].mem ? &rings[cpu] : NULL;
}

/* Set once at boot, on the boot CPU, before the first ring_setup. */
static const struct ring_kept_mem *kept_mem;
static int (*ready_hook)(void);

void ring_set_kept_mem(const struct ring_kept_mem *k)
{
	kept_mem = k;
}

void ring_set_ready_hook(int (*fn)(void))
{
	smp_store_release(&ready_hook, fn);
}

int ring_make_ready(void)
{
	int (*fn)(void) = smp_load_acquire(&ready_hook);

	return fn ? fn() : TRACE_ENOMEM;
}

size_t ring_bytes(void)
{
	return ring_size;
}

enum ring_mode ring_get_mode(void)
{
	return ring_mode_now;
}

/* Applies a pending new memory (owner, interrupts masked, nest == 0):
 * what the old memory still held is counted as discarded; numbering of
 * events and blocks goes on where it was. */
void ring_swap_now(struct ring_cpu *r, unsigned int cpu)
{
	struct ring_block *mem = r->new_mem;

	if (r->cur) {
		r->stored_done += r->cur_events;	/* its memory goes away */
	}
	r->discarded = r->stored_done - r->exported - r->overwritten;
	if (r->started)
		r->seq_base = r->wr_seq + 1;
	r->started = false;
	r->wr_seq = r->seq_base;
	r->cur = NULL;
	r->wr = r->wr_fast_end = NULL;
	r->cur_events = 0;
	r->old_mem = r->mem;
	r->nblocks = r->new_nblocks;
	r->cap = RING_BLOCK_SIZE - (uint32_t)sizeof(struct ring_block);
	r->mode = r->new_mode;
	for (uint32_t i = 0; i < r->nblocks; i++)
		((struct ring_block *)((uint8_t *)mem + (size_t)i * RING_BLOCK_SIZE))->seq =
			UINT64_MAX;	/* never written */
	r->rd_seq = r->closed_seq = r->seq_base;
	r->new_mem = NULL;
	/* The blocks' marks and the counters are visible before the memory
	 * is; the memory before swap_pending clears (the requester then
	 * frees old_mem). */
	smp_store_release(&r->mem, mem);
	cpu_data(cpu)->ring = r;
	smp_store_release(&r->swap_pending, false);
}

static void swap_if_idle(void *arg)
{
	unsigned int cpu = cpu_id();
	struct ring_cpu *r = &rings[cpu];

	(void)arg;
	if (READ_ONCE(r->swap_pending) && !r->nest)
		ring_swap_now(r, cpu);
}

int ring_setup(size_t bytes, enum ring_mode mode)
{
	uint32_t n = (uint32_t)(bytes / RING_BLOCK_SIZE);
	void *mem[NR_CPUS] = { 0 };
	unsigned int ncpus = smp_num_cpus();
	int err = 0;

	if (n < RING_MIN_BLOCKS)
		return -1;
	if (rings == rings_bss && !ring_of(0)) {
		struct ring_cpu *kept = kept_mem ? kept_mem->rings() : NULL;

		if (kept)
			rings = kept;
	}
	uint8_t *region = kept_mem ? kept_mem->mem((size_t)n * RING_BLOCK_SIZE * ncpus, rings,
						    NR_CPUS) : NULL;

	for (unsigned int c = 0; c < ncpus; c++) {
		mem[c] = region ? region + (size_t)c * n * RING_BLOCK_SIZE :
				  malloc((size_t)n * RING_BLOCK_SIZE);
		if (!mem[c]) {
			while (c--)
				free(mem[c]);
			return -1;
		}
	}
	for (unsigned int c = 0; c < ncpus; c++) {
		rings[c].new_mem = mem[c];
		rings[c].new_nblocks = n;
		rings[c].new_mode = mode;
		smp_store_release(&rings[c].swap_pending, true);
	}
	/* Each CPU switches in its IPI unless it is inside a reservation;
	 * then its ring_commit does. */
	smp_call_others(swap_if_idle, NULL);
	unsigned long flags = irq_save();

	swap_if_idle(NULL);
	irq_restore(flags);
	uint64_t deadline = counter_read() + time_counter_hz();	/* 1 s */

	for (unsigned int c = 0; c < ncpus; c++) {
		while (smp_load_acquire(&rings[c].swap_pending) &&
		       counter_read() < deadline)
			cpu_relax();
		if (READ_ONCE(rings[c].swap_pending)) {
			err = -2;	/* it still may write the old memory */
			continue;
		}
		if (!kept_mem || !kept_mem->holds(rings[c].old_mem))
			free(rings[c].old_mem);
		rings[c].old_mem = NULL;
	}
	ring_size = (size_t)n * RING_BLOCK_SIZE;
	ring_mode_now = mode;
	return err;
}
