/*
 * kernel/shell/rx_ring.h: the console's receive ring (pure; also built into
 * the host unit tests).
 *
 * One producer (the UART receive interrupt) and one consumer (thread
 * context on one CPU). A byte that finds the ring full is not stored;
 * in its place the ring keeps one RX_LOST mark at the point where input
 * went missing, so the reader knows exactly which line lost bytes and
 * never splices the end of one line onto the start of another. One slot
 * is kept free for that mark: bytes fill at most size - 1 slots.
 *
 * Concurrency: head and gap_open are written only by the producer, tail
 * only by the consumer. The producer publishes a slot with a release
 * store of head after writing it; the consumer reads head with acquire
 * before reading the slot, and hands the slot back with a release store
 * of tail after reading it (the producer's acquire load of tail orders
 * its next write of that slot after the read).
 */
#ifndef KERNEL_RX_RING_H
#define KERNEL_RX_RING_H

#include <stdbool.h>
#include <stdint.h>

#define RX_LOST		0x100	/* not a byte: input was lost here */

struct rx_ring {
	uint16_t *slot;			/* 'size' entries, a power of two */
	uint32_t size;
	volatile uint32_t head, tail;	/* free-running; index = x % size */
	bool gap_open;			/* producer: the newest entry is a mark */
	uint32_t lost;			/* producer: bytes dropped, ever */
};

/* Producer: stores byte c, or records that it was lost. */
static inline void rx_ring_put(struct rx_ring *r, unsigned char c)
{
	uint32_t head = r->head;
	uint32_t used = head - __atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);

	if (used < r->size - 1) {
		r->slot[head % r->size] = c;
		r->gap_open = false;
	} else {
		r->lost++;
		if (r->gap_open || used >= r->size)
			return;		/* the mark is already there */
		r->slot[head % r->size] = RX_LOST;
		r->gap_open = true;
	}
	__atomic_store_n(&r->head, head + 1, __ATOMIC_RELEASE);
}

/* Consumer: the next byte, RX_LOST, or -1 when the ring is empty. */
static inline int rx_ring_take(struct rx_ring *r)
{
	uint32_t tail = r->tail;

	if (__atomic_load_n(&r->head, __ATOMIC_ACQUIRE) == tail)
		return -1;
	int c = r->slot[tail % r->size];

	__atomic_store_n(&r->tail, tail + 1, __ATOMIC_RELEASE);
	return c;
}

#endif /* KERNEL_RX_RING_H */
