/* sources: tools/baretrace/model/coverage.c wire/wire.c tools/baretrace/base/util.c kernel/lib/nearest.c */
/*
 * test/fuzz/fuzz_coverage.c: any bytes as the body of a coverage frame
 * (types 8 and 9), merged into an image's sites by the host tool
 * (tools/baretrace/model/coverage.c). The first input byte picks the
 * image's site count (0-255), the rest is the body, copied to an
 * exact-size heap buffer so a read past it hits an ASan redzone.
 * Checked: a body refused leaves every bit as it was; one accepted only
 * ever adds bits, never a site past the count, and says how many set
 * bits fell past it; the same body merged again changes nothing.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/baretrace/model/model.h"

#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bt_cov c;
	uint64_t nsites = size ? data[0] : 0, before, beyond;
	uint8_t *body = malloc(size ? size - 1 : 1), *old;
	size_t n = size ? size - 1 : 0;

	memcpy(body, data + (size ? 1 : 0), n);
	bt_cov_init(&c, nsites);
	if (nsites)
		c.reached[0] = 0x01;	/* site 0 reached already */
	before = bt_cov_count(&c);
	old = malloc(nsites / 8 + 1);
	memcpy(old, c.reached, nsites / 8 + 1);
	if (bt_cov_add_frame(&c, body, n)) {
		must(!memcmp(old, c.reached, nsites / 8 + 1) && c.frames == 0 && c.beyond == 0);
	} else {
		for (uint64_t s = 0; s < nsites; s++)
			must(!(old[s / 8] >> (s % 8) & 1) || bt_cov_is_reached(&c, s));
		for (uint64_t s = nsites; s < (nsites / 8 + 1) * 8; s++)
			must(!(c.reached[s / 8] >> (s % 8) & 1));
		must(bt_cov_count(&c) >= before && c.frames == 1);
		memcpy(old, c.reached, nsites / 8 + 1);
		beyond = c.beyond;
		must(bt_cov_add_frame(&c, body, n) == 0 && !memcmp(old, c.reached, nsites / 8 + 1) &&
		     c.beyond == 2 * beyond);
	}
	bt_cov_free(&c);
	free(old);
	free(body);
	return 0;
}
