/*
 * trace/core/probe.c: probes at any instruction of a function with a
 * patch site.
 *
 * Planting replaces one instruction with BRK #0xb70. The BRK's exception
 * comes here (exception_set_brk_handler): the handler finds the probe by
 * the address, counts the hit, records the fetched values (an extension
 * record, docs/wire.md 2.6 subtype 5: probe_record.c) and resumes in the probe's slot
 * (trace/core/probe_xol.S), which runs the displaced instruction with the
 * interrupted code's registers and PSTATE and branches back to the next
 * instruction. So a hit costs one exception and two instructions, and no
 * register of the probed code changes (ARCHITECTURE.md 7a).
 *
 *   probed address     before          planted
 *   func+off           insn            BRK #0xb70
 *   slot+0             BRK #0xb71      insn
 *   slot+4             BRK #0xb71      B func+off+4
 *
 * Only instructions that compute the same anywhere may be displaced
 * (trace/core/probe_insn.c), and only where an exception between two
 * instructions changes nothing (trace/core/probe_window.c). Probes go
 * in functions with a patch site only, past its two words: the trace
 * core, exception entry and the console and export path have none, and
 * a BRK there could be taken inside its own handler or in the middle of
 * a ring write.
 *
 * Planting: the slot's two words, the cache maintenance that makes them
 * fetchable (to the PoU, broadcast), then the probe is published, then
 * the BRK: one aligned 32-bit write through the text alias. The Arm ARM
 * lets a CPU execute a word while another writes it only when the old
 * and the new instruction are both among B, BL, BRK, HVC, ISB, NOP, SMC,
 * SVC (B2.2.5); "any instruction -> BRK" is not, so the write is made
 * while every other CPU waits in an interrupt and each runs an ISB
 * before it goes on (patch_stop_write32, trace/core/patch_stop.c). A
 * CPU that takes the BRK reaches the slot by an ERET, a context
 * synchronisation event, so it fetches the slot's new words.
 *
 * Removal: the instruction goes back the same way. Once every CPU has
 * stopped for it, no CPU executes the BRK, and none is in the handler
 * (it runs with interrupts masked, so a CPU stops only after it). A CPU
 * may still be in the slot, though: the ERET puts back the interrupted
 * code's PSTATE, interrupts on included.
 * So rounds follow in which each CPU says whether the code its IPI
 * interrupted is in the slot (irq_frame's ELR), until none is; only then
 * is the slot, or the probe's entry, used again. A CPU that is not in the
 * slot at its IPI can never enter it again: the BRK is gone.
 *
 * Locking: trace_lock serialises planting and removal (held across their
 * stops and rounds, like the patcher). The handler takes no lock: it reads a probe
 * entry published with a release store of its address, and an entry
 * changes only after the grace period above.
 */
#include <stddef.h>
#include <string.h>

#include <baretrace_trace.h>

#include "barrier.h"
#include "core.h"
#include "exception.h"
#include "kprintf.h"
#include "percpu.h"
#include "probe.h"
#include "probe_insn.h"
#include "smp.h"
#include "symbols.h"
#include "text_alias.h"

struct probe {
	/* The probed address; 0 while the entry is free. Written under
	 * trace_lock: set (release) once the rest is in place, cleared
	 * once no CPU can take the probe's BRK any more. */
	uintptr_t addr;
	uint32_t insn;
	uint32_t number;	/* on the wire: unique this boot, never reused */
	struct probe_spec spec;
	/* Any CPU adds, in the handler (atomically: several CPUs hit the
	 * same probe); reset when the entry is planted again. */
	uint64_t hits;
	uint64_t unrecorded;
	/* Odd while a planting writes the entry: probe_get, which takes no
	 * lock (the exporter calls it, on any CPU), copies it again then. */
	uint32_t seq;
};

static struct probe probes[PROBE_MAX];
static unsigned int planted;	/* under trace_lock */
static uint32_t numbered;	/* under trace_lock: the last number given */
/* This boot's first number - 1 (probe_number_boot): set before any
 * probe is planted, read-only after. */
static uint32_t number_base;

static uintptr_t slot_of(unsigned int i)
{
	return (uintptr_t)probe_xol_slots + (uintptr_t)i * PROBE_SLOT_BYTES;
}

uint32_t probe_take_number(void)
{
	numbered = numbered % (PROBE_NUMBERS_PER_BOOT - 1) + 1;	/* 1 .. 1023 */
	return number_base + numbered;
}

void probe_number_boot(uint64_t boot)
{
	number_base = (uint32_t)((boot - 1) % PROBE_BOOTS_APART) * PROBE_NUMBERS_PER_BOOT;
}

