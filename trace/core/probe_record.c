/*
 * trace/core/probe_record.c: what a probe hit records (probe.h): each
 * fetch's value, read through registers, memory (nested reads, any of
 * which may fault or fall outside RAM) or a global variable's address,
 * typed, in one extension record (docs/wire.md 2.6 subtype 5). Shared by instruction
 * probes (probe.c) and return probes (trace/tracers/retprobe.c), with
 * the resolution of globals by name their planting does first.
 */
#include <stdbool.h>
#include <stdint.h>

#include "fault.h"
#include "heap.h"
#include "percpu.h"
#include "probe.h"
#include "ring/ring.h"
#include "symbols.h"
#include "wire.h"

/* Where a fetch may read: RAM as the kernel was given it. Anything else
 * may be a device register whose read has an effect (GICC_IAR
 * acknowledges an interrupt; nothing would end it). Set by
 * probe_resolve, before the probe it plants can run, from a value that
 * never changes after heap_init; read by the probes' handlers. Cached:
 * a handler calls nothing traceable. */
static struct mem_region fetch_ram;

/* Why a fetch has no value (its bit in the record's mask is set; the
 * value says which, docs/wire.md 2.6 subtype 5). */
#define FETCH_FAULTED	0	/* a read faulted */
#define FETCH_NOT_RAM	1	/* an address outside RAM, not read */

/* Memory fetches are allowed to fault (a bad pointer in the probed code);
 * one that is not wholly inside RAM is not read at all. 0, or -1 with
 * *v = the reason. The interrupted code may itself be under a fault
 * probe: its recovery point is kept. */
static int fetch_memory(uintptr_t at, unsigned int size, uint64_t *v)
{
	struct percpu *pc = this_cpu();
	uintptr_t recover = pc->fault_recover;
	uint64_t esr = pc->fault_esr;
	int err;

	if (at < fetch_ram.base || at - fetch_ram.base >= fetch_ram.size ||
	    size > fetch_ram.size - (at - fetch_ram.base))
		return *v = FETCH_NOT_RAM, -1;
	err = fault_probe_read((const void *)at, size, v);
	pc->fault_recover = recover;
	pc->fault_esr = esr;
	if (err)
		*v = FETCH_FAULTED;
	return err ? -1 : 0;
}

/* The memory reads of fetch fe from *v on (probe_spec.h): 0 with the
 * value in *v, or -1 with *v the reason when one could not be read. Out
 * of line: a register's fetch, the common one, stays short. */
static int __attribute__((noinline)) follow(const struct probe_fetch *fe, uint64_t *v)
{
	for (unsigned int l = 0; l < fe->deref; l++) {
		bool last = l + 1 == fe->deref;

		if (fetch_memory(*v + (uint64_t)(int64_t)(last ? fe->disp : fe->idisp[l]),
				 last ? probe_type_size(fe->type) : 8, v))
			return -1;
	}
	return 0;
}

/* Subtype 5: probe varint, count u8, unreadable mask u8, values (zigzag;
 * an unreadable one's is its reason). */
bool probe_record(uint32_t number, const struct probe_spec *s, const uint64_t *x,
		  uint64_t sp, uint64_t pc)
{
	int64_t val[PROBE_FETCH_MAX];
	unsigned int n = s->nfetch, payload = wire_varint_len(number) + 2;
	uint8_t unreadable = 0;
	uint8_t *w;

	for (unsigned int k = 0; k < n; k++) {
		const struct probe_fetch *fe = &s->fetch[k];
		uint64_t raw = fe->reg < PROBE_REG_SP ? x[fe->reg] :
			       fe->reg == PROBE_REG_SP ? sp :
			       fe->reg == PROBE_REG_PC ? pc :
			       fe->reg == PROBE_REG_RETVAL ? x[0] : fe->addr;

		if (fe->deref && follow(fe, &raw)) {
			unreadable |= (uint8_t)(1u << k);
			val[k] = (int64_t)raw;
		} else {
			val[k] = probe_type_value(fe->type, raw);
		}
		payload += wire_varint_len(wire_zigzag(val[k]));
	}
	w = ring_reserve(WIRE_REC_EXT, 1 + wire_varint_len(payload) + payload);
	if (!w)
		return false;
	*w++ = WIRE_EXT_PROBE;
	w += wire_varint_put(w, payload);
	w += wire_varint_put(w, number);
	*w++ = (uint8_t)n;
	*w++ = unreadable;
	for (unsigned int k = 0; k < n; k++)
		w += wire_varint_put(w, wire_zigzag(val[k]));
	ring_commit();
	return true;
}

int probe_resolve(struct probe_spec *s, const char **why)
{
	fetch_ram = ram_region();
	for (unsigned int k = 0; k < s->nfetch; k++) {
		struct probe_fetch *fe = &s->fetch[k];
		uintptr_t size = 0;

		if (fe->reg != PROBE_REG_GLOBAL)
			continue;
		if (!(fe->addr = sym_object(fe->gsym, &size)))
			return *why = "no global or static variable of that name (@SYMBOL)", -1;
		if (fe->deref == 1 ? (uint64_t)fe->disp + probe_type_size(fe->type) > size :
		    (uint64_t)fe->idisp[0] + 8 > size)
			return *why = "the fetch reads past the variable's end (@SYMBOL+OFF)", -1;
	}
	return 0;
}
