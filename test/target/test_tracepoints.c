/*
 * test/target/test_tracepoints.c: tracepoint sites, probes and the
 * recorder. The event is the application's own (APP= code declares
 * events the same way the kernel does).
 */
#include <stdint.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "barrier.h"
#include "core/core.h"
#include "ktest.h"
#include "ring/ring.h"
#include "tracecheck.h"
#include "events/tracepoint.h"

TP_DECLARE(test, hit);
TP_DEFINE(test, hit, TP_FIELD(U32, n, "%u"), TP_FIELD(S16, small, "%d"),
	  TP_FIELD(U64, big, "%#lx"), TP_FIELD(PTR, where, "%p"),
	  TP_STRING(name, 8), TP_FIELD(S8, neg, "%d"), TP_FIELD(U8, byte, "%u"));

static void __attribute__((noinline)) tp_fire(uint32_t n)
{
	trace_event(test, hit, n, -(int)n, 0x1122334455667788ULL, &tp_ev_test_hit,
		    "hello", -5, 300);	/* 300 records as a u8: 44 */
}

#define NCPU 8
static volatile uint64_t a_hits[NCPU], b_hits[NCPU];
static volatile int stop;

/* Probes that never touch FP/SIMD, attached so (TP_PROBE_NO_FPSIMD): the
 * only one is a static call. */
#define NO_FP __attribute__((target("general-regs-only")))

static NO_FP void probe_a(const struct tp_event *ev, const uint64_t *f)
{
	(void)ev, (void)f;
	a_hits[smp_cpu_id() % NCPU]++;
}

static NO_FP void probe_b(const struct tp_event *ev, const uint64_t *f)
{
	(void)ev, (void)f;
	b_hits[smp_cpu_id() % NCPU]++;
}

static void hammer(void *arg)
{
	(void)arg;
	while (!READ_ONCE(stop)) {
		tp_fire(1);
		cpu_relax();
	}
}

static uint32_t insn_at(uintptr_t a)
{
	return *(volatile uint32_t *)a;
}

/* This CPU's hits of each probe over 100 calls, checked exactly. */
static void fire_and_check(struct ktest_ctx *t, unsigned int na, unsigned int nb)
{
	unsigned int me = smp_cpu_id() % NCPU;
	uint64_t a0 = a_hits[me], b0 = b_hits[me];

	for (int i = 0; i < 100; i++)
		tp_fire((uint32_t)i);
	KT_EQ(t, a_hits[me] - a0, 100 * na);
	KT_EQ(t, b_hits[me] - b0, 100 * nb);
}

KTEST(tracepoint_probes_0_1_2_1_exact_while_other_cpus_hit)
{
	const struct tp_event *ev = &tp_ev_test_hit;
	uintptr_t nop = tp_first_site(ev, false), bl = tp_first_site(ev, true);
	unsigned int n = smp_num_cpus();

	KT_EXPECT(t, nop && bl);
	if (!nop || !bl)
		return;
	stop = 0;
	for (unsigned int c = 1; c < n; c++)
		smp_start(c, hammer, NULL);

	KT_EQ(t, insn_at(nop), INSN_NOP);	/* off: one NOP */
	fire_and_check(t, 0, 0);

	KT_EQ(t, tp_probe_attach_flags(ev, probe_a, TP_PROBE_NO_FPSIMD), 0);
	KT_EQ(t, insn_at(nop) >> 26, 0x05);	/* B out_of_line */
	KT_EQ(t, insn_at(bl), patch_insn_bl(bl, (uintptr_t)probe_a));	/* static call */
	fire_and_check(t, 1, 0);

	KT_EQ(t, tp_probe_attach_flags(ev, probe_b, TP_PROBE_NO_FPSIMD), 0);
	KT_EQ(t, insn_at(bl), patch_insn_bl(bl, (uintptr_t)tp_iterate));
	fire_and_check(t, 1, 1);
	KT_EQ(t, tp_probe_attach(ev, probe_b), TRACE_EBUSY);

	KT_EQ(t, tp_probe_detach(ev, probe_b), 0);
	KT_EQ(t, insn_at(bl), patch_insn_bl(bl, (uintptr_t)probe_a));
	fire_and_check(t, 1, 0);

	/* A probe that may use FP/SIMD, alone or beside one that does not:
	 * through tp_iterate_fp, which keeps the caller's FP/SIMD state. */
	KT_EQ(t, tp_probe_detach(ev, probe_a), 0);
	KT_EQ(t, tp_probe_attach(ev, probe_a), 0);
	KT_EQ(t, insn_at(bl), patch_insn_bl(bl, (uintptr_t)tp_iterate_fp));
	fire_and_check(t, 1, 0);
	KT_EQ(t, tp_probe_attach_flags(ev, probe_b, TP_PROBE_NO_FPSIMD), 0);
	KT_EQ(t, insn_at(bl), patch_insn_bl(bl, (uintptr_t)tp_iterate_fp));
	fire_and_check(t, 1, 1);
	KT_EQ(t, tp_probe_detach(ev, probe_b), 0);
	KT_EQ(t, tp_probe_detach(ev, probe_a), 0);
	KT_EQ(t, tp_probe_attach_flags(ev, probe_a, TP_PROBE_NO_FPSIMD), 0);
	KT_EQ(t, insn_at(bl), patch_insn_bl(bl, (uintptr_t)probe_a));

	KT_EQ(t, tp_probe_detach(ev, probe_a), 0);
	KT_EQ(t, insn_at(nop), INSN_NOP);
	fire_and_check(t, 0, 0);
	KT_EQ(t, tp_probe_detach(ev, probe_a), TRACE_EINVAL);

	WRITE_ONCE(stop, 1);
	for (unsigned int c = 1; c < n; c++)
		smp_wait(c);
	uint64_t others = 0;

	for (unsigned int c = 1; c < n && c < NCPU; c++)
		others += a_hits[c];
	if (n > 1)
		KT_EXPECT(t, others > 0);	/* they did run through the changes */
}