/* The BRK handler: exception context, interrupts masked. */
static bool probe_brk(struct exc_frame *f, unsigned int imm)
{
	if (imm != PROBE_BRK_IMM)
		return false;
	for (unsigned int i = 0; i < PROBE_MAX; i++) {
		struct probe *p = &probes[i];

		if (__atomic_load_n(&p->addr, __ATOMIC_ACQUIRE) != f->elr)
			continue;
		__atomic_fetch_add(&p->hits, 1, __ATOMIC_RELAXED);
		/* In a trace callback the ring may be mid-record: count only. */
		if (this_cpu()->trace_callback_daif ||
		    !probe_record(p->number, &p->spec, f->x, f->sp, f->elr))
			__atomic_fetch_add(&p->unrecorded, 1, __ATOMIC_RELAXED);
		f->elr = slot_of(i);
		return true;
	}
	/* Not a planted probe's address. Removal keeps the entry until no
	 * CPU can take its BRK, so this is a BRK #0xb70 of someone else's:
	 * a crash, unless the word was put back meanwhile (then run it). */
	return READ_ONCE(*(const uint32_t *)f->elr) != INSN_BRK(PROBE_BRK_IMM);
}

struct slot_check {
	uintptr_t lo, hi;
	uint64_t busy;		/* CPUs whose interrupted code is in [lo, hi) */
};

static void slot_check_here(void *arg)
{
	struct slot_check *c = arg;
	const struct exc_frame *f = this_cpu()->irq_frame;	/* the IPI's */

	if (f && f->elr >= c->lo && f->elr < c->hi)
		__atomic_fetch_or(&c->busy, 1ULL << cpu_id(), __ATOMIC_RELAXED);
}

#define SLOT_TRY_US	10000
#define SLOT_TRIES	1000	/* 10 s of CPUs that never answer */

/* Whether every other CPU has been seen outside slot i (see the top). */
static bool slot_quiet(unsigned int i)
{
	struct slot_check c = { slot_of(i), slot_of(i) + PROBE_SLOT_BYTES, 0 };
	uint64_t left = nr_cpus_online > 1 ? smp_others_mask() : 0;

	for (unsigned int t = 0; left && t < SLOT_TRIES; t++) {
		__atomic_store_n(&c.busy, 0, __ATOMIC_RELAXED);
		left &= ~smp_call_cpus_bounded(left, slot_check_here, &c, SLOT_TRY_US);
		left |= __atomic_load_n(&c.busy, __ATOMIC_RELAXED);
	}
	return !left;
}

/* Why the instruction at addr in a function [func, func + size) may not
 * carry a probe, or NULL: the word itself and the code around it (an
 * exclusive sequence, an ERET's registers: probe_window.c), read over
 * the function's bounds from the symbol table. */
static const char *place_refusal(uintptr_t func, uintptr_t size, uintptr_t addr)
{
	unsigned int site = trace_site_fast(func);

	if (site >= bt_site_count || site_func(site) != func)
		return "the function has no patch site (the trace core, exception entry "
		       "and the console path are not probed)";
	if (addr < func + 8)
		return "offsets 0 and 4 are the function's patch site (use 8 or more)";
	for (unsigned int i = 0; i < PROBE_MAX; i++)
		if (probes[i].addr == addr)
			return "a probe is there already";
	return probe_place_refusal((const uint32_t *)func, size / 4, (addr - func) / 4);
}

static int find(const char *name)
{
	for (int i = 0; i < PROBE_MAX; i++)
		if (probes[i].addr && !strcmp(probes[i].spec.name, name))
			return i;
	return -1;
}

