/* sources: trace/output/prev_parse.c wire/wire.c */
/*
 * test/fuzz/fuzz_prev.c: the previous boot's region (trace/output/
 * prev_parse.h) as any reset, stale image or scribble could leave it,
 * with its CRC-32 and block checks valid, so the fuzzer gets past them
 * to the values they do not vouch for.
 *
 * The region is built in an exact-size heap buffer (a read past it hits
 * an ASan redzone) of this image's layout with 8 blocks a half. The
 * input, read as little-endian fields, zero past its end:
 *   flags      u8: bit 0 leaves the header's CRC as it comes out, bit 1
 *              the blocks' checks (else both are computed here)
 *   header     80 bytes XORed into the header this image would write
 *              (boot 1), so an all-zero mask is a good header
 *   ring       per CPU: mem, cur, wr (0: NULL, else 1 + offset from the
 *              start of ring memory, wrapping), seq_base, wr_seq,
 *              nblocks, cur_events, started (a byte, any value),
 *              stored_done, dropped, overwritten, discarded, exported
 *   blocks     until the input ends: block index (u8, modulo the
 *              blocks in ring memory), seq, base_ts, first, used,
 *              events, then up to 'used' data bytes
 * Beyond "reads nothing outside the region", the parser's promises are
 * checked: an accepted header is this layout's; a ring state accepted
 * with blocks lies in one half, whole blocks; every block handed out is
 * one of its ring's, with the sequence number asked for and a length
 * that fits; its counters add up.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "output/prev_parse.h"
#include "config.h"
#include "fuzz.h"

#define HALF_BLOCKS	8
#define BLOCK_CAP	(RING_BLOCK_SIZE - sizeof(struct ring_block))

struct input {
	const uint8_t *p;
	size_t left;
};

static uint64_t take(struct input *in, unsigned int bytes)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < bytes; i++) {
		if (in->left) {
			v |= (uint64_t)*in->p++ << (8 * i);
			in->left--;
		}
	}
	return v;
}

static void put64(uint8_t *at, size_t off, uint64_t v)
{
	memcpy(at + off, &v, sizeof(v));
}

static void put32(uint8_t *at, size_t off, uint32_t v)
{
	memcpy(at + off, &v, sizeof(v));
}

/* A pointer field: 0 is NULL, else 1 + an offset into ring memory. */
static uint64_t pointer(struct input *in, uint64_t data)
{
	uint64_t v = take(in, 8);

	return v ? data + v - 1 : 0;
}

static void fill_ring(struct input *in, uint8_t *at, uint64_t data)
{
	memset(at, 0xa5, sizeof(struct ring_cpu));	/* fields the parser must not need */
	put64(at, offsetof(struct ring_cpu, mem), pointer(in, data));
	put64(at, offsetof(struct ring_cpu, cur), pointer(in, data));
	put64(at, offsetof(struct ring_cpu, wr), pointer(in, data));
	put64(at, offsetof(struct ring_cpu, seq_base), take(in, 8));
	put64(at, offsetof(struct ring_cpu, wr_seq), take(in, 8));
	put32(at, offsetof(struct ring_cpu, nblocks), (uint32_t)take(in, 4));
	put32(at, offsetof(struct ring_cpu, cur_events), (uint32_t)take(in, 4));
	at[offsetof(struct ring_cpu, started)] = (uint8_t)take(in, 1);
	put64(at, offsetof(struct ring_cpu, stored_done), take(in, 8));
	put64(at, offsetof(struct ring_cpu, dropped), take(in, 8));
	put64(at, offsetof(struct ring_cpu, overwritten), take(in, 8));
	put64(at, offsetof(struct ring_cpu, discarded), take(in, 8));
	put64(at, offsetof(struct ring_cpu, exported), take(in, 8));
}

static void fill_blocks(struct input *in, uint8_t *region, const struct prev_header *h,
			int fix_checks)
{
	uint64_t nblocks = 2 * h->half_bytes / RING_BLOCK_SIZE;

	while (in->left && nblocks) {
		uint8_t *at = region + h->data_off + take(in, 1) % nblocks * RING_BLOCK_SIZE;
		struct ring_block *b = (struct ring_block *)(void *)at;

		b->seq = take(in, 8);
		b->base_ts = take(in, 8);
		b->first = take(in, 8);
		b->used = (uint32_t)take(in, 4);
		b->events = (uint32_t)take(in, 4);
		size_t n = b->used < BLOCK_CAP ? b->used : BLOCK_CAP;

		n = n < in->left ? n : in->left;
		memcpy(b->data, in->p, n);
		in->p += n;
		in->left -= n;
		b->check = fix_checks && b->used <= BLOCK_CAP ? ring_block_check(b) : take(in, 8);
	}
}

