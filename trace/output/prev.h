/*
 * trace/output/prev.h: the rings outlive a reset (docs/wire.md 2.10).
 *
 * The rings, their per-CPU state (struct ring_cpu) and a header live in
 * the RAM region the kernel keeps across resets (kernel/report/persist.h). At
 * boot, before any ring is set up, prev.c reads what the previous boot
 * left there: the header (magic, layout, CRC-32, region address, image
 * hash, boot number), then each CPU's blocks from the oldest the ring
 * still holds to the one open at the reset, each checked
 * (ring_block_check; the open one by its writer's position), a block
 * that does not check dropped and counted. Every value read from the
 * region is checked against it and this image's layout first
 * (prev_parse.h): a refused header is said once and nothing else in
 * the region is read. With trace_prev=send (the
 * default) the blocks are copied aside and go to the host first, as
 * type-6 frames after a type-7 summary; with trace_prev=drop they are
 * only counted. Either way the region then holds this boot's rings.
 *
 * Concurrency: prev_init runs on the boot CPU before other CPUs start;
 * the rings take the region in ring_setup (under its caller's lock);
 * the frames are sent by the exporter's lock holder.
 */
#ifndef TRACE_PREV_H
#define TRACE_PREV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ring_cpu;

enum prev_found {
	PREV_NONE,		/* no trace of a previous boot (or no region) */
	PREV_KEPT,		/* found, checked: sent or dropped as asked */
	PREV_REFUSED,		/* found, but damaged or of another image */
};

/* What this boot found (after KINIT_EARLY), and the previous boot's
 * number (1 for the first boot that wrote the region), 0 if none. */
enum prev_found prev_found(void);
uint64_t prev_boot_number(void);

/* The region's ring_cpu array, zeroed, with this boot's header written;
 * NULL if there is no region. ring_setup's first call takes it. */
struct ring_cpu *prev_rings(void);
/* Memory for 'total' bytes of rings in the region, in the half that no
 * ring in rings[0..n) uses or is switching from or to; NULL if none. */
void *prev_ring_mem(size_t total, const struct ring_cpu *rings, unsigned int n);
/* The bytes one set of rings may take in the region (each half holds
 * one), 0 with no region: the default ring stays within it. */
size_t prev_ring_room(void);
/* Whether p is ring memory in the region (never freed). */
bool prev_holds(const void *p);
/* The three, as prev_init hands them to the rings (ring_set_kept_mem). */
extern const struct ring_kept_mem prev_kept_mem;

/* The exporter (lock held): the summary frame, once (export_start),
 * then one previous-boot block per call while any is left: true if it
 * sent one (send_one_block sends these before this boot's). */
void prev_send_info(void);
bool prev_send_one(void);

/* trace/output/prev_coverage.c: the coverage bits kept across a reset.
 * prev_init takes the previous boot's (when its header checked: 'kept')
 * and clears the area; prev_send_info sends them (type 9) after the
 * summary. prev_coverage_area: the area, zeroed, for this boot's bits
 * (coverage_prepare), or NULL with no region or too many sites. */
void prev_coverage_take(bool kept);
void prev_coverage_send(void);
uint64_t *prev_coverage_area(void);
/* This boot's bits in the area are no longer valid for the next boot
 * (coverage was forgotten: trace_coverage_forget). */
void prev_coverage_forget(void);

/* Tests: spoil the header as a damaged region or another image would,
 * or as a scribble that left its CRC valid (ring state 1 TiB away), so
 * that the next boot refuses it; or this CPU's oldest complete block as
 * a reset while it was being reused would, so that the next boot drops
 * that block and counts it; or this CPU's counters as a scribble would
 * (more overwritten than stored), so that the next boot refuses this CPU's
 * ring state and uses the others'. */
enum prev_spoil { PREV_SPOIL_CRC = 1, PREV_SPOIL_IMAGE = 2, PREV_SPOIL_BLOCK = 3,
		  PREV_SPOIL_RINGS_OFF = 4, PREV_SPOIL_BOOKS = 5 };
void prev_spoil_for_test(enum prev_spoil how);

#endif /* TRACE_PREV_H */
