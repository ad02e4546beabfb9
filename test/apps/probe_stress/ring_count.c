/*
 * test/apps/probe_stress/ring_count.c: the probe records the rings hold
 * (stress.h). The exporter is kept out for the whole run (export_hold),
 * so this is the rings' only reader: every record a probe wrote since
 * the last count is read here, once, and the blocks are free again.
 */
#include <stdbool.h>
#include <stdint.h>

#include <baretrace.h>

#include "output/export.h"
#include "ring/ring.h"
#include "wire.h"

#include "stress.h"

static uint8_t body[RING_BODY_MAX];
static struct wire_rec_iter it;
static uint64_t dropped_seen[64];

int stress_rings(unsigned long bytes)
{
	export_hold();
	return ring_setup(bytes, RING_STOP);
}

static void close_block(void *arg)
{
	(void)arg;
	ring_close_block();
}

/* One record's payload: number, count, faulted mask, values (zigzag). */
static void check_one(const struct wire_record *r, uint32_t number, uintptr_t pc,
		      uint64_t *records, uint64_t *bad)
{
	const uint8_t *p = r->data, *end = p + r->data_len;
	uint64_t v = 0;
	int n = wire_varint_get(p, (size_t)(end - p), &v);

	if (n <= 0 || v != number)
		return;		/* another probe's (none should be there) */
	(*records)++;
	p += n;
	/* Two fetches (sweep.c): pc:x64 and +0(sp):u8, none faulted. */
	if (end - p < 2 || p[0] != 2 || p[1] != 0) {
		(*bad)++;
		return;
	}
	p += 2;
	n = wire_varint_get(p, (size_t)(end - p), &v);
	if (n <= 0 || wire_unzigzag(v) != (int64_t)pc)
		(*bad)++;
}

uint64_t stress_count_records(uint32_t number, uintptr_t pc, uint64_t *records, uint64_t *bad)
{
	unsigned int ncpus = smp_num_cpus();
	uint64_t dropped = 0;
	uint64_t seq;
	long len;

	*records = *bad = 0;
	for (unsigned int cpu = 0; cpu < ncpus; cpu++) {
		struct ring_totals t;

		smp_call(cpu, close_block, NULL);
		while ((len = ring_take_body(cpu, body, sizeof(body), &seq)) >= 0) {
			struct wire_record r;

			if (wire_rec_begin(&it, body, (size_t)len, NULL, NULL)) {
				(*bad)++;
				continue;
			}
			while (wire_rec_next(&it, &r) == WIRE_REC_OK)
				if (r.kind == WIRE_REC_EXT && r.subtype == WIRE_EXT_PROBE)
					check_one(&r, number, pc, records, bad);
				else if (r.kind != WIRE_REC_LOST)	/* after a full ring */
					(*bad)++;	/* nothing else records */
		}
		ring_get_totals(cpu, &t);
		if (cpu < 64) {
			dropped += t.dropped + t.overwritten - dropped_seen[cpu];
			dropped_seen[cpu] = t.dropped + t.overwritten;
		}
	}
	return dropped;
}
