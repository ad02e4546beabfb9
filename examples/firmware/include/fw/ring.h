/* examples/firmware/include/fw/ring.h: a byte ring of RING_SLOTS slots. */
#ifndef FW_RING_H
#define FW_RING_H

#include <stdbool.h>
#include <stdint.h>

#ifndef RING_SLOTS
#error "RING_SLOTS comes from app.mk's app-defines"
#endif

struct ring {
	uint8_t slot[RING_SLOTS];
	unsigned int head, tail;
};

bool ring_put(struct ring *r, uint8_t b);
bool ring_get(struct ring *r, uint8_t *b);

#endif
