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
/* Probe numbers: a boot's are below PROBE_NUMBERS_PER_BOOT apart from
 * the boot before's (a number stays a 2-byte varint). */
#define PROBE_NUMBERS_PER_BOOT	1024
#define PROBE_BOOTS_APART	16

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
/* A probe number not given before this boot (return probes share the
 * numbers: trace/tracers/retprobe.c), nor by the boot before it: see
 * probe_number_boot. Under trace_lock. */
uint32_t probe_take_number(void);
/* Numbers this boot's probes from ((boot - 1) % PROBE_BOOTS_APART) *
 * PROBE_NUMBERS_PER_BOOT + 1 on (boot: 1 for a cold boot, +1 per reset
 * whose trace the next boot keeps, trace/output/prev.c), so the previous
 * boot's kept hits, sent by this boot, never carry a number this boot
 * gives another probe (docs/wire.md 2.6 subtype 5). Before any probe is
 * planted (KINIT_EARLY). */
void probe_number_boot(uint64_t boot);

/* trace/core/probe_xol.S: PROBE_MAX slots of PROBE_SLOT_BYTES. */
extern char probe_xol_slots[];
#endif

#endif /* TRACE_PROBE_H */
