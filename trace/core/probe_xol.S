/*
 * trace/core/probe_xol.S: where probes run the instruction they displaced
 * (trace/core/probe.c). Not code that is called: each 8-byte slot is
 *
 *   slot+0   the displaced instruction (written when its probe is planted)
 *   slot+4   B probed address + 4
 *
 * entered by the probe handler's ERET with ELR = slot+0 and the
 * interrupted code's registers and PSTATE. Unused words are BRK #0xb71,
 * so a stray jump into an empty slot is reported as a crash at once.
 * In .text: written only through the text alias (kernel/cpu/text_alias.h),
 * and within a B's reach (+-128 MiB) of every function in the image.
 */
#include "probe.h"

	.text
	.balign	8
	.globl	probe_xol_slots
	.type	probe_xol_slots, %object
probe_xol_slots:
	.rept	PROBE_MAX * PROBE_SLOT_BYTES / 4
	brk	#PROBE_IDLE_IMM
	.endr
	.size	probe_xol_slots, . - probe_xol_slots
