/*
 * test/target/test_tp_many.c: an event fired from more places than one
 * fixed-size batch used to hold (128 words: each place is a NOP and a
 * BL). Every place must be patched, in one batch.
 */
#include <stdint.h>

#include <baretrace.h>
#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "ktest.h"

#define TPM_PLACES	140

TP_DEFINE(tptest, many, TP_FIELD(U32, line, "%u"));

#define TPM1	trace_event(tptest, many, __LINE__);
#define TPM10	TPM1 TPM1 TPM1 TPM1 TPM1 TPM1 TPM1 TPM1 TPM1 TPM1
#define TPM140	TPM10 TPM10 TPM10 TPM10 TPM10 TPM10 TPM10 TPM10 TPM10 TPM10 \
		TPM10 TPM10 TPM10 TPM10

/* Fires tptest:many once from each of its TPM_PLACES places. */
static void __attribute__((noipa)) tpm_fire_everywhere(void)
{
	TPM140
}

static volatile uint64_t tpm_hits[2];

/* Built without FP/SIMD and attached so: one batch makes them static
 * calls (a probe that may use FP/SIMD first moves the BLs, a batch more). */
#define NO_FP __attribute__((target("general-regs-only")))

static NO_FP void tpm_probe0(const struct tp_event *ev, const uint64_t *fields)
{
	(void)ev, (void)fields;
	tpm_hits[0]++;
}

static NO_FP void tpm_probe1(const struct tp_event *ev, const uint64_t *fields)
{
	(void)ev, (void)fields;
	tpm_hits[1]++;
}

KTEST(tp_event_with_more_places_than_a_batch_is_patched_everywhere)
{
	const struct tp_event *ev = tp_find("tptest:many");
	struct trace_patch_stats s0, s1;

	KT_EXPECT(t, ev != NULL);
	if (!ev)
		return;
	tpm_hits[0] = tpm_hits[1] = 0;
	trace_patch_stats(&s0);
	KT_EQ(t, tp_probe_attach_flags(ev, tpm_probe0, TP_PROBE_NO_FPSIMD), 0);	/* static calls */
	trace_patch_stats(&s1);
	tpm_fire_everywhere();
	KT_EQ(t, tpm_hits[0], TPM_PLACES);
	KT_EQ(t, s1.batches - s0.batches, 1);
	/* At least a NOP and a BL per place (the compiler may copy a site's
	 * asm; every copy is a word of its own). */
	KT_EXPECT(t, s1.sites - s0.sites >= 2 * TPM_PLACES);
	KT_EQ(t, tp_probe_attach_flags(ev, tpm_probe1, TP_PROBE_NO_FPSIMD), 0);	/* tp_iterate */
	tpm_fire_everywhere();
	KT_EQ(t, tpm_hits[0], 2 * TPM_PLACES);
	KT_EQ(t, tpm_hits[1], TPM_PLACES);
	KT_EQ(t, tp_probe_detach(ev, tpm_probe0), 0);
	KT_EQ(t, tp_probe_detach(ev, tpm_probe1), 0);
	tpm_fire_everywhere();				/* all NOPs again */
	KT_EQ(t, tpm_hits[0], 2 * TPM_PLACES);
	KT_EQ(t, tpm_hits[1], TPM_PLACES);
}
