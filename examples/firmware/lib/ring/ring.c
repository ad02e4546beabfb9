/* examples/firmware/lib/ring/ring.c: a byte ring; one slot stays empty. */
#include "fw/ring.h"

bool ring_put(struct ring *r, uint8_t b)
{
	unsigned int next = (r->head + 1) % RING_SLOTS;

	if (next == r->tail)
		return false;
	r->slot[r->head] = b;
	r->head = next;
	return true;
}

bool ring_get(struct ring *r, uint8_t *b)
{
	if (r->tail == r->head)
		return false;
	*b = r->slot[r->tail];
	r->tail = (r->tail + 1) % RING_SLOTS;
	return true;
}
