/*
 * trace/core/site.c: the callsite table at run time: lookup, names, and the
 * one-time preparation of every site at boot.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "kprintf.h"
#include "mmu.h"
#include "percpu.h"
#include "pmu.h"
#include "text_alias.h"

extern void trace_nop_func(uintptr_t, uintptr_t, struct trace_ops *,
			   struct trace_regs *);

struct trace_ops trace_nop_ops = { .func = trace_nop_func };
static uint64_t init_insns;

uint16_t *trace_site_slot;	/* see core.h */
uintptr_t trace_site_slot_bias;

unsigned int trace_site_count(void)
{
	return bt_site_count;
}

const char *trace_site_name(unsigned int site)
{
	return site < bt_site_count ? bt_sym_names + bt_syms[bt_sites[site]].name : NULL;
}

/* The folder names are NUL-terminated, one after the other, in
 * bt_folder_names (tools/mktables_map.c): a walk over a handful. */
const char *trace_site_folder(unsigned int site)
{
	const char *name = bt_folder_names;

	if (site >= bt_site_count || bt_site_folder[site] >= bt_folder_count)
		return "";
	for (unsigned int k = 0; k < bt_site_folder[site]; k++)
		name += strlen(name) + 1;
	return name;
}

uintptr_t trace_site_addr(unsigned int site)
{
	return site < bt_site_count ? site_func(site) : 0;
}

int trace_site_of(uintptr_t func)
{
	unsigned int lo = 0, hi = bt_site_count;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;
		uintptr_t a = site_func(mid);

		if (a == func)
			return (int)mid;
		if (a < func)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

/*
 * Boot: every site gets MOV X9, LR at func+0 and the nop ops in its
 * literal, with one cache maintenance pass over text. Only CPU 0 runs,
 * so no cross-CPU round is needed. A site whose text is not two NOPs
 * there is left alone and reported (mktables already checked the image).
 */
void trace_sites_init(void)
{
	uint64_t t0 = pmu_insns();
	unsigned int bad = 0;

	trace_site_slot = calloc(((uintptr_t)_etext - (uintptr_t)_text) / 8 + 1,
				 sizeof(*trace_site_slot));
	trace_site_slot_bias = (uintptr_t)trace_site_slot - ((uintptr_t)_text + 8) / 4;
	for (unsigned int c = 0; c < NR_CPUS; c++)
		cpu_data(c)->trace_site_bias = trace_site_slot_bias;

	for (unsigned int i = 0; i < bt_site_count; i++) {
		uintptr_t f = site_func(i);
		struct site_state *s = &bt_site_state[i];

		s->list_func = trace_list_func;
		s->direct_call = 0;
		if (text_write64((void *)(f - 8), LITERAL_BOOT, (uintptr_t)&trace_nop_ops) ||
		    text_write32((void *)f, INSN_NOP, INSN_MOV_X9_LR)) {
			bad++;
			continue;
		}
		s->installed = &trace_nop_ops;
		if (trace_site_slot)
			trace_site_slot[(f - (uintptr_t)_text) >> 3] = (uint16_t)i;
	}
	if (bt_site_count)
		text_sync(site_func(0) - 8, site_func(bt_site_count - 1) + 8);
	init_insns = (pmu_insns() - t0) & 0xffffffff;	/* 32-bit counter */
	kprintf("trace: %u sites ready%s\n", bt_site_count,
		bad ? " (some sites were not NOPs and stay off)" : "");
}

uint64_t trace_sites_init_insns(void)
{
	return init_insns;
}
