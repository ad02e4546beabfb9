/*
 * trace/output/prev_coverage.c: the coverage bitmap kept across a reset
 * (docs/wire.md 2.11, type 9). It lives in the header page of the region
 * kept across resets (prev.c draws the region), after struct
 * prev_header, so a run that hung and was reset by a watchdog still
 * shows what it reached:
 *
 *   [0, sizeof(struct prev_header))     the region's header (prev.c)
 *   [COV_OFF, +16)                      struct kept_cov: magic, sites, image hash
 *   [COV_OFF + 16, HEAD_BYTES)          the bits, as coverage.c sets them
 *
 * The bits are set live by any CPU, so they carry no CRC: the next boot
 * takes them only when the region's header checked (same image, same
 * place: prev.c) and this area's own magic, site count and image hash
 * match. Each boot takes the area once and clears its magic, and it is
 * valid again only once this boot's coverage starts in it: a boot that
 * does not run coverage leaves nothing for the next.
 */
#include <string.h>

#include "core/core.h"
#include "kprintf.h"
#include "output.h"
#include "persist.h"
#include "prev.h"
#include "prev_int.h"

#define COV_MAGIC	0x3130564f43544242ULL	/* "BBTCOV01", little-endian */
#define COV_OFF		1024UL
#define COV_WORDS	((HEAD_BYTES - COV_OFF - sizeof(struct kept_cov)) / 8)

struct kept_cov {
	uint64_t magic;
	uint32_t sites;		/* bt_site_count of the image that wrote it */
	uint32_t image_hash;	/* as the region's header */
	uint64_t bits[];
};

_Static_assert(sizeof(struct prev_header) <= COV_OFF, "the header stays below the bits");

/* The previous boot's bits, copied aside at boot (the area is this
 * boot's from then on); written once by prev_coverage_take. */
static uint64_t prev_bits[COV_WORDS];
static bool have_prev;

static struct kept_cov *area(void)
{
	struct mem_region r = persist_region();

	if (r.size < HEAD_BYTES || site_bitmap_words() > COV_WORDS)
		return NULL;
	return (struct kept_cov *)(uintptr_t)(r.base + COV_OFF);
}

void prev_coverage_take(bool kept)
{
	struct kept_cov *c = area();

	if (!c)
		return;
	struct mem_region r = persist_region();
	uint32_t hash = prev_layout_for(r.base, r.size).image_hash;

	if (kept && c->magic == COV_MAGIC && c->sites == trace_site_count() &&
	    c->image_hash == hash) {
		memcpy(prev_bits, c->bits, site_bitmap_words() * 8);
		have_prev = true;
	}
	c->magic = 0;
}

uint64_t *prev_coverage_area(void)
{
	struct kept_cov *c = area();
	struct mem_region r = persist_region();

	if (!c)
		return NULL;
	c->magic = 0;
	c->sites = trace_site_count();
	c->image_hash = prev_layout_for(r.base, r.size).image_hash;
	memset(c->bits, 0, site_bitmap_words() * 8);
	/* The magic last: a reset before here leaves no area. */
	__atomic_store_n(&c->magic, COV_MAGIC, __ATOMIC_RELEASE);
	return c->bits;
}

void prev_coverage_forget(void)
{
	struct kept_cov *c = area();

	if (c)
		__atomic_store_n(&c->magic, 0, __ATOMIC_RELEASE);
}

void prev_coverage_send(void)
{
	static uint64_t seq;

	if (have_prev)
		coverage_frames(COVERAGE_FRAME_PREV, prev_bits, &seq);
}
