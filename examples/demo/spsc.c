/*
 * examples/demo/spsc.c: lock-free single-producer/single-consumer ring.
 *
 * The producer is the timer-tick hook (interrupt context), the consumer
 * the pipeline (thread context). Neither may block the other, so there is
 * no lock: head is written only by the producer, tail only by the
 * consumer, and each reads the other's index with acquire. Indices run
 * freely and are masked on use, so head - tail is the fill level even
 * across 2^32 wrap.
 */
#include "demo.h"

DEMO_FN void spsc_init(struct spsc_ring *r)
{
	r->head = 0;
	r->tail = 0;
}

/* Producer side. Returns 0, or -1 when full (the sample is dropped). */
DEMO_FN int spsc_push(struct spsc_ring *r, const struct sample *s)
{
	uint32_t head = r->head;		/* our own index */
	uint32_t tail = demo_load_acquire(&r->tail);

	/* Acquire on tail: the consumer's reads of the slot we are about
	 * to overwrite happened before it advanced tail past it. */
	if (head - tail >= SPSC_SLOTS)
		return -1;
	r->slot[head & (SPSC_SLOTS - 1)] = *s;
	/* Release: the slot contents are visible before the new head. */
	demo_store_release(&r->head, head + 1);
	return 0;
}

/* Consumer side. Returns 0 with *out filled, or -1 when empty. */
DEMO_FN int spsc_pop(struct spsc_ring *r, struct sample *out)
{
	uint32_t tail = r->tail;		/* our own index */
	uint32_t head = demo_load_acquire(&r->head);

	/* Acquire on head pairs with the producer's release: the slot we
	 * read below is complete. */
	if (head == tail)
		return -1;
	*out = r->slot[tail & (SPSC_SLOTS - 1)];
	/* Release: we are done reading the slot before the producer may
	 * reuse it. */
	demo_store_release(&r->tail, tail + 1);
	return 0;
}

/* Fill level; a snapshot only, either side may move it right after. */
DEMO_FN uint32_t spsc_count(const struct spsc_ring *r)
{
	return demo_load_acquire(&r->head) - demo_load_acquire(&r->tail);
}
