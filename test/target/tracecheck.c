/* test/target/tracecheck.c: see tracecheck.h. */
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "pmu.h"
#include "ring/ring.h"
#include "symbols.h"
#include "tracecheck.h"

static uint8_t body[RING_BODY_MAX];
static struct wire_rec_iter it;

void check_reset(void)
{
	ring_setup(8 * 1024, RING_OVERWRITE);
}

int site_of(const char *name)
{
	return trace_site_of(sym_address(name));
}

unsigned int check_collect(unsigned int cpu, struct rec *out, unsigned int max)
{
	uint64_t seq;
	long len;
	unsigned int n = 0;

	if (cpu == smp_cpu_id())
		ring_close_block();
	else
		smp_call(cpu, (smp_fn)ring_close_block, NULL);
	while ((len = ring_take_body(cpu, body, sizeof(body), &seq)) >= 0) {
		struct wire_record r;

		if (wire_rec_begin(&it, body, (size_t)len, NULL, NULL))
			continue;
		while (wire_rec_next(&it, &r) == WIRE_REC_OK && n < max) {
			struct rec *o = &out[n++];

			memset(o, 0, sizeof(*o));
			o->kind = r.kind;
			o->ts = r.ts;
			o->site = r.site;
			o->caller = r.caller;
			o->depth = r.depth;
			o->duration = r.duration;
			o->retval = r.retval;
			o->flags = r.flags;
			o->paired = r.paired;
			o->subtype = r.subtype;
			o->data_len = r.data_len < sizeof(o->data) ? (unsigned int)r.data_len : 0;
			if (o->data_len)
				memcpy(o->data, r.data, o->data_len);
		}
	}
	return n;
}

/* Where the BL at a function's site goes, or 0 if it holds no BL. */
uintptr_t site_bl_target(const char *name)
{
	uintptr_t at = sym_address(name) + 4;
	uint32_t insn = *(volatile uint32_t *)at;

	if ((insn & 0xfc000000U) != 0x94000000U)
		return 0;
	return at + (uintptr_t)((int64_t)((int32_t)(insn << 6) >> 6) * 4);
}


/* noipa: one copy of the loop measures every function the same way. */
__attribute__((noipa)) uint64_t check_insns_of(int (*fn)(int), unsigned int calls)
{
	unsigned long flags = irq_save();
	uint64_t t0 = pmu_insns();

	for (unsigned int i = 0; i < calls; i++)
		fn((int)i);
	uint64_t d = (pmu_insns() - t0) & 0xffffffff;	/* a 32-bit counter */

	irq_restore(flags);
	return d;
}
