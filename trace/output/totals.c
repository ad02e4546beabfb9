/*
 * trace/output/totals.c: the target's own account of a run, printed at its end
 * (the same totals travel to the host in the end-of-stream frame): how
 * many events there were, how many are lost and why, and a ring size
 * that would have kept them.
 */
#include <stddef.h>
#include <stdint.h>

#include "export.h"
#include "kprintf.h"
#include "ring/ring.h"
#include "smp.h"
#include "tracers/tracer.h"
#include "output.h"


/* A trace_buf= value of at least 'bytes': a power of two, K or M. */
static void size_text(char *buf, size_t n, uint64_t bytes)
{
	uint64_t kib = 2;

	while (kib * 1024 < bytes)
		kib *= 2;
	if (kib >= 1024)
		ksnprintf(buf, n, "%luM", (unsigned long)(kib / 1024));
	else
		ksnprintf(buf, n, "%luK", (unsigned long)kib);
}

void trace_report_totals(void)
{
	uint64_t produced = 0, overwritten = 0, dropped = 0, discarded = 0, need = 0;
	struct export_stats es;

	for (unsigned int c = 0; c < smp_num_cpus(); c++) {
		struct ring_totals t;

		ring_get_totals(c, &t);
		produced += t.produced;
		overwritten += t.overwritten;
		dropped += t.dropped;
		discarded += t.discarded + t.in_ring;
		/* A ring that holds every block this CPU filled keeps its
		 * whole run (dropped events need blocks of the same mean
		 * size). */
		uint64_t stored = t.produced - t.dropped;
		uint64_t blocks = t.blocks + (stored && t.dropped ?
					      (t.dropped * t.blocks + stored - 1) / stored : 0);

		if (blocks * RING_BLOCK_SIZE > need)
			need = blocks * RING_BLOCK_SIZE;
	}
	uint64_t lost = overwritten + dropped + discarded;

	export_get_stats(&es);
	kprintf("trace: %lu events, %lu lost, %lu frames, %lu wire bytes, "
		"%lu data blocks\n", (unsigned long)produced, (unsigned long)lost,
		(unsigned long)es.frames, (unsigned long)es.bytes, (unsigned long)es.blocks);
	if (!lost)
		return;
	char size[16];

	size_text(size, sizeof(size), need);
	kprintf("trace: %lu %% lost (%lu ring overwritten, %lu ring full in stop mode, "
		"%lu discarded on purpose: clear, a buffer change, a check reading the ring)%s%s%s\n",
		(unsigned long)((lost * 100 + produced / 2) / produced),
		(unsigned long)overwritten, (unsigned long)dropped, (unsigned long)discarded,
		!(overwritten + dropped) ? "" : need <= RING_MAX_BYTES ? "; trace_buf=" :
		"; more than trace_buf=64M would hold: narrow trace_filter",
		(overwritten + dropped) && need <= RING_MAX_BYTES ? size : "",
		(overwritten + dropped) && need <= RING_MAX_BYTES ? " holds this run" : "");
}
