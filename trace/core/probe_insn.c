/*
 * trace/core/probe_insn.c: see probe_insn.h. One table row per encoding
 * class, from the Arm ARM's A64 encoding index (DDI 0487, C4.1): an
 * instruction is refused when (insn & mask) == match for any row. Rows
 * are whole classes, so an encoding added to a class later (BC.cond in
 * the B.cond class, the pointer-authenticating returns among the
 * register branches) is refused with it.
 */
#include <stddef.h>
#include <stdint.h>

#include "probe_insn.h"

struct probe_refusal {
	uint32_t mask, match;
	const char *why;
};

static const struct probe_refusal refusals[] = {
	/* Branches: where execution goes next is the instruction's. */
	{ 0x7c000000, 0x14000000, "a branch (B, BL): reads the PC" },
	{ 0xff000000, 0x54000000, "a conditional branch (B.cond): reads the PC" },
	{ 0x7e000000, 0x34000000, "a compare and branch (CBZ, CBNZ): reads the PC" },
	{ 0x7e000000, 0x36000000, "a test and branch (TBZ, TBNZ): reads the PC" },
	{ 0xfe000000, 0xd6000000, "a branch to a register (BR, BLR, RET, ERET)" },
	/* PC-relative addresses and loads. */
	{ 0x1f000000, 0x10000000, "an address relative to the PC (ADR, ADRP)" },
	{ 0x3b000000, 0x18000000, "a load relative to the PC (LDR literal, LDRSW, PRFM)" },
	/* Load/store exclusive with o2 = 0: LDXR, STXR, LDAXR, STLXR and
	 * their byte and halfword forms (o1 = 0), LDXP, STXP, LDAXP, STLXP
	 * (o1 = 1, bit 31 set). LDAR, STLR (o2 = 1), CAS and CASP (o1 = 1,
	 * bit 31 clear) are single accesses and may move. The places
	 * between a load and its store: probe_window.c. */
	{ 0x3fa00000, 0x08000000, "an exclusive load or store (LDXR, STXR, ...): the "
				  "probe's exception clears the monitor" },
	{ 0xbfa00000, 0x88200000, "an exclusive load or store pair (LDXP, STXP, ...): the "
				  "probe's exception clears the monitor" },
	/* MRS of what the BRK's own exception writes: out of line it would
	 * read the probe's ELR (the probed address), SPSR, syndrome (a BRK)
	 * and an UNKNOWN FAR instead of the interrupted code's. */
	{ 0xffffffe0, 0xd5384020, "a read of ELR_EL1, which the probe's exception overwrites" },
	{ 0xffffffe0, 0xd5384000, "a read of SPSR_EL1, which the probe's exception overwrites" },
	{ 0xffffffe0, 0xd5385200, "a read of ESR_EL1, which the probe's exception overwrites" },
	{ 0xffffffe0, 0xd5386000, "a read of FAR_EL1, which the probe's exception overwrites" },
	/* Exception generation: SVC, HVC, SMC, BRK, HLT, DCPS. */
	{ 0xff000000, 0xd4000000, "an exception-generating instruction (SVC, HVC, SMC, BRK, HLT)" },
	{ 0xffff0000, 0x00000000, "permanently undefined (UDF)" },
};

const char *probe_insn_refusal(uint32_t insn)
{
	for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++)
		if ((insn & refusals[i].mask) == refusals[i].match)
			return refusals[i].why;
	return NULL;
}
