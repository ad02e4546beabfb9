/*
 * test/target/test_caller_key.c: the function tracer's "same caller"
 * cache (ring_put_func, rec_function.S) keys on the caller's address
 * shifted left by 16 (caller << 16 | site). That is exact only while
 * every address that can call a traced function is below 2^48: the
 * image, and the far text page hundreds of GiB away (kernel/cpu/mmu.h
 * FAR_TEXT_BASE). These tests check both: the layout, and the records
 * of one site called from the image and from the far page in turns, in
 * one block.
 */
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "ktest.h"
#include "mmu.h"
#include "output/export.h"
#include "symbols.h"
#include "text_alias.h"
#include "target.h"
#include "tracecheck.h"
#include "tracers/tracer.h"

#define FAR_CALL_RET	12	/* far_call.S: the BLR's return address */

int far_call(int x, int (*fn)(int));

static struct rec recs[CHECK_MAX];

/* Offsets from _text in words, as the records carry them, and their
 * key part (the low 32 bits). */
static uint64_t off4(uintptr_t a)
{
	return (a - (uintptr_t)_text) >> 2;
}

KTEST(caller_key_bits_are_unique_across_executable_regions)
{
	/* The key drops a caller's top 16 bits: none may be set, in the
	 * image or in the far page. */
	KT_EXPECT(t, (uintptr_t)_etext < (1ULL << 48));
	KT_EXPECT(t, (uintptr_t)FAR_TEXT_BASE + 4096 <= (1ULL << 48));
	/* The far page is beyond 32 bits of words from _text: a key of
	 * 32-bit offsets would have been ambiguous there. */
	KT_EXPECT(t, off4(FAR_TEXT_BASE) >= (1ULL << 32));
}

KTEST(caller_from_the_far_page_is_recorded_as_a_new_caller)
{
	uintptr_t size = 0;

	KT_EXPECT(t, sym_lookup((uintptr_t)far_call, NULL, &size) && size == 20);
	int (*far)(int, int (*)(int)) = far_text_place((const void *)(uintptr_t)far_call, 20);

	KT_EXPECT(t, far != NULL);
	if (!far)
		return;
	uint64_t near_caller = off4((uintptr_t)far_call + FAR_CALL_RET);
	uint64_t far_caller = off4((uintptr_t)far + FAR_CALL_RET);

	export_hold();		/* the only reader of what it counts (ring.h) */
	check_reset();
	trace_set_tracer("function");
	trace_set_filter("tt_alpha");
	KT_EQ(t, trace_start(), 0);
	int got[4];

	for (int i = 0; i < 4; i++) {
		got[0] = far_call(i, tt_alpha);	/* in the image */
		got[1] = tt_alpha(i);		/* in the image, this test */
		got[2] = far(i, tt_alpha);	/* the far page */
		got[3] = far_call(i, tt_alpha);	/* in the image again */
		KT_EXPECT(t, got[0] == got[1] && got[1] == got[2] && got[2] == got[3]);
	}
	trace_stop();
	trace_set_tracer("nop");
	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX), alpha = 0, far_seen = 0;

	export_release();
	int bad = -1;

	for (unsigned int i = 0; i < n; i++) {
		if (recs[i].site != (uint64_t)site_of("tt_alpha") ||
		    (recs[i].kind != WIRE_REC_FUNC && recs[i].kind != WIRE_REC_FUNC_CALLER))
			continue;
		/* Record order: far_call, this test, the far copy, far_call;
		 * this test's own call site is whatever the compiler made. */
		uint64_t want = alpha % 4 == 2 ? far_caller : alpha % 4 == 1 ? recs[i].caller
								 : near_caller;

		far_seen += recs[i].caller == far_caller;
		if (recs[i].caller != want && bad < 0)
			bad = (int)alpha;
		alpha++;
	}
	KT_EQ(t, alpha, 16);
	KT_EQ(t, far_seen, 4);
	KT_EQ(t, bad, -1);
}
