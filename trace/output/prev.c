/*
 * trace/output/prev.c: the previous boot's trace, read back from the
 * region kept across resets and sent first (see prev.h; this boot's
 * rings in the region: prev_region.c).
 *
 * Region layout (base from kernel/persist.h, every offset fixed by
 * struct prev_header, which says them all):
 *   [0, 4 KiB)               struct prev_header
 *   [rings_off, +NR_CPUS)    struct ring_cpu, one per CPU: the writers'
 *                            own state, so the block open at a reset is
 *                            read up to the writer's last record
 *   [data_off, +2 halves)    ring memory: one ring_setup takes a half
 *                            that the rings in use do not, so rings can
 *                            be swapped while every CPU writes
 */
#include <stdlib.h>
#include <string.h>

#include "bootargs.h"
#include "export_int.h"
#include "hooks.h"
#include "kprintf.h"
#include "percpu.h"
#include "persist.h"
#include "prev.h"
#include "prev_int.h"
#include "ring.h"
#include "tracers/tracer.h"
#include "wire.h"

#include "config.h"


/* One previous-boot block, copied aside as a data frame body. */
struct prev_frame {
	uint64_t seq, ts;
	uint8_t *body;
	uint32_t len;
	uint8_t cpu;
};

/* Written by the boot CPU in prev_init, before any other CPU runs;
 * afterwards 'next' and the copies are the exporter lock holder's. */
static enum prev_found found;
static uint64_t prev_boot;
static bool drop;			/* trace_prev=drop */
static struct prev_frame *frames;
static uint8_t *bodies;
static unsigned int nframes, next;
static bool info_sent;
static struct wire_prev_cpu info[NR_CPUS];
static unsigned int ninfo;

static int param_prev(const char *v)
{
	if (strcmp(v, "send") && strcmp(v, "drop"))
		return -1;
	drop = !strcmp(v, "drop");
	return 0;
}
KERNEL_PARAM("trace_prev", param_prev, "the previous boot's trace: send (first, default) or drop");

enum prev_found prev_found(void)
{
	return found;
}

uint64_t prev_boot_number(void)
{
	return found == PREV_KEPT ? prev_boot : 0;
}

static uint32_t image_hash(void)
{
	extern char bt_tables_start[], bt_tables_end[];

	return wire_crc32(0, bt_tables_start, (size_t)(bt_tables_end - bt_tables_start));
}

uint32_t prev_header_crc(const struct prev_header *h)
{
	struct prev_header c = *h;

	c.crc = 0;
	return wire_crc32(0, &c, sizeof(c));
}

/* The layout this image uses for a region of 'size' bytes at 'base'. */
struct prev_header prev_layout_for(uint64_t base, uint64_t size)
{
	uint64_t rings = (NR_CPUS * sizeof(struct ring_cpu) + 4095) & ~4095UL;
	uint64_t data = HEAD_BYTES + rings;

	return (struct prev_header){
		.magic = PREV_MAGIC, .layout = PREV_LAYOUT, .base = base, .size = size,
		.image_hash = image_hash(), .ncpus = NR_CPUS,
		.ring_cpu_bytes = sizeof(struct ring_cpu), .block_bytes = RING_BLOCK_SIZE,
		.rings_off = HEAD_BYTES, .data_off = data,
		.half_bytes = size > data ? (size - data) / 2 / RING_BLOCK_SIZE * RING_BLOCK_SIZE : 0,
	};
}

/*
 * Block 'seq' of the previous boot's ring 'o', if it checks: its length
 * and events in *used, *events. The block open at the reset checks by
 * its writer's position (its head was written when it was opened).
 */
