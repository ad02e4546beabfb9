/*
 * kernel/cpu/esr.c: exception syndrome in words, for crash reports.
 * Names follow the Arm ARM (DDI 0487) ESR_ELx.EC and DFSC/IFSC tables.
 */
#include <stdint.h>

#include "esr.h"
#include "kfmt.h"

static const char *const ec_names[64] = {
	[0x00] = "Unknown reason (undefined instruction)",
	[0x01] = "WFI/WFE trapped",
	[0x07] = "FP/SIMD access trapped",
	[0x0e] = "Illegal execution state",
	[0x15] = "SVC",
	[0x16] = "HVC",
	[0x17] = "SMC",
	[0x18] = "System register access trapped",
	[0x20] = "Instruction abort from lower EL",
	[0x21] = "Instruction abort",
	[0x22] = "PC alignment fault",
	[0x24] = "Data abort from lower EL",
	[0x25] = "Data abort",
	[0x26] = "SP alignment fault",
	[0x2c] = "FP exception",
	[0x2f] = "SError",
	[0x30] = "Breakpoint from lower EL",
	[0x31] = "Breakpoint",
	[0x32] = "Software step from lower EL",
	[0x33] = "Software step",
	[0x34] = "Watchpoint from lower EL",
	[0x35] = "Watchpoint",
	[0x3c] = "BRK instruction",
};

const char *esr_class_name(uint64_t esr)
{
	const char *n = ec_names[ESR_EC(esr)];

	return n ? n : "Reserved or unhandled exception class";
}

const char *esr_fault_name(uint64_t esr)
{
	switch (esr & 0x3c) {	/* xFSC without the level */
	case 0x00: return "address size fault";
	case 0x04: return "translation fault";
	case 0x08: return "access flag fault";
	case 0x0c: return "permission fault";
	}
	switch (esr & 0x3f) {
	case 0x10: return "synchronous external abort";
	case 0x21: return "alignment fault";
	case 0x30: return "TLB conflict abort";
	}
	return "other fault";
}

/* ESR_ELx ISS for EC 0x2f (SError interrupt): IDS (bit 24) says the rest
 * is IMPLEMENTATION DEFINED; otherwise AET (bits 12:10) grades the error
 * (with FEAT_RAS), EA (bit 9) is the external abort type and DFSC (bits
 * 5:0) says whether it is an asynchronous SError (0x11). */
void esr_serror_describe(uint64_t esr, char *buf, unsigned long size)
{
	static const char *const aet[8] = {
		"uncontainable (AET UC)", "unrecoverable (AET UEU)",
		"restartable (AET UEO)", "recoverable (AET UER)", "AET 4", "AET 5",
		"corrected (AET CE)", "AET 7" };
	unsigned int dfsc = esr & 0x3f;

	if (esr & (1UL << 24)) {
		ksnprintf(buf, size, "implementation-defined syndrome %06lx",
			  (unsigned long)(esr & 0xffffff));
		return;
	}
	ksnprintf(buf, size, "%s, %s, EA %lu",
		  dfsc == 0x11 ? "asynchronous SError interrupt" :
		  dfsc == 0 ? "uncategorized" : "DFSC reserved",
		  dfsc == 0x11 ? aet[(esr >> 10) & 7] : "no error grade",
		  (unsigned long)((esr >> 9) & 1));
}
