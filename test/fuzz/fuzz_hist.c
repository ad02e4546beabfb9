/* sources: tools/baretrace/model/hist.c wire/wire.c tools/baretrace/base/util.c kernel/lib/nearest.c */
/*
 * test/fuzz/fuzz_hist.c: any bytes as the body of a duration-histogram
 * frame (type 10, docs/wire.md 2.12), read by the host tool
 * (tools/baretrace/model/hist.c) into a CPU that already holds a dump.
 * The first input byte picks the CPU (0-255), the rest is the body,
 * copied to an exact-size heap buffer so a read past it hits an ASan
 * redzone. Checked: a body refused leaves the CPU's dump as it was; one
 * accepted holds, per function, calls equal to its buckets' total and
 * buckets in range; the same body taken again as a new dump (part 0)
 * gives the same dump. Kind 1 (a tracepoint field per key) too: each
 * key's hits equal its buckets' total, and the function dump is left
 * alone.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/baretrace/model/model.h"
#include "../../wire/wire.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint8_t first[] = { 0, 0, 1, 7, 100, 1, 11, 3 };	/* site 7: 3 calls in bucket 11 */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct bt_hist h;
	unsigned cpu = size ? data[0] : 0;
	size_t n = size ? size - 1 : 0;
	uint8_t *body = malloc(n ? n : 1);
	struct bt_hist_cpu before;

	memcpy(body, data + (size ? 1 : 0), n);
	bt_hist_init(&h);
	must(bt_hist_add_frame(&h, cpu, first, sizeof(first)) == 0);
	before = h.cpu[cpu];
	must(before.n == 1 && before.fn[0].calls == 3);
	if (bt_hist_add_frame(&h, cpu, body, n)) {
		must(h.cpu[cpu].n == 1 && h.cpu[cpu].fn[0].site == 7 &&
		     h.cpu[cpu].fn[0].bucket[11] == 3 && h.frames == 1);
	} else {
		struct bt_hist_cpu *c = &h.cpu[cpu];

		for (size_t i = 0; i < c->n; i++) {
			uint64_t sum = 0;

			for (unsigned b = 0; b < WIRE_HIST_BUCKETS; b++)
				sum += c->fn[i].bucket[b];
			must(sum == c->fn[i].calls && c->fn[i].calls > 0);
		}
		size_t was = c->n;
		struct bt_hist_fn *copy = malloc(was * sizeof(*copy) + 1);

		memcpy(copy, c->fn, was * sizeof(*copy));
		if (n > 1 && body[1] == 0) {	/* part 0: a new dump, the same again */
			must(bt_hist_add_frame(&h, cpu, body, n) == 0 && c->n == was &&
			     !memcmp(copy, c->fn, was * sizeof(*copy)));
		}
		free(copy);
		for (unsigned k = 0; k < BT_HIST_EV_MAX; k++) {
			const struct bt_hist_cpu *e = h.ev[k].used ? &h.ev[k].keys->cpu[cpu] : NULL;

			for (size_t i = 0; e && i < e->n; i++) {
				uint64_t sum = 0;

				for (unsigned b = 0; b < WIRE_HIST_BUCKETS; b++)
					sum += e->fn[i].bucket[b];
				must(sum == e->fn[i].calls && e->fn[i].calls > 0);
			}
		}
	}
	bt_hist_free(&h);
	free(body);
	return 0;
}