static const struct ring_block *block_ok(const struct ring_cpu *o, uint64_t seq,
					 uint32_t *used, uint32_t *events)
{
	const struct ring_block *b = ring_block_at(o, seq);
	uint32_t cap = RING_BLOCK_SIZE - (uint32_t)sizeof(struct ring_block);

	if (b->seq != seq)
		return NULL;
	if (o->cur == b && seq == o->wr_seq) {
		if (o->wr < b->data || o->wr > b->data + cap || o->cur_events > cap)
			return NULL;
		*used = (uint32_t)(o->wr - b->data);
		*events = o->cur_events;
		return b;
	}
	if (b->used > cap || b->check != ring_block_check(b))
		return NULL;
	*used = b->used;
	*events = b->events;
	return b;
}

/* The sequence numbers a ring may still hold: [*lo, *hi). */
bool prev_ring_span(const struct prev_header *h, const struct ring_cpu *o,
		      uint64_t *lo, uint64_t *hi)
{
	uintptr_t d0 = h->base + h->data_off, d1 = d0 + 2 * h->half_bytes;
	uintptr_t m = (uintptr_t)o->mem;

	if (!o->mem || !o->started || !o->nblocks || m < d0 || m >= d1 ||
	    o->nblocks > (d1 - m) / RING_BLOCK_SIZE || o->seq_base > o->wr_seq)
		return false;
	*hi = o->wr_seq + 1;
	*lo = *hi - o->seq_base > o->nblocks ? *hi - o->nblocks : o->seq_base;
	return true;
}

/* Copies CPU c's blocks that check into frames[] (when 'copy'), and
 * counts them and those that do not in info[]; returns the body bytes. */
static size_t take_cpu(const struct prev_header *h, const struct ring_cpu *o,
		       unsigned int c, bool copy, uint8_t **at)
{
	struct wire_prev_cpu *e = &info[c];
	uint64_t lo, hi;
	size_t bytes = 0;

	*e = (struct wire_prev_cpu){ c, o->stored_done + (o->cur ? o->cur_events : 0) + o->dropped,
				     o->exported, o->overwritten, o->dropped, o->discarded, 0, 0 };
	if (!prev_ring_span(h, o, &lo, &hi))
		return 0;
	for (uint64_t s = lo; s < hi; s++) {
		uint32_t used, events;
		const struct ring_block *b = block_ok(o, s, &used, &events);

		if (!b) {
			e->torn++;
			continue;
		}
		e->kept++;
		bytes += 2 * WIRE_VARINT_MAX + used;
		if (!copy)
			continue;
		struct prev_frame *f = &frames[nframes++];
		unsigned int n = wire_block_head_put(*at, b->base_ts, b->first);

		memcpy(*at + n, b->data, used);
		*f = (struct prev_frame){ s, b->base_ts, *at, n + used, (uint8_t)c };
		*at += n + used;
	}
	return bytes;
}

/* Frames of all CPUs in time order (each CPU's are already): merged. */
static void order_frames(void)
{
	struct prev_frame *out = malloc(nframes * sizeof(*out));
	unsigned int at[NR_CPUS + 1] = { 0 }, k = 0;

	if (!out)
		return;		/* CPU by CPU, then */
	for (unsigned int i = 0; i < nframes; i++)
		at[frames[i].cpu + 1] = i + 1;	/* one past each CPU's last */
	for (unsigned int c = 1; c <= NR_CPUS; c++)
		if (at[c] < at[c - 1])
			at[c] = at[c - 1];
	unsigned int pos[NR_CPUS];

	for (unsigned int c = 0; c < NR_CPUS; c++)
		pos[c] = at[c];
	while (k < nframes) {
		int best = -1;

		for (unsigned int c = 0; c < NR_CPUS; c++)
			if (pos[c] < at[c + 1] &&
			    (best < 0 || frames[pos[c]].ts < frames[pos[best]].ts))
				best = (int)c;
		out[k++] = frames[pos[best]++];
	}
	free(frames);
	frames = out;
}

