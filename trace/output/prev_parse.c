/*
 * trace/output/prev_parse.c: the previous boot's header, ring state and
 * blocks, read from the kept region and checked before use (see
 * prev_parse.h for the verdicts, prev.c for the layout).
 *
 * Values are copied out of the region once and checked as numbers
 * (offsets from the region's start, never pointers) before any of them
 * says where to read: a pointer the previous boot kept is turned into an
 * offset and only followed once the offset, and what it spans, lie
 * inside the part of the region it must be in.
 */
#include <stddef.h>
#include <string.h>

#include "prev_parse.h"

#include "config.h"

#define BLOCK_CAP	(RING_BLOCK_SIZE - (uint32_t)sizeof(struct ring_block))

_Static_assert(sizeof(void *) == sizeof(uint64_t), "ring pointers are read as 64-bit offsets");
_Static_assert(sizeof(struct prev_header) <= HEAD_BYTES, "the header fits its page");

static struct prev_why plain(const char *what)
{
	return (struct prev_why){ what, PREV_WHY_PLAIN, 0, 0 };
}

static struct prev_why field(const char *what, uint64_t got, uint64_t want)
{
	return (struct prev_why){ what, PREV_WHY_FIELD, got, want };
}

static struct prev_why impossible(const char *what, uint64_t got)
{
	return (struct prev_why){ what, PREV_WHY_VALUE, got, 0 };
}

static const struct prev_why accepted = { 0 };

struct prev_header prev_layout(uint64_t base, uint64_t size, uint32_t image_hash)
{
	uint64_t rings = (NR_CPUS * sizeof(struct ring_cpu) + 4095) & ~4095UL;
	uint64_t data = HEAD_BYTES + rings;

	return (struct prev_header){
		.magic = PREV_MAGIC, .layout = PREV_LAYOUT, .base = base, .size = size,
		.image_hash = image_hash, .ncpus = NR_CPUS,
		.ring_cpu_bytes = sizeof(struct ring_cpu), .block_bytes = RING_BLOCK_SIZE,
		.rings_off = HEAD_BYTES, .data_off = data,
		.half_bytes = size > data ? (size - data) / 2 / RING_BLOCK_SIZE * RING_BLOCK_SIZE : 0,
	};
}

uint32_t prev_header_crc(const struct prev_header *h)
{
	struct prev_header c = *h;

	c.crc = 0;
	return wire_crc32(0, &c, sizeof(c));
}

/* Whether h's parts lie inside the region in order: header, ring state
 * of every CPU, two halves of whole blocks. Holds for prev_layout's
 * output; checked anyway, as the rest relies on nothing else. */
static bool layout_fits(const struct prev_header *h, uint64_t region_bytes)
{
	return h->size <= region_bytes && h->rings_off >= sizeof(*h) &&
	       h->rings_off <= h->size && h->ring_cpu_bytes == sizeof(struct ring_cpu) &&
	       h->ncpus <= (h->size - h->rings_off) / h->ring_cpu_bytes &&
	       h->data_off >= h->rings_off + (uint64_t)h->ncpus * h->ring_cpu_bytes &&
	       h->data_off <= h->size && h->half_bytes <= (h->size - h->data_off) / 2 &&
	       h->block_bytes == RING_BLOCK_SIZE && h->half_bytes % RING_BLOCK_SIZE == 0 &&
	       h->data_off % RING_BLOCK_SIZE == 0;
}

struct prev_why prev_read_header(const struct prev_view *v, const struct prev_header *want,
				 struct prev_header *h)
{
	if (v->size < HEAD_BYTES)
		return impossible("region size", v->size);
	memcpy(h, v->bytes, sizeof(*h));
	if (h->magic != PREV_MAGIC)
		return plain("it has no header");
	/* What this image lays out differently first: its CRC need not
	 * match ours, so these say more than "damaged". */
	if (h->layout != want->layout)
		return field("layout version", h->layout, want->layout);
	if (h->ring_cpu_bytes != want->ring_cpu_bytes)
		return field("ring state size", h->ring_cpu_bytes, want->ring_cpu_bytes);
	if (h->block_bytes != want->block_bytes)
		return field("block size", h->block_bytes, want->block_bytes);
	if (h->ncpus != want->ncpus)
		return field("CPU count", h->ncpus, want->ncpus);
	if (h->crc != prev_header_crc(h))
		return plain("its header is damaged (CRC-32 does not match)");
	/* A header that checks may still be stale or scribbled on: every
	 * place it names must be where this image puts it. */
	if (h->base != want->base)
		return field("region address", h->base, want->base);
	if (h->size != want->size)
		return field("region size", h->size, want->size);
	if (h->rings_off != want->rings_off)
		return field("ring state offset", h->rings_off, want->rings_off);
	if (h->data_off != want->data_off)
		return field("ring memory offset", h->data_off, want->data_off);
	if (h->half_bytes != want->half_bytes)
		return field("ring memory half size", h->half_bytes, want->half_bytes);
	if (h->image_hash != want->image_hash)
		return (struct prev_why){ "image", PREV_WHY_IMAGE, h->image_hash, want->image_hash };
	/* Boot 1 is the first to write the region; the next boot counts on. */
	if (h->boot == 0 || h->boot == UINT64_MAX)
		return impossible("boot number", h->boot);
	if (!layout_fits(h, v->size))
		return plain("its layout does not fit the region");
	return accepted;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

#define RING64(at, f)	get64((at) + offsetof(struct ring_cpu, f))
#define RING32(at, f)	get32((at) + offsetof(struct ring_cpu, f))

/*
 * The counters a ring state carries: produced = stored + dropped, and
 * exported + overwritten + discarded never exceeds what was stored, at
 * any instant a reset may hit (each is added to only after the events
 * it counts were counted stored). false if they overflow or disagree.
 */
static bool books_of(const uint8_t *at, bool open, uint32_t cur_events,
		     struct wire_prev_cpu *e)
{
	uint64_t stored = RING64(at, stored_done), gone = RING64(at, exported);
	uint64_t taken = RING64(at, taken);

