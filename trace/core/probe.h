/*
 * trace/core/probe.h: probes at any instruction of a function with a
 * patch site (trace/core/probe.c says how they are planted and run).
 */
#ifndef TRACE_PROBE_H
#define TRACE_PROBE_H

#define PROBE_MAX		16
#define PROBE_BRK_IMM		0xb70	/* BRK #0xb70: a planted probe */
#define PROBE_IDLE_IMM		0xb71	/* BRK #0xb71: an unused slot word */
#define PROBE_SLOT_BYTES	8	/* the displaced instruction, B back */

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>

#include "probe_spec.h"

#define INSN_BRK(imm)		(0xd4200000U | ((uint32_t)(imm) << 5))

/* What the list shows of one probe. */
struct probe_view {
	struct probe_spec spec;
	uintptr_t addr;
	uint32_t insn;		/* the displaced instruction */
	uint32_t number;	/* its number on the wire (records, key 10) */
	uint64_t hits;		/* every time a CPU ran the probe */
	uint64_t unrecorded;	/* hits that wrote no record (in a trace
				   callback, or no ring to take it) */
};

/* Plants a probe; thread context. 0, or TRACE_EINVAL / TRACE_EBUSY /
 * TRACE_EPATCH with *why set; a refused probe changes nothing. 'taken'
 * (may be NULL) says whether a higher layer patches the word at an
 * address (the tracepoints' sites: trace/events/tracepoint.h). */
int probe_plant(const struct probe_spec *s, const char **why, bool (*taken)(uintptr_t addr));
/* Removes the probe named 'name' and returns once no CPU can be in its
 * handler or slot; thread context. 0, or an error with *why set. */
int probe_remove(const char *name, const char **why);
/* Probe 'i' (0 <= i < PROBE_MAX) into *out; false when none is there. */
bool probe_get(unsigned int i, struct probe_view *out);
/* The number of probes planted. */
unsigned int probe_count(void);

/* Records a hit of the probe numbered 'number' with spec s's fetches
 * (subtype 5) in this CPU's ring: registers from x[] (x[0] for
 * $retval; a return probe's spec reads nothing else of it), sp and pc.
 * Interrupts masked, not in a trace callback; false when the ring had
 * no room (or none is set up). */
bool probe_record(uint32_t number, const struct probe_spec *s, const uint64_t *x,
		  uint64_t sp, uint64_t pc);
/* Gives each @SYMBOL fetch of s its variable's address (kernel/report's
 * table of data objects); 0, or -1 with *why set for an unknown name or
 * a read past the variable. probe_plant and retprobe_plant call it. */
int probe_resolve(struct probe_spec *s, const char **why);
/* A probe number never given before this boot (return probes share the
 * numbers: trace/tracers/retprobe.c). Under trace_lock. */
uint32_t probe_take_number(void);

/* trace/core/probe_xol.S: PROBE_MAX slots of PROBE_SLOT_BYTES. */
extern char probe_xol_slots[];
#endif

#endif /* TRACE_PROBE_H */