/* What the walk hands out, checked against the ring it came from. */
struct walk_check {
	const struct prev_view *v;
	const struct prev_ring *r;
	uint64_t last;
	int any;
};

static void on_block(void *arg, uint64_t seq, const struct ring_block *b, uint32_t used)
{
	struct walk_check *w = arg;
	const uint8_t *first = w->v->bytes + w->r->mem;
	const uint8_t *p = (const uint8_t *)b;
	uint8_t copy[RING_BLOCK_SIZE];

	must(p >= first && p < first + (size_t)w->r->nblocks * RING_BLOCK_SIZE &&
	     (size_t)(p - first) % RING_BLOCK_SIZE == 0);
	must(b->seq == seq && seq >= w->r->lo && seq < w->r->hi);
	must(!w->any || seq > w->last);
	must(used <= BLOCK_CAP);
	memcpy(copy, b->data, used);	/* what the sender copies: in the region */
	w->last = seq;
	w->any = 1;
}

static void check_ring(const struct prev_view *v, const struct prev_header *h, unsigned int c)
{
	struct prev_ring r;
	struct prev_why why = prev_read_ring(v, h, c, &r);

	must(r.books.cpu == c);
	if (why.what) {
		must(why.what[0] && r.nblocks == 0);
		return;
	}
	/* Its counters: what left the ring never exceeds what was stored. */
	must(r.books.produced >= r.books.dropped);
	must(r.books.sent <= r.books.produced - r.books.dropped &&
	     r.books.overwritten <= r.books.produced - r.books.dropped - r.books.sent &&
	     r.books.discarded <= r.books.produced - r.books.dropped - r.books.sent -
				  r.books.overwritten);
	if (r.nblocks) {
		uint64_t d0 = h->data_off, rel = r.mem - d0;

		must(r.mem >= d0 && rel % RING_BLOCK_SIZE == 0 && rel < 2 * h->half_bytes);
		must(rel / h->half_bytes == (rel + (uint64_t)r.nblocks * RING_BLOCK_SIZE - 1) /
						h->half_bytes);
		must(r.lo <= r.hi && r.hi - r.lo <= r.nblocks);
	}
	struct walk_check w = { v, &r, 0, 0 };

	prev_walk(v, &r, on_block, &w);
	must(r.books.kept + r.books.torn == (r.nblocks ? r.hi - r.lo : 0));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	struct prev_header probe = prev_layout(0, 0, 0);
	uint64_t bytes = probe.data_off + 2 * HALF_BLOCKS * RING_BLOCK_SIZE;
	uint8_t *region = calloc(1, bytes);
	uint64_t base = (uintptr_t)region;
	struct prev_view v = { region, base, bytes };
	struct prev_header want = prev_layout(base, bytes, 0x1234abcd), h = want;
	unsigned int flags = (unsigned int)take(&in, 1);
	uint8_t mask[sizeof(h)];
	int clean = 1;

	must(region != NULL && want.half_bytes == HALF_BLOCKS * RING_BLOCK_SIZE);
	h.boot = 1;
	for (size_t i = 0; i < sizeof(mask); i++) {
		mask[i] = (uint8_t)take(&in, 1);
		clean &= mask[i] == 0;
		((uint8_t *)&h)[i] ^= mask[i];
	}
	if (!(flags & 1))
		h.crc = prev_header_crc(&h);
	memcpy(region, &h, sizeof(h));
	for (unsigned int c = 0; c < NR_CPUS; c++)
		fill_ring(&in, region + want.rings_off + c * want.ring_cpu_bytes,
			  base + want.data_off);
	fill_blocks(&in, region, &want, !(flags & 2));

	struct prev_header got;
	struct prev_why why = prev_read_header(&v, &want, &got);

	must(memcmp(&got, &h, sizeof(h)) == 0);	/* read as written */
	/* This image's own header, untouched, is never refused. */
	must(!(clean && !(flags & 1)) || !why.what);
	if (why.what) {
		must(why.what[0] != '\0' && why.kind <= PREV_WHY_IMAGE);
	} else {
		/* Accepted: every field but crc and boot is this layout's. */
		struct prev_header a = got, b = want;

		a.crc = b.crc = 0;
		a.boot = b.boot = 0;
		must(memcmp(&a, &b, sizeof(a)) == 0);
		must(got.crc == prev_header_crc(&got) && got.boot && got.boot != UINT64_MAX);
		for (unsigned int c = 0; c < NR_CPUS; c++)
			check_ring(&v, &got, c);
	}
	free(region);
	return 0;
}