static int plant_locked(const struct probe_spec *s, const char **why,
			bool (*taken)(uintptr_t addr))
{
	uintptr_t func = sym_address(s->sym), off, size, addr, slot;
	const char *no;
	unsigned int i;
	uint32_t insn;
	int err;

	if (s->ret)
		return *why = "a return probe (trace/tracers/retprobe.c plants those)", TRACE_EINVAL;
	if (!func || !sym_lookup(func, &off, &size))
		return *why = "no function of that name", TRACE_EINVAL;
	if (s->offset >= size)
		return *why = "the offset is past the function's end", TRACE_EINVAL;
	addr = func + s->offset;
	if (find(s->name) >= 0)
		return *why = "a probe of that name exists", TRACE_EINVAL;
	if ((no = place_refusal(func, size, addr)))
		return *why = no, TRACE_EINVAL;
	if (taken && taken(addr))
		return *why = "a tracepoint patches that word", TRACE_EINVAL;
	for (i = 0; i < PROBE_MAX && probes[i].addr; i++)
		;
	if (i == PROBE_MAX)
		return *why = "every probe slot is taken", TRACE_EBUSY;
	if (patch_round_missed())
		return *why = "a CPU did not answer a synchronisation round", TRACE_EBUSY;
	slot = slot_of(i);
	if (!patch_b_reaches(slot + 4, addr + 4))
		return *why = "the slot is out of a branch's reach", TRACE_EINVAL;
	insn = *(const volatile uint32_t *)addr;
	/* The slot: no CPU can be in it (free entries passed slot_quiet). */
	if (text_write32((void *)slot, *(const uint32_t *)slot, insn) ||
	    text_write32((void *)(slot + 4), *(const uint32_t *)(slot + 4),
			 patch_insn_b(slot + 4, addr + 4)))
		return *why = "the slot could not be written", TRACE_EPATCH;
	text_sync(slot, slot + PROBE_SLOT_BYTES);
	/* Interrupts masked while the count is odd: an exporter on this CPU
	 * would wait for it for ever. */
	unsigned long flags = irq_save();

	__atomic_store_n(&probes[i].seq, probes[i].seq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);	/* odd before the new fields */
	probes[i].insn = insn;
	probes[i].number = probe_take_number();
	probes[i].spec = *s;
	__atomic_store_n(&probes[i].seq, probes[i].seq + 1, __ATOMIC_RELEASE);
	irq_restore(flags);
	__atomic_store_n(&probes[i].hits, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&probes[i].unrecorded, 0, __ATOMIC_RELAXED);
	exception_set_brk_handler(probe_brk);
	__atomic_store_n(&probes[i].addr, addr, __ATOMIC_RELEASE);
	dsb_ish();	/* the entry is visible before its BRK can be */
	err = patch_stop_write32(addr, insn, INSN_BRK(PROBE_BRK_IMM));
	if (err) {	/* nothing written: no CPU can have seen the entry */
		__atomic_store_n(&probes[i].addr, 0, __ATOMIC_RELAXED);
		return *why = err == PATCH_ESTOPPED ? "a CPU did not stop to let the "
			      "instruction change (interrupts masked?)" :
			      "the instruction changed under the probe", TRACE_EPATCH;
	}
	planted++;
	return 0;
}

int probe_plant(const struct probe_spec *s, const char **why, bool (*taken)(uintptr_t addr))
{
	struct probe_spec r = *s;
	int err;

	if (probe_resolve(&r, why))
		return TRACE_EINVAL;
	spin_lock(&trace_lock);
	err = plant_locked(&r, why, taken);
	spin_unlock(&trace_lock);
	return err;
}

int probe_remove(const char *name, const char **why)
{
	int i, err = 0;

	spin_lock(&trace_lock);
	i = find(name);
	if (i < 0) {
		*why = "no probe of that name";
		err = TRACE_EINVAL;
	} else if (patch_round_missed()) {
		*why = "a CPU did not answer a synchronisation round";
		err = TRACE_EBUSY;
	} else if ((err = patch_stop_write32(probes[i].addr, INSN_BRK(PROBE_BRK_IMM),
					     probes[i].insn))) {
		*why = err == PATCH_ESTOPPED ? "a CPU did not stop to let the instruction "
		       "change (interrupts masked?); the probe stays" :
		       "the probe's BRK is not where it was planted";
		err = TRACE_EPATCH;
	} else {
		/* No CPU takes the BRK now, and none is in the handler (the
		 * stop waited for them all); one may still be in the slot. */
		if (!slot_quiet((unsigned int)i)) {
			/* Keep the entry (its address is no longer
			 * executed) and so the slot, for good. */
			kprintf("probe: %s: a CPU did not leave its slot; the slot is not reused\n",
				name);
			probes[i].spec.name[0] = '\0';
		} else {
			__atomic_store_n(&probes[i].addr, 0, __ATOMIC_RELAXED);
		}
		planted--;
	}
	spin_unlock(&trace_lock);
	return err;
}

/* Any context, any CPU; waits only while a planting writes entry i. */
bool probe_get(unsigned int i, struct probe_view *out)
{
	const struct probe *p;

	if (i >= PROBE_MAX)
		return false;
	p = &probes[i];
	/* A free entry, the common case, without copying its spec (the
	 * exporter asks for every entry at each metadata frame). */
	if (!__atomic_load_n(&p->addr, __ATOMIC_RELAXED))
		return false;
	for (;;) {
		uint32_t seq = __atomic_load_n(&p->seq, __ATOMIC_ACQUIRE);

		if (seq & 1)
			continue;	/* a planting is writing it */
		out->addr = __atomic_load_n(&p->addr, __ATOMIC_ACQUIRE);
		out->spec = p->spec;
		out->insn = p->insn;
		out->number = p->number;
		__atomic_thread_fence(__ATOMIC_ACQUIRE);	/* the copy before the check */
		if (__atomic_load_n(&p->seq, __ATOMIC_RELAXED) == seq)
			break;
	}
	if (!out->addr || !out->spec.name[0])
		return false;
	out->hits = __atomic_load_n(&p->hits, __ATOMIC_RELAXED);
	out->unrecorded = __atomic_load_n(&p->unrecorded, __ATOMIC_RELAXED);
	return true;
}

unsigned int probe_count(void)
{
	return READ_ONCE(planted);
}