/* ---- the recorder ---------------------------------------------------- */

static int event_types(void *ctx, uint64_t id, const uint8_t **types)
{
	static uint8_t ty[TP_MAX_FIELDS];
	const struct tp_event *ev = tp_by_id((unsigned int)id);

	(void)ctx;
	if (!ev)
		return -1;
	for (unsigned int i = 0; i < ev->nfields; i++)
		ty[i] = ev->fields[i].type;
	*types = ty;
	return (int)ev->nfields;
}

struct decoded {
	uint64_t v[TP_MAX_FIELDS];
	char name[9];
};

static uint8_t body[RING_BODY_MAX];
static struct wire_rec_iter iter;

/* Decodes this CPU's test:hit records into out; returns how many. */
static unsigned int collect(struct decoded *out, unsigned int max)
{
	const struct tp_event *ev = &tp_ev_test_hit;
	uint64_t id = (uint64_t)(ev - tp_by_id(0)), seq;
	unsigned int n = 0, cpu = smp_cpu_id();
	long len;

	ring_close_block();
	while ((len = ring_take_body(cpu, body, sizeof(body), &seq)) >= 0) {
		struct wire_record r;

		if (wire_rec_begin(&iter, body, (size_t)len, event_types, NULL))
			continue;
		while (wire_rec_next(&iter, &r) == WIRE_REC_OK && n < max) {
			if (r.kind != WIRE_REC_EVENT || r.id != id)
				continue;
			const uint8_t *p = r.data, *end = r.data + r.data_len;
			struct decoded *d = &out[n++];

			memset(d, 0, sizeof(*d));
			for (unsigned int i = 0; i < ev->nfields; i++) {
				int k = wire_varint_get(p, (size_t)(end - p), &d->v[i]);

				if (k < 0)
					break;
				p += k;
				if (ev->fields[i].type == TP_STR) {
					memcpy(d->name, p, d->v[i] < 8 ? d->v[i] : 8);
					p += d->v[i];
				} else {
					d->v[i] = (uint64_t)wire_unzigzag(d->v[i]);
				}
			}
		}
	}
	return n;
}

static struct decoded got[32];

KTEST(tracepoint_record_decodes_every_field)
{
	check_reset();
	KT_EQ(t, tp_enable("test:h*", 1), 0);
	tp_fire(7);
	KT_EQ(t, tp_enable("test:*", 0), 0);
	tp_fire(8);	/* off again: not recorded */
	KT_EQ(t, collect(got, 32), 1);
	KT_EQ(t, got[0].v[0], 7);
	KT_EQ(t, got[0].v[1], (uint64_t)-7);
	KT_EQ(t, got[0].v[2], 0x1122334455667788ULL);
	KT_EQ(t, got[0].v[3], (uintptr_t)&tp_ev_test_hit);
	KT_EQ(t, got[0].v[4], 5);
	KT_STREQ(t, got[0].name, "hello");
	KT_EQ(t, got[0].v[5], (uint64_t)-5);
	KT_EQ(t, got[0].v[6], 300 & 0xff);
	KT_EQ(t, insn_at(tp_first_site(&tp_ev_test_hit, false)), INSN_NOP);
}

KTEST(tracepoint_filter_keeps_exactly_the_matching_events)
{
	check_reset();
	KT_EQ(t, tp_set_filter("test:hit", "n==3"), 0);
	KT_EQ(t, tp_enable("test:hit", 1), 0);
	for (uint32_t i = 0; i < 10; i++)
		tp_fire(i);
	KT_EQ(t, collect(got, 32), 1);
	KT_EQ(t, got[0].v[0], 3);

	KT_EQ(t, tp_set_filter("test:hit", "small!=-4"), 0);
	for (uint32_t i = 0; i < 10; i++)
		tp_fire(i);
	unsigned int n = collect(got, 32);

	KT_EQ(t, n, 9);
	for (unsigned int i = 0; i < n; i++)
		KT_EXPECT(t, got[i].v[0] != 4);
	KT_EQ(t, tp_set_filter("test:hit", "nosuch==1"), TRACE_EINVAL);
	KT_EQ(t, tp_set_filter("test:hit", ""), 0);
	KT_EQ(t, tp_enable("test:hit", 0), 0);
	KT_EQ(t, tp_enable("nosuch:*", 1), TRACE_EINVAL);
}
