/* sources: trace/core/probe_window.c trace/core/probe_insn.c */
/*
 * test/fuzz/fuzz_probe_place.c: the planting check over a function's
 * code (trace/core/probe_window.c, probe_insn.c). Input: a 16-bit index
 * (little-endian), then the function's words (little-endian, at most
 * 256: a bigger function only costs more). The body sits in a buffer of
 * exactly its size, so ASan stops any read outside it. Invariants:
 *  - an index past the end is refused, and nothing is read for it;
 *  - every word of every exclusive sequence the straight-line reading
 *    below finds (a load-exclusive, then within PROBE_WINDOW_MAX words
 *    and with no other load-exclusive, B, BR, RET or ERET between, a
 *    store-exclusive) is refused, for itself or for its window, and
 *    the window refusal says so; the same for MSR ELR_EL1/SPSR_EL1 to ERET;
 *  - a word refused for itself gets that reason first;
 *  - the answers are the same when asked again, and the body unchanged;
 *  - a window refusal needs an opening and a closing word in the body.
 * The reading here decodes the fields itself (DDI 0487, C4.1, "Load/store
 * exclusive"), not with the masks of the code under test.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../trace/core/probe_insn.h"
#include "fuzz.h"

#define WORDS_MAX	256
#define WINDOWS_CHECKED	16

/* 1 load-exclusive, 2 store-exclusive, 0 neither. */
static int exclusive_kind(uint32_t w)
{
	unsigned int size = w >> 30, o2 = (w >> 23) & 1, l = (w >> 22) & 1, o1 = (w >> 21) & 1;

	if (((w >> 24) & 0x3f) != 0x08 || o2)
		return 0;
	if (o1 && size < 2)
		return 0;	/* CASP: one access */
	return l ? 1 : 2;
}

static bool writes_elr_spsr(uint32_t w)
{
	return (w & ~0x1fU) == 0xd5184020 || (w & ~0x1fU) == 0xd5184000;
}

static bool is_eret(uint32_t w)
{
	return w == 0xd69f03e0 || w == 0xd69f0bff || w == 0xd69f0fff;
}

/* Ends a straight-line reading: B, or BR/RET/ERET (not BLR). */
static bool ends_straight(uint32_t w)
{
	return (w >> 26) == 0x05 || ((w >> 25) == 0x6b && ((w >> 21) & 0xf) != 1);
}

static void check_window(const uint32_t *body, size_t n, size_t i, size_t j, const char *word)
{
	for (size_t k = i; k <= j; k++) {
		const char *place = probe_place_refusal(body, n, k);
		const char *win = probe_window_refusal(body, n, k);

		/* A word also in an exclusive sequence says that first. */
		must(place && *place && win &&
		     (strstr(win, word) || strstr(win, "exclusive sequence")));
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	size_t at = (size_t)data[0] | (size_t)data[1] << 8;
	size_t n = (size - 2) / 4;

	if (n > WORDS_MAX)
		n = WORDS_MAX;
	uint32_t *body = malloc(n ? n * 4 : 1), *copy = malloc(n ? n * 4 : 1);

	for (size_t i = 0; i < n; i++)
		body[i] = (uint32_t)data[2 + 4 * i] | (uint32_t)data[3 + 4 * i] << 8 |
			  (uint32_t)data[4 + 4 * i] << 16 | (uint32_t)data[5 + 4 * i] << 24;
	memcpy(copy, body, n * 4);

	/* The index asked, past the end or not. */
	const char *place = probe_place_refusal(body, n, at);
	const char *win = probe_window_refusal(body, n, at);

	if (at >= n) {
		must(place && *place && win && *win);
	} else {
		const char *self = probe_insn_refusal(body[at]);

		must(self ? place == self : place == win);
		if (win) {
			bool opens = false, closes = false;

			for (size_t i = 0; i < n; i++) {
				opens |= exclusive_kind(body[i]) == 1 || writes_elr_spsr(body[i]);
				closes |= exclusive_kind(body[i]) == 2 || is_eret(body[i]);
			}
			must(opens && closes && *win);
		}
	}
	must(probe_place_refusal(body, n, at) == place && probe_window_refusal(body, n, at) == win);

	/* Every straight-line window is refused, word by word. */
	unsigned int windows = 0;

	for (size_t i = 0; i < n && windows < WINDOWS_CHECKED; i++) {
		bool excl = exclusive_kind(body[i]) == 1, ret = writes_elr_spsr(body[i]);

		if (!excl && !ret)
			continue;
		for (size_t j = i + 1; j < n && j - i < PROBE_WINDOW_MAX; j++) {
			if (excl && exclusive_kind(body[j]) == 2) {
				check_window(body, n, i, j, "exclusive");
				windows++;
				break;
			}
			if (ret && is_eret(body[j])) {
				check_window(body, n, i, j, "ERET");
				windows++;
				break;
			}
			if (ends_straight(body[j]) || (excl && exclusive_kind(body[j]) == 1))
				break;
		}
	}
	must(!memcmp(copy, body, n * 4));
	free(body);
	free(copy);
	return 0;
}