/* Says why a header is refused, or NULL if it is this image's. */
static const char *refusal(const struct prev_header *h, const struct prev_header *want)
{
	static char why[96];

	if (h->layout != PREV_LAYOUT || h->ring_cpu_bytes != want->ring_cpu_bytes ||
	    h->block_bytes != want->block_bytes || h->ncpus != NR_CPUS)
		return "its layout is not this image's";
	if (h->crc != prev_header_crc(h))
		return "its header is damaged (CRC-32 does not match)";
	if (h->base != want->base || h->size != want->size || h->data_off != want->data_off ||
	    h->half_bytes != want->half_bytes)
		return "it was written for another region";
	if (h->image_hash != want->image_hash) {
		ksnprintf(why, sizeof(why), "it is from another image (hash 0x%08x, this image 0x%08x)",
			  h->image_hash, want->image_hash);
		return why;
	}
	return NULL;
}

static void prev_init(void)
{
	struct mem_region r = persist_region();

	if (!r.size)
		return;
	struct prev_header *h = (struct prev_header *)(uintptr_t)r.base;
	struct prev_header want = prev_layout_for(r.base, r.size);

	if (h->magic != PREV_MAGIC)
		return;		/* nothing there: a cold boot */
	const char *why = refusal(h, &want);

	h->magic = 0;	/* read once: a boot that never traces leaves nothing */
	if (why) {
		found = PREV_REFUSED;
		kprintf("trace: the previous boot's trace is not used: %s\n", why);
		return;
	}
	found = PREV_KEPT;
	prev_boot = h->boot;
	const struct ring_cpu *o = (const struct ring_cpu *)(uintptr_t)(r.base + h->rings_off);
	size_t bytes = 0;
	uint8_t *at = NULL;
	uint64_t kept = 0, torn = 0, events = 0;

	for (unsigned int c = 0; c < NR_CPUS; c++)
		bytes += take_cpu(h, &o[c], c, false, &at);
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		kept += info[c].kept;
		torn += info[c].torn;
		events += info[c].produced;
		if (info[c].produced || info[c].kept)
			ninfo = c + 1;
	}
	if (!drop && kept) {
		frames = malloc(kept * sizeof(*frames));
		bodies = malloc(bytes);
		if (!frames || !bodies) {
			free(frames);
			free(bodies);
			frames = NULL;
			kprintf("trace: no memory for the previous boot's %lu blocks; dropped\n",
				(unsigned long)kept);
		} else {
			at = bodies;
			for (unsigned int c = 0; c < NR_CPUS; c++)
				take_cpu(h, &o[c], c, true, &at);
			order_frames();
		}
	}
	kprintf("trace: previous boot %lu left %lu blocks of %lu events recorded "
		"(%lu blocks did not check); %s\n", (unsigned long)prev_boot,
		(unsigned long)kept, (unsigned long)events, (unsigned long)torn,
		drop ? "dropped (trace_prev=drop)" : frames ? "sent first" : "nothing to send");
}
KERNEL_INIT(prev_init, KINIT_EARLY);

/* The previous boot's frames need the exporter even if nothing traces. */
static void prev_start_export(void)
{
	if (nframes || (found == PREV_KEPT && !drop))
		trace_export_ready();
}
KERNEL_INIT(prev_start_export, KINIT_LATE);

void prev_send_info(void)
{
	static uint8_t body[EXPORT_PAYLOAD_MAX];

	if (info_sent || found != PREV_KEPT || drop)
		return;
	info_sent = true;
	size_t len = wire_prev_encode(body, sizeof(body), prev_boot, info, ninfo);

	if (len)
		export_send(WIRE_FRAME_PREV_INFO, 0, 0, body, len);
}

bool prev_send_one(void)
{
	if (next == nframes || !info_sent)
		return false;
	struct prev_frame *f = &frames[next++];

	/* The copies stay allocated: the exporter may run with interrupts
	 * masked or at the end of a run, where the heap is not to be used. */
	export_send(WIRE_FRAME_PREV, f->cpu, f->seq, f->body, f->len);
	return true;
}
