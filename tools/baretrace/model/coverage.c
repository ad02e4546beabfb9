/*
 * tools/baretrace/model/coverage.c: which sites a run reached, from its
 * coverage frames (docs/wire.md 2.11).
 *
 * A frame's body is a run of bits, site 'first' onwards, each set once
 * its site was reached. The target sends totals and a bit only ever goes
 * from 0 to 1, so OR-ing every frame of every boot gives the same answer
 * as keeping only the latest set: frames, boots and traces merge alike.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../wire/wire.h"
#include "../base/util.h"

#include "model.h"

/* More sites than any image has: a larger count is a damaged frame. */
#define COV_MAX_SITES	(1u << 24)

void bt_cov_init(struct bt_cov *c, uint64_t nsites)
{
	memset(c, 0, sizeof(*c));
	c->nsites = nsites;
	c->reached = bt_alloc(nsites / 8 + 1);
}

void bt_cov_free(struct bt_cov *c)
{
	free(c->reached);
	c->reached = NULL;
}

int bt_cov_is_reached(const struct bt_cov *c, uint64_t site)
{
	return site < c->nsites && (c->reached[site / 8] >> (site % 8) & 1);
}

/*
 * Checks the whole body before changing anything, so a malformed frame
 * leaves c as it was. Set bits past c->nsites count in c->beyond.
 */
int bt_cov_add_frame(struct bt_cov *c, const uint8_t *body, size_t len)
{
	uint64_t first, nbits;
	int n1, n2;
	size_t bytes;

	n1 = wire_varint_get(body, len, &first);
	if (n1 < 0)
		return -1;
	n2 = wire_varint_get(body + n1, len - (size_t)n1, &nbits);
	if (n2 < 0 || first > COV_MAX_SITES || nbits > COV_MAX_SITES)
		return -1;
	bytes = (size_t)((nbits + 7) / 8);
	if (len - (size_t)n1 - (size_t)n2 != bytes)
		return -1;
	body += n1 + n2;
	/* A set's frames follow one another, each starting where the
	 * last ended; a frame that does not was preceded by a lost one. */
	if (!first)
		c->set_end = nbits, c->set_hole = 0;
	else if (first == c->set_end)
		c->set_end += nbits;
	else
		c->set_hole = 1;
	for (uint64_t k = 0; k < nbits; k++) {
		uint64_t site = first + k;

		if (!(body[k / 8] >> (k % 8) & 1))
			continue;
		if (site >= c->nsites) {
			c->beyond++;
			continue;
		}
		c->reached[site / 8] |= (uint8_t)(1u << (site % 8));
	}
	c->frames++;
	return 0;
}

uint64_t bt_cov_count(const struct bt_cov *c)
{
	uint64_t n = 0;

	for (uint64_t s = 0; s < c->nsites; s++)
		n += bt_cov_is_reached(c, s);
	return n;
}

void bt_cov_set_begin(struct bt_cov *c)
{
	c->set_end = 0;
	c->set_hole = 0;
}

int bt_cov_set_whole(const struct bt_cov *c)
{
	return !c->set_hole && c->set_end >= c->nsites;
}

void bt_cov_merge(struct bt_cov *into, const struct bt_cov *from)
{
	for (uint64_t s = 0; s < into->nsites && s < from->nsites; s++)
		if (bt_cov_is_reached(from, s))
			into->reached[s / 8] |= (uint8_t)(1u << (s % 8));
	into->frames += from->frames;
	into->beyond += from->beyond;
}
