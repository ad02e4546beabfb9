/*
 * trace/output/hist_out.c: the duration histograms (trace/tracers/hist.c)
 * to the host, frame type 10 (docs/wire.md 2.12), and as bars on the
 * console.
 */
#include <stdint.h>

#include "core/core.h"
#include "export.h"
#include "kprintf.h"
#include "ktime.h"
#include "percpu.h"
#include "ring/ring.h"
#include "tracers/hist.h"
#include "wire.h"

#define BAR_WIDTH	40

_Static_assert(HIST_BUCKETS == WIRE_HIST_BUCKETS, "the wire's buckets are the target's");
/* The largest entry (every bucket used, every varint at its longest)
 * and the frame's head fit one body, so each frame takes one at least. */
_Static_assert(RING_FRAME_BODY_MAX >= 3 + 2 * WIRE_VARINT_MAX + 1 + 2 + HIST_BUCKETS * (1 + WIRE_VARINT_MAX),
	       "one histogram fits a frame");

/* One histogram's entry (a function's site or a field's key, the sum,
 * the buckets in use); o->overflow set if it did not fit. Both kinds of
 * frame 10 write their rows here (docs/wire.md 2.12). */
void hist_put_row(struct wire_out *o, uint64_t id, uint64_t sum, const uint64_t *bucket)
{
	unsigned int used = 0;

	for (unsigned int b = 0; b < HIST_BUCKETS; b++)
		used += bucket[b] != 0;
	wire_out_varint(o, id);
	wire_out_varint(o, sum);
	wire_out_varint(o, used);
	for (unsigned int b = 0; b < HIST_BUCKETS; b++)
		if (bucket[b]) {
			wire_out_u8(o, (uint8_t)b);
			wire_out_varint(o, bucket[b]);
		}
}

static bool row_empty(const struct hist_row *r)
{
	for (unsigned int b = 0; b < HIST_BUCKETS; b++)
		if (r->bucket[b])
			return false;
	return true;
}

/* One sequence for all type-10 frames of the run (both kinds). */
uint64_t hist_frame_seq(void)
{
	static uint64_t seq;

	return seq++;
}

/* Callers: the console, the end of the run; one at a time (the body is
 * static; export_frame copies it). Every CPU online gets a dump, an
 * empty one included, so the host replaces what it had of each. */
void hist_send(void)
{
	static uint8_t body[RING_FRAME_BODY_MAX];
	const unsigned int *sites;
	unsigned int n = hist_functions(&sites);

	if (!hist_started())
		return;
	for (unsigned int c = 0; c < smp_num_cpus(); c++) {
		unsigned int k = 0, part = 0;

		do {
			struct wire_out o;
			unsigned int count = 0;
			size_t at;

			wire_out_init(&o, body, sizeof(body));
			wire_out_u8(&o, WIRE_HIST_DURATION);
			wire_out_varint(&o, part);
			at = o.len;
			wire_out_u8(&o, 0);	/* count: one byte, patched */
			for (; k < n && count < 127; k++) {
				const struct hist_row *r = hist_row_of(c, k);
				size_t before = o.len;

				if (!r || row_empty(r))
					continue;
				hist_put_row(&o, sites[k], r->sum, r->bucket);
				if (o.overflow) {	/* goes in the next frame */
					o.len = before;
					o.overflow = 0;
					break;
				}
				count++;
			}
			body[at] = (uint8_t)count;
			export_frame(WIRE_FRAME_HIST, c, hist_frame_seq(), body, o.len);
			part++;
		} while (k < n);
	}
}

static void print_one(unsigned int site, unsigned int slot)
{
	uint64_t sum[HIST_BUCKETS] = { 0 }, calls = 0, total = 0;
	unsigned int cpus = 0;

	for (unsigned int c = 0; c < smp_num_cpus(); c++) {
		const struct hist_row *r = hist_row_of(c, slot);
		uint64_t mine = 0;

		for (unsigned int b = 0; r && b < HIST_BUCKETS; b++) {
			sum[b] += r->bucket[b];
			mine += r->bucket[b];
		}
		if (mine) {
			cpus++;
			calls += mine;
			total += r->sum;
		}
	}
	kprintf("hist: %s: %lu call%s on %u CPU%s", trace_site_name(site), (unsigned long)calls,
		calls == 1 ? "" : "s", cpus, cpus == 1 ? "" : "s");
	if (!calls) {
		kprintf("\n");
		return;
	}
	kprintf(", average %lu ticks\n", (unsigned long)(total / calls));
	hist_print_bars(sum, "ticks");
}

/* The bars of one histogram, from its first used bucket to its last. */
void hist_print_bars(const uint64_t *sum, const char *unit)
{
	uint64_t most = 0;
	unsigned int lo = HIST_BUCKETS, hi = 0;

	for (unsigned int b = 0; b < HIST_BUCKETS; b++)
		if (sum[b]) {
			lo = b < lo ? b : lo;
			hi = b;
			most = sum[b] > most ? sum[b] : most;
		}
	kprintf("%24s : %-10s distribution\n", unit, "count");
	for (unsigned int b = lo; b <= hi; b++) {
		uint64_t from = b ? 1ULL << (b - 1) : 0, to = b ? (1ULL << b) - 1 : 0;
		unsigned int stars = (unsigned int)(sum[b] * BAR_WIDTH / most);
		char bar[BAR_WIDTH + 1];

		for (unsigned int i = 0; i < BAR_WIDTH; i++)
			bar[i] = i < stars ? '*' : ' ';
		bar[BAR_WIDTH] = '\0';
		kprintf("%10lu -> %-10lu : %-10lu |%s|\n", (unsigned long)from, (unsigned long)to,
			(unsigned long)sum[b], bar);
	}
}

void hist_print(void)
{
	const unsigned int *sites;
	unsigned int n = hist_functions(&sites);

	if (!hist_started()) {
		kprintf("hist: not started\n");
		return;
	}
	kprintf("hist: %u function%s, durations in counter ticks (%lu Hz)\n", n,
		n == 1 ? "" : "s", (unsigned long)time_counter_hz());
	for (unsigned int k = 0; k < n; k++)
		print_one(sites[k], k);
}
