/*
 * test/target/test_probe_ret_share.c: a return probe shares its function
 * with the duration histograms (another ops that hooks the same return:
 * two shadow frames on one call) and an instruction probe: each counts
 * every call exactly, the return probe records each result, and either
 * may go while the others stay.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "control/control.h"
#include "ktest.h"
#include "tracecheck.h"
#include "tracers/hist.h"
#include "tracers/retprobe.h"

#include "probe_check.h"

#define SHARE_CALLS	10

static struct rec recs[CHECK_MAX];

static int plant(const char *text, const char **why)
{
	struct probe_spec s;

	*why = "";
	if (probe_spec_parse(text, &s, why))
		return -100;
	return s.ret ? retprobe_plant(&s, why) : probe_plant(&s, why, NULL);
}

static bool view(const char *name, bool ret, struct probe_view *v)
{
	for (unsigned int i = 0; i < PROBE_MAX; i++)
		if ((ret ? retprobe_get(i, v) : probe_get(i, v)) && !strcmp(v->spec.name, name))
			return true;
	return false;
}

/* The histogram's calls of its one function on this CPU. */
static uint64_t hist_calls(void)
{
	const struct hist_row *r = hist_row_of(smp_cpu_id(), 0);
	uint64_t n = 0;

	for (unsigned int b = 0; r && b < HIST_BUCKETS; b++)
		n += r->bucket[b];
	return n;
}

KTEST(probe_return_shares_its_function_with_hist_and_a_probe)
{
	struct probe_view v;
	char text[160];
	const char *why;
	unsigned int chosen = 0;

	if (trace_histing())
		return ktest_skip(t, "histograms already on");
	check_reset();
	KT_EQ(t, trace_hist(true, "pb_mt", &chosen), 0);
	KT_EQ(t, chosen, 1);
	KT_EQ(t, plant("share=pb_mt%return,$retval", &why), 0);
	pbt_spec(text, sizeof(text), "sharei", "pb_mt", (uintptr_t)pb_mt, pb_mt_at, "x2");
	KT_EQ(t, plant(text, &why), 0);
	for (uint64_t i = 0; i < SHARE_CALLS; i++)
		KT_EQ(t, pb_mt(i, 1000), i + 1000);
	KT_EQ(t, hist_calls(), SHARE_CALLS);
	KT_EXPECT(t, view("share", true, &v));
	KT_EQ(t, v.hits, SHARE_CALLS);
	uint32_t number = v.number;

	KT_EXPECT(t, view("sharei", false, &v));
	KT_EQ(t, v.hits, SHARE_CALLS);
	KT_EQ(t, trace_hist(false, NULL, NULL), 0);	/* the histograms go, the others stay */
	KT_EQ(t, pb_mt(7, 1), 8);
	KT_EXPECT(t, view("share", true, &v));
	KT_EQ(t, v.hits, SHARE_CALLS + 1);
	KT_EQ(t, retprobe_remove("share", &why), 0);
	KT_EQ(t, pb_mt(7, 2), 9);
	KT_EXPECT(t, view("sharei", false, &v));
	KT_EQ(t, v.hits, SHARE_CALLS + 2);
	KT_EQ(t, probe_remove("sharei", &why), 0);
	KT_EQ(t, trace_hist_forget(), 0);

	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX), got = 0, bad = 0;

	for (unsigned int i = 0; i < n; i++) {
		const uint8_t *p = recs[i].data, *end = p + recs[i].data_len;
		uint64_t id = 0, val = 0;

		if (recs[i].kind != WIRE_REC_EXT || recs[i].subtype != WIRE_EXT_PROBE)
			continue;
		p += wire_varint_get(p, (size_t)(end - p), &id);
		if (id != number)
			continue;
		p += 2;		/* count, faulted */
		wire_varint_get(p, (size_t)(end - p), &val);
		bad += wire_unzigzag(val) != (int64_t)(got < SHARE_CALLS ? got + 1000 : 8);
		got++;
	}
	KT_EQ(t, got, SHARE_CALLS + 1);
	KT_EQ(t, bad, 0);
}
