/* sources: trace/core/probe_window.c trace/core/probe_insn.c */
/*
 * test/host/test_probe_window.c: the places of a function where a probe
 * may not go (trace/core/probe_window.c), over real code: the words of
 * newlib's lock and the kernel's compare-and-swap as GCC 12 compiled
 * them into the test image (build/qemu-virt/app-test-target/
 * baretrace.lst), and sequences assembled by GNU as
 * (aarch64-linux-gnu-as -march=armv8.1-a, objdump -d). The expected
 * verdict of every word is written down from reading the disassembly.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../trace/core/probe_insn.h"
#include "tap.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* newlib's __retarget_lock_acquire_recursive, from its patch site on. */
static const uint32_t newlib_lock[] = {
	0xd503201f, 0xd503201f, 0xa9bf7bfd, 0x910003fd,	/* +0x00 nop nop stp mov */
	0xd538d081, 0xb9400021, 0xb9400402, 0x11000421,	/* +0x10 mrs ldr ldr add */
	0x6b01005f, 0x540000c1, 0xb9400801, 0xa8c17bfd,	/* +0x20 cmp b.ne ldr ldp */
	0x11000421, 0xb9000801, 0xd65f03c0, 0x91000801,	/* +0x30 add str ret add */
	0x485f7c22, 0x11000443, 0x48047c23, 0x35ffffa4,	/* +0x40 ldxrh add stxrh cbnz */
	0x12003c42, 0x14000002, 0xd503203f, 0x48dffc01,	/* +0x50 and b yield ldarh */
	0x6b21205f, 0x54ffffa1, 0xd538d081, 0xb9400021,	/* +0x60 cmp b.ne mrs ldr */
	0xa8c17bfd, 0x11000421, 0xb9000401, 0xb9400801,	/* +0x70 ldp add str ldr */
	0x11000421, 0xb9000801, 0xd65f03c0,		/* +0x80 add str ret */
};

/* The kernel's power_mark_outcome: a compare-and-swap whose early exit
 * (b.ne) sits inside the window. */
static const uint32_t cas[] = {
	0x885ffc44,	/* ldaxr w4, [x2] */
	0x7100209f,	/* cmp w4, #0x8 */
	0x54000061,	/* b.ne out */
	0x8805fc40,	/* stlxr w5, w0, [x2] */
	0x35ffff85,	/* cbnz w5, back to the ldaxr */
	0x54000121,	/* out: b.ne */
	0xb0000542,	/* adrp */
};

/* A wait that only loads: no store-exclusive follows, so no window. */
static const uint32_t wait_only[] = {
	0xd50320bf,	/* sevl */
	0xd503205f,	/* 1: wfe */
	0x885ffc20,	/* ldaxr w0, [x1] */
	0x35ffffc0,	/* cbnz w0, 1b */
	0xaa0103e0,	/* mov x0, x1 */
	0xd2800021,	/* mov x1, #1 */
	0xd65f03c0,	/* ret */
};

/* A window laid out around an unconditional branch, then an ERET's
 * registers, then a pair. */
static const uint32_t mixed[] = {
	0xc85f7c20,	/*  0 ldxr x0, [x1] */
	0x14000002,	/*  1 b 3 */
	0xd503201f,	/*  2 nop (skipped: outside) */
	0x91000400,	/*  3 add x0, x0, #1 */
	0xc8027c20,	/*  4 stxr w2, x0, [x1] */
	0xd5184020,	/*  5 msr elr_el1, x0 */
	0xaa0203e0,	/*  6 mov x0, x2 */
	0xd5184001,	/*  7 msr spsr_el1, x1 */
	0xd69f03e0,	/*  8 eret */
	0xc87f8c02,	/*  9 ldaxp x2, x3, [x0] */
	0xb1000442,	/* 10 adds x2, x2, #1 */
	0x9a1f0063,	/* 11 adc x3, x3, xzr */
	0xc8248c02,	/* 12 stlxp w4, x2, x3, [x0] */
	0x35000004,	/* 13 cbnz w4, . */
	0x48207c82,	/* 14 casp x0, x1, x2, x3, [x4] (one access: movable) */
	0xd53b4220,	/* 15 mrs x0, daif */
	0xd50342df,	/* 16 msr daifset, #2 */
	0xd28000a1,	/* 17 mov x1, #5 */
};

/* Every word of body: 'w' refused for its window, 'i' for itself (then
 * the window refusal is not asked), '.' accepted. */
