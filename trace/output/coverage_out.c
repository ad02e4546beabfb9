/*
 * trace/output/coverage_out.c: the coverage bitmap to the host (frame
 * type 8, docs/wire.md 2.11) and its summary on the console.
 */
#include <stdint.h>
#include <string.h>

#include "core/core.h"
#include "export.h"
#include "kprintf.h"
#include "output.h"
#include "ring/ring.h"
#include "tracers/coverage.h"
#include "wire.h"

/* Sites per frame: a whole block's bytes of bits leave the 16 bytes of
 * RING_FRAME_BODY_MAX beyond them for the two varints; a multiple of 8,
 * so every frame but the first starts at a multiple of 8 sites. */
#define SITES_PER_FRAME	(RING_BLOCK_SIZE * 8)

_Static_assert(RING_FRAME_BODY_MAX >= RING_BLOCK_SIZE + 2 * 10 - 4, "two varints fit");

/* One set of frames, sites 0 .. count - 1, each frame's body built in
 * the same static buffer (export_frame copies it): callers are the
 * console, the end of the run, the crash and break-key dumps and the
 * exporter (the previous boot's), one at a time (the crash path stops
 * the others first). */
void coverage_frames(unsigned int type, const uint64_t *bits, uint64_t *seq)
{
	static uint8_t body[RING_FRAME_BODY_MAX];
	unsigned int n = trace_site_count();

	for (unsigned int first = 0; first < n; first += SITES_PER_FRAME) {
		unsigned int nbits = n - first < SITES_PER_FRAME ? n - first : SITES_PER_FRAME;
		struct wire_out o;

		wire_out_init(&o, body, sizeof(body));
		wire_out_varint(&o, first);
		wire_out_varint(&o, nbits);
		for (unsigned int j = 0; j < (nbits + 7) / 8; j++) {
			uint8_t b = 0;

			for (unsigned int k = 0; k < 8 && 8 * j + k < nbits; k++) {
				unsigned int site = first + 8 * j + k;

				if (__atomic_load_n(&bits[site / 64], __ATOMIC_RELAXED) &
				    (1ULL << (site % 64)))
					b |= (uint8_t)(1u << k);
			}
			wire_out_u8(&o, b);
		}
		export_frame(type, 0, (*seq)++, body, o.len);
	}
}

void coverage_send(void)
{
	static uint64_t seq;

	if (coverage_reached())
		coverage_frames(COVERAGE_FRAME, coverage_reached(), &seq);
}

/* Per folder of the sources (bt_site_folder, from the link map): boot/,
 * kernel/ and trace/ have few sites by design (the trace path and early
 * boot are built without them), drivers/, board/ and the application
 * ("app") have one per function. */
static void print_folders(const uint64_t *bits, const uint64_t *chosen)
{
	static uint32_t patchable[256], wanted[256], reached[256];
	const char *name = bt_folder_names;

	for (unsigned int k = 0; k < bt_folder_count; k++)
		patchable[k] = wanted[k] = reached[k] = 0;
	for (unsigned int i = 0; i < trace_site_count(); i++) {
		unsigned int k = bt_site_folder[i];

		patchable[k]++;
		wanted[k] += site_bit(chosen, i);
		reached[k] += site_bit(bits, i) && site_bit(chosen, i);
	}
	for (unsigned int k = 0; k < bt_folder_count; k++, name += strlen(name) + 1)
		kprintf("coverage:   %-8s %5u of %5u reached, %5u patchable\n", name,
			reached[k], wanted[k], patchable[k]);
}

void coverage_print(void)
{
	const uint64_t *bits = coverage_reached(), *chosen = coverage_chosen();
	unsigned int reached = 0, wanted = 0;

	if (!bits || !chosen) {
		kprintf("coverage: not started\n");
		return;
	}
	for (unsigned int i = 0; i < trace_site_count(); i++) {
		wanted += site_bit(chosen, i);
		reached += site_bit(bits, i) && site_bit(chosen, i);
	}
	kprintf("coverage: %u of %u functions reached (%u patchable), %u waiting to be "
		"taken off\n", reached, wanted, trace_site_count(), coverage_pending());
	print_folders(bits, chosen);
}
