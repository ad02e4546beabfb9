/*
 * trace/output/prev.c: the previous boot's trace, read back from the
 * region kept across resets and sent first (see prev.h; this boot's
 * rings in the region: prev_region.c).
 *
 * Region layout (base from kernel/report/persist.h, every offset fixed by
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
#include "core/probe.h"
#include "export_int.h"
#include "hooks.h"
#include "kprintf.h"
#include "percpu.h"
#include "persist.h"
#include "prev.h"
#include "prev_int.h"
#include "prev_parse.h"
#include "ring/ring.h"
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

/* The layout this image uses for a region of 'size' bytes at 'base'. */
struct prev_header prev_layout_for(uint64_t base, uint64_t size)
{
	return prev_layout(base, size, export_image_hash());
}

/* Where take_block puts a CPU's blocks: counted, or copied too. */
struct take_ctx {
	bool copy;
	unsigned int cpu;
	size_t bytes;		/* frame bodies' bytes, at most */
	uint8_t *at;		/* the next body (when copying) */
};

static void take_block(void *arg, uint64_t seq, const struct ring_block *b, uint32_t used)
{
	struct take_ctx *t = arg;

	t->bytes += 2 * WIRE_VARINT_MAX + used;
	if (!t->copy)
		return;
	struct prev_frame *f = &frames[nframes++];
	unsigned int n = wire_block_head_put(t->at, b->base_ts, b->first);

	memcpy(t->at + n, b->data, used);
	*f = (struct prev_frame){ seq, b->base_ts, t->at, n + used, (uint8_t)t->cpu };
	t->at += n + used;
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

/* The console's words for a refusal. */
static const char *why_text(struct prev_why w)
{
	static char text[128];

	switch (w.kind) {
	case PREV_WHY_FIELD:
		ksnprintf(text, sizeof(text), "its %s is 0x%lx, this image's 0x%lx", w.what,
			  (unsigned long)w.got, (unsigned long)w.want);
		return text;
	case PREV_WHY_VALUE:
		ksnprintf(text, sizeof(text), "its %s cannot be 0x%lx", w.what,
			  (unsigned long)w.got);
		return text;
	case PREV_WHY_IMAGE:
		ksnprintf(text, sizeof(text), "it is from another image (hash 0x%08x, this image 0x%08x)",
			  (uint32_t)w.got, (uint32_t)w.want);
		return text;
	default:
		return w.what;
	}
}

/* Reads each CPU's ring state; one refused is said once and not used. */
static void read_rings(const struct prev_view *v, const struct prev_header *h,
		       struct prev_ring *rings)
{
	for (unsigned int c = 0; c < NR_CPUS; c++) {
		struct prev_why why = prev_read_ring(v, h, c, &rings[c]);

		if (why.what) {
			rings[c] = (struct prev_ring){ .books.cpu = c };
			kprintf("trace: the previous boot's ring of CPU %u is not used: %s\n", c,
				why_text(why));
		}
	}
}

static void prev_init(void)
{
	static struct prev_ring rings[NR_CPUS];
	struct mem_region r = persist_region();

	ring_set_kept_mem(&prev_kept_mem);	/* this boot's rings go there too */
	if (r.size < HEAD_BYTES)
		return;
	struct prev_header *kept = (struct prev_header *)(uintptr_t)r.base;
	struct prev_view v = { (const uint8_t *)(uintptr_t)r.base, r.base, r.size };
	struct prev_header want = prev_layout_for(r.base, r.size), h;

	if (kept->magic != PREV_MAGIC) {
		prev_coverage_take(false);
		return;		/* nothing there: a cold boot */
	}
	struct prev_why why = prev_read_header(&v, &want, &h);

	prev_coverage_take(!why.what);
	kept->magic = 0;	/* read once: a boot that never traces leaves nothing */
	if (why.what) {
		found = PREV_REFUSED;
		kprintf("trace: the previous boot's trace is not used: %s\n", why_text(why));
		return;
	}
	found = PREV_KEPT;
	prev_boot = h.boot;
	probe_number_boot(prev_boot + 1);	/* apart from the kept hits' numbers */
	read_rings(&v, &h, rings);
	struct take_ctx t = { 0 };
	uint64_t kept_blocks = 0, torn = 0, events = 0;

	for (unsigned int c = 0; c < NR_CPUS; c++) {
		prev_walk(&v, &rings[c], take_block, &t);
		info[c] = rings[c].books;
		kept_blocks += info[c].kept;
		torn += info[c].torn;
		events += info[c].produced;
		if (info[c].produced || info[c].kept)
			ninfo = c + 1;
	}
	if (!drop && kept_blocks) {
		frames = malloc(kept_blocks * sizeof(*frames));
		bodies = malloc(t.bytes);
		if (!frames || !bodies) {
			free(frames);
			free(bodies);
			frames = NULL;
			kprintf("trace: no memory for the previous boot's %lu blocks; dropped\n",
				(unsigned long)kept_blocks);
		} else {
			t = (struct take_ctx){ .copy = true, .at = bodies };
			for (unsigned int c = 0; c < NR_CPUS; c++) {
				t.cpu = c;
				prev_walk(&v, &rings[c], take_block, &t);
			}
			order_frames();
		}
	}
	kprintf("trace: previous boot %lu left %lu blocks of %lu events recorded "
		"(%lu blocks did not check); %s\n", (unsigned long)prev_boot,
		(unsigned long)kept_blocks, (unsigned long)events, (unsigned long)torn,
		drop ? "dropped (trace_prev=drop)" : frames ? "sent first" : "nothing to send");
}
KERNEL_INIT(prev_init, KINIT_EARLY);

/* The previous boot's frames need the exporter even if nothing traces. */
static void prev_start_export(void)
{
	if (nframes || (found == PREV_KEPT && !drop))
		ring_make_ready();
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
	prev_coverage_send();	/* type 9, right after the summary */
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