	/* Blocks the target took for itself were read, never sent. */
	if (taken > gone)
		return false;
	e->dropped = RING64(at, dropped);
	e->sent = gone - taken;
	e->overwritten = RING64(at, overwritten);
	e->discarded = RING64(at, discarded);
	if (__builtin_add_overflow(e->discarded, taken, &e->discarded))
		return false;
	if (open && __builtin_add_overflow(stored, cur_events, &stored))
		return false;
	if (__builtin_add_overflow(stored, e->dropped, &e->produced))
		return false;
	if (__builtin_add_overflow(gone, e->overwritten, &gone) ||
	    __builtin_add_overflow(gone, e->discarded - taken, &gone))
		return false;
	return gone <= stored;
}

struct prev_why prev_read_ring(const struct prev_view *v, const struct prev_header *h,
			       unsigned int cpu, struct prev_ring *r)
{
	*r = (struct prev_ring){ .books.cpu = cpu };
	if (cpu >= h->ncpus)
		return impossible("CPU number", cpu);
	const uint8_t *at = v->bytes + h->rings_off + (uint64_t)cpu * h->ring_cpu_bytes;
	/* 'started' is a bool in the writer's struct: read as a byte, as
	 * any other value in it would make the struct's own read undefined. */
	uint8_t started = at[offsetof(struct ring_cpu, started)];
	uint64_t mem = RING64(at, mem) - h->base, cur = RING64(at, cur);
	uint64_t seq_base = RING64(at, seq_base), wr_seq = RING64(at, wr_seq);
	uint32_t nblocks = RING32(at, nblocks), cur_events = RING32(at, cur_events) & 0xffff;	/* the time is above */
	uint64_t d0 = h->data_off, d1 = d0 + 2 * h->half_bytes;

	if (started > 1)
		return impossible("'started' flag", started);
	if (cur_events > BLOCK_CAP)
		return impossible("count of events in its open block", cur_events);
	if (!books_of(at, cur != 0, cur_events, &r->books))
		return plain("its event counters overflow or do not add up");
	/* No block to read: none opened in this memory yet, or a swap to
	 * new memory half done (it sets seq_base past wr_seq first), or
	 * memory outside the region (the rings were on the heap). */
	if (!started || !RING64(at, mem) || seq_base > wr_seq || mem >= h->size)
		return accepted;
	if (mem < d0 || mem >= d1)
		return impossible("block memory offset (not in ring memory)", mem);
	if ((mem - d0) % RING_BLOCK_SIZE)
		return impossible("block memory offset (not on a block)", mem);
	uint64_t half_end = d0 + ((mem - d0) / h->half_bytes + 1) * h->half_bytes;

	if (nblocks < RING_MIN_BLOCKS || nblocks > (half_end - mem) / RING_BLOCK_SIZE)
		return impossible("block count", nblocks);
	if (wr_seq == UINT64_MAX)
		return impossible("block sequence number", wr_seq);
	/* Set while started: one of this memory's blocks, or none. */
	if (cur) {
		cur -= h->base;
		if (cur < mem || cur - mem >= (uint64_t)nblocks * RING_BLOCK_SIZE ||
		    (cur - mem) % RING_BLOCK_SIZE)
			return impossible("open block's offset (not one of its blocks)", cur);
	}
	r->mem = mem;
	r->nblocks = nblocks;
	r->cur = cur;
	/* Its writer's position: where the open block ends, checked against
	 * that block when it is read (a reset between the two stores that
	 * switch blocks leaves it in the previous one). */
	r->wr = RING64(at, wr) - h->base;
	r->wr_seq = wr_seq;
	r->cur_events = cur_events;
	r->hi = wr_seq + 1;
	r->lo = r->hi - seq_base > nblocks ? r->hi - nblocks : seq_base;
	return accepted;
}

const struct ring_block *prev_block(const struct prev_view *v, const struct prev_ring *r,
				    uint64_t seq, uint32_t *used)
{
	if (!r->nblocks || seq < r->lo || seq >= r->hi)
		return NULL;
	uint64_t off = r->mem + seq % r->nblocks * RING_BLOCK_SIZE;
	const struct ring_block *b = (const struct ring_block *)(const void *)(v->bytes + off);
	uint64_t data = off + offsetof(struct ring_block, data);

	if (b->seq != seq)
		return NULL;
	/* The block open at the reset: its head was written when it was
	 * opened, its length is its writer's position. */
	if (r->cur == off && seq == r->wr_seq) {
		if (r->wr < data || r->wr - data > BLOCK_CAP)
			return NULL;
		*used = (uint32_t)(r->wr - data);
		return b;
	}
	if (b->used > BLOCK_CAP || b->check != ring_block_check(b))
		return NULL;
	*used = b->used;
	return b;
}

void prev_walk(const struct prev_view *v, struct prev_ring *r, prev_take_fn *take, void *ctx)
{
	r->books.kept = r->books.torn = 0;
	if (!r->nblocks)
		return;
	for (uint64_t s = r->lo; s < r->hi; s++) {
		uint32_t used;
		const struct ring_block *b = prev_block(v, r, s, &used);

		if (!b) {
			r->books.torn++;
			continue;
		}
		r->books.kept++;
		if (take)
			take(ctx, s, b, used);
	}
}
