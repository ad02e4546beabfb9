/*
 * trace/core/probe_window.c: the places a probe may not go because of
 * the code around them (probe_insn.h says why; docs/probes.md lists them).
 *
 * A window opens at one instruction and closes at a later one; a probe's
 * exception anywhere from the opening to the closing instruction, both
 * included, breaks what the pair does:
 *
 *   opens                closes            what the exception does
 *   load-exclusive       store-exclusive   clears the monitor (in
 *   (LDXR, LDAXR, LDXP,  (STXR, STLXR,     Armv8-A taking an exception
 *   LDAXP, B/H forms)    STXP, STLXP, ...) or returning from one does),
 *                                          so the store fails every pass
 *   MSR ELR_EL1 or       ERET              overwrites the ELR_EL1 and
 *   MSR SPSR_EL1                           SPSR_EL1 the ERET reads
 *
 * The walk: from each opening instruction of the function, follow the
 * code as it runs straight on: the next word, or the target of an
 * unconditional B inside the function; conditional branches and calls
 * fall through (the branch back of a retry loop and the early exit of a
 * compare-and-swap both come after or around the straight path), and so
 * does BLR. The walk ends without a window at another load-exclusive
 * (it re-arms the monitor: the store pairs with it, and its own walk
 * finds that window; a second MSR of ELR_EL1/SPSR_EL1 does not end one),
 * at BR, RET or an ERET that does not close it (execution leaves), at
 * the end of the function, or after PROBE_WINDOW_MAX words. The Arm ARM (DDI 0487, B2.9.5, "Load-Exclusive
 * and Store-Exclusive instruction usage restrictions") promises progress
 * only when nothing between the pair accesses memory, generates or
 * returns from an exception or branches indirectly: a real window is a
 * handful of instructions (GCC's atomics: 2 to 5), so 32 words is far
 * beyond any, and bounds the cost (n * 32 reads for n words).
 *
 * A word the walk reads may be a planted probe's BRK: probes never sit
 * on a closing or branch instruction or a load-exclusive (probe_insn.c
 * refuses them), nor on an opening one whose window closes, so a BRK
 * never changes a window found. Pure C: the host tests and
 * fuzzes it (test/host/test_probe_window.c, test/fuzz/fuzz_probe_place.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "probe_insn.h"

/* Load/store exclusive, o2 = 0 (LDAR, STLR and CAS have o2 = 1): the
 * single-register forms (o1 = 0) and the pair forms (o1 = 1, bit 31
 * set; with bit 31 clear the encoding is CASP). L (bit 22) = load.
 * Bits 29..23 are compared as a field, 0b0010000: the mask-and-compare
 * form puts 0x08000000 in the code, which the Pi images' check for QEMU
 * virt's device addresses (its GIC distributor) rightly cannot tell
 * from one. */
static bool exclusive(uint32_t insn, bool load)
{
	if (((insn >> 23) & 0x7f) != 0x10 || (insn & 0x80200000) == 0x00200000)
		return false;
	return !!(insn & 0x00400000) == load;
}

static bool opens_exclusive(uint32_t insn)
{
	return exclusive(insn, true);
}

static bool closes_exclusive(uint32_t insn)
{
	return exclusive(insn, false);
}

/* MSR ELR_EL1, Xt and MSR SPSR_EL1, Xt (op0 3, op1 0, CRn 4, CRm 0). */
static bool opens_return(uint32_t insn)
{
	return (insn & 0xffffffe0) == 0xd5184020 || (insn & 0xffffffe0) == 0xd5184000;
}

/* ERET, ERETAA, ERETAB. */
static bool closes_return(uint32_t insn)
{
	return insn == 0xd69f03e0 || insn == 0xd69f0bff || insn == 0xd69f0fff;
}

static const struct probe_window {
	bool (*opens)(uint32_t insn);
	bool (*closes)(uint32_t insn);
	bool reopens;	/* a later opening instruction ends the walk */
	const char *why;
} windows[] = {
	{ opens_exclusive, closes_exclusive, true,
	  "inside an exclusive sequence (from a load-exclusive to its store-exclusive): "
	  "the probe's exception clears the monitor, so the store-exclusive would fail "
	  "every time" },
	{ opens_return, closes_return, false,
	  "between a write of ELR_EL1 or SPSR_EL1 and its ERET: the probe's exception "
	  "overwrites them" },
};

/* Whether the walk from body[from], an opening instruction of w, reaches
 * w's closing instruction, passing word 'at' (or stopping on it). */
static bool walk_covers(const struct probe_window *w, const uint32_t *body, size_t n,
			size_t from, size_t at)
{
	size_t pos = from;
	bool seen = from == at;

	for (unsigned int step = 1; step < PROBE_WINDOW_MAX; step++) {
		uint32_t insn = body[pos];

		if ((insn & 0xfc000000) == 0x14000000) {	/* B: follow it */
			int64_t off = (int64_t)((int32_t)(insn << 6) >> 6);

			if (off < -(int64_t)pos || off >= (int64_t)(n - pos))
				return false;		/* out of the function */
			pos = (size_t)((int64_t)pos + off);
		} else if ((insn & 0xfe000000) == 0xd6000000 && ((insn >> 21) & 0xf) != 1) {
			return false;	/* BR, RET, ERET (not BLR): leaves */
		} else if (++pos == n) {
			return false;
		}
		seen |= pos == at;
		if (w->closes(body[pos]))
			return seen;
		if (w->reopens && w->opens(body[pos]))
			return false;	/* a later load-exclusive: its own window */
	}
	return false;
}

const char *probe_window_refusal(const uint32_t *body, size_t n, size_t at)
{
	if (at >= n)
		return "past the function's end";
	for (size_t k = 0; k < sizeof(windows) / sizeof(windows[0]); k++)
		for (size_t i = 0; i < n; i++)
			if (windows[k].opens(body[i]) && walk_covers(&windows[k], body, n, i, at))
				return windows[k].why;
	return NULL;
}

const char *probe_place_refusal(const uint32_t *body, size_t n, size_t at)
{
	const char *why;

	if (at >= n)
		return "past the function's end";
	why = probe_insn_refusal(body[at]);
	return why ? why : probe_window_refusal(body, n, at);
}