static void verdicts(const char *name, const uint32_t *body, size_t n, const char *want,
		     const char *why_has)
{
	if (!tap_ok(strlen(want) == n, "%s: a verdict for each of its %zu words", name, n))
		return;
	for (size_t i = 0; i < n; i++) {
		const char *place = probe_place_refusal(body, n, i);
		const char *win = probe_window_refusal(body, n, i);
		const char *self = probe_insn_refusal(body[i]);
		char got = win ? 'w' : self ? 'i' : '.';

		if (want[i] == 'w' && win && why_has && !strstr(win, why_has))	/* wrong reason */
			got = '?';
		if (!tap_ok(got == want[i] && (!place == (want[i] == '.')),
			    "%s +0x%zx (%08x): %s", name, i * 4, body[i],
			    want[i] == 'w' ? "refused: its window" :
			    want[i] == 'i' ? "refused: itself" : "accepted"))
			tap_diag("window: %s; itself: %s", win ? win : "-", self ? self : "-");
	}
}

static void bound(void)
{
	uint32_t body[PROBE_WINDOW_MAX + 2];
	size_t n;

	/* ldxr, then NOPs, then stxr: a window of exactly PROBE_WINDOW_MAX
	 * words is found, one word longer is not (the documented bound). */
	for (n = PROBE_WINDOW_MAX; n <= PROBE_WINDOW_MAX + 1; n++) {
		body[0] = 0xc85f7c20;
		for (size_t i = 1; i + 1 < n; i++)
			body[i] = 0xd503201f;
		body[n - 1] = 0xc8027c20;
		const char *mid = probe_window_refusal(body, n, n / 2);

		tap_ok(n == PROBE_WINDOW_MAX ? mid != NULL : mid == NULL,
		       "a %zu-word exclusive window is %s", n,
		       n == PROBE_WINDOW_MAX ? "refused" : "past the bound, not seen");
	}
	/* A window cut by the function's end: the stxr is not in the body. */
	body[0] = 0xd503201f;
	body[1] = 0xc85f7c20;
	body[2] = 0x91000400;
	body[3] = 0xc8027c20;
	tap_ok(probe_window_refusal(body, 3, 2) == NULL,
	       "a load-exclusive whose store is past the function's end opens no window");
	tap_ok(probe_window_refusal(body, 4, 2) != NULL, "the same with the store inside");
	tap_ok(probe_place_refusal(body, 4, 4) != NULL && probe_window_refusal(body, 4, 9) != NULL,
	       "an index past the end is refused");
	/* RET between the load and the store ends the walk. */
	body[2] = 0xd65f03c0;
	tap_ok(probe_window_refusal(body, 4, 1) == NULL,
	       "a RET between the load and the store: no window");
	/* A second load-exclusive: the window is the later one's. */
	body[0] = 0xc85f7c20;
	body[1] = 0x91000400;
	body[2] = 0xc85f7c20;
	tap_ok(probe_window_refusal(body, 4, 1) == NULL && probe_window_refusal(body, 4, 2) &&
	       probe_window_refusal(body, 4, 3), "a later load-exclusive opens the window");
}

int main(void)
{
	verdicts("newlib lock", newlib_lock, N(newlib_lock),
		 ".........i....i.wwwi.i...i........i", "exclusive sequence");
	verdicts("cas", cas, N(cas), "wwwwiii", "exclusive sequence");
	verdicts("wait", wait_only, N(wait_only), "..ii..i", NULL);
	verdicts("mixed", mixed, N(mixed), "ww.wwwwwwwwwwi....", NULL);
	tap_ok(strstr(probe_window_refusal(mixed, N(mixed), 3), "exclusive sequence") != NULL,
	       "the word a B inside the window leads to: the reason says exclusive");
	tap_ok(strstr(probe_window_refusal(mixed, N(mixed), 6), "ERET") != NULL,
	       "a word between MSR ELR_EL1 and ERET: the reason names ERET");
	tap_ok(strstr(probe_window_refusal(mixed, N(mixed), 5), "ERET") != NULL &&
	       !probe_insn_refusal(mixed[5]), "the MSR ELR_EL1 itself: movable, but in the window");
	tap_ok(strstr(probe_window_refusal(mixed, N(mixed), 10), "exclusive sequence") != NULL,
	       "inside LDAXP..STLXP: the reason says exclusive");
	bound();
	return tap_done();
}
