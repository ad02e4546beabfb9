/*
 * trace/core/probe_spec.h: what a probe is asked to be, parsed from text,
 * and how its fetched values are typed. Pure C: the host tests it
 * (test/host/test_probe_insn.c).
 *
 *   NAME=SYMBOL[+OFFSET] [FETCH]...     fetches separated by ',' or ' '
 *   NAME=SYMBOL%return [FETCH]...       a return probe: when SYMBOL returns
 *   FETCH = [FNAME=]LOC[:TYPE]
 *   LOC   = x0..x30 | sp | pc | [+|-]DISP(xN|sp)     memory at reg + DISP
 *         | $retval | [+|-]DISP($retval)             return probes only
 *         | @SYMBOL[+OFF]        memory in a global or static variable, by
 *                                name (resolved when planted: probe_resolve)
 *   Memory nests: [+|-]DISP(MEM) reads the pointer MEM holds (64 bits), then
 *   the type's size at that pointer + DISP; "+8(+0(x1))", "+4(@head)".
 *   At most PROBE_DEREF_MAX reads.
 *   TYPE  = u8 u16 u32 u64 s8 s16 s32 s64 x32 x64   (default x64)
 *
 * One word on the kernel command line: "trace_probe=p=f+8,x0:u32,+8(x1):x64".
 */
#ifndef TRACE_PROBE_SPEC_H
#define TRACE_PROBE_SPEC_H

#include <stdint.h>

#define PROBE_NAME_MAX		24	/* name and fetch names, NUL included */
#define PROBE_SYM_MAX		64
#define PROBE_FETCH_MAX		8

/* Type codes: 1-8 as the event schemas' field types (docs/wire.md 2.2
 * key 7), 11 and 12 the hex ones (key 10). */
enum probe_type {
	PROBE_U8 = 1, PROBE_U16, PROBE_U32, PROBE_U64,
	PROBE_S8, PROBE_S16, PROBE_S32, PROBE_S64,
	PROBE_X32 = 11, PROBE_X64 = 12,
};

#define PROBE_REG_SP	31
#define PROBE_REG_PC	32
#define PROBE_REG_RETVAL 33	/* x0 as the function returned */
#define PROBE_REG_GLOBAL 34	/* 'addr' (a data object's, + disp) */
#define PROBE_GSYM_MAX	48	/* a data object's name, NUL included */
#define PROBE_DEREF_MAX	3	/* memory reads in one fetch */

struct probe_fetch {
	char name[PROBE_NAME_MAX];
	uint8_t reg;		/* 0-30 xN, PROBE_REG_SP, PROBE_REG_PC */
	uint8_t type;		/* enum probe_type */
	/* Memory reads: 0 for the register itself. Reads 1..deref-1 take
	 * 64-bit pointers at (the value so far + idisp[k]); the last reads
	 * the type's size at (the value so far + disp). */
	uint8_t deref;
	int32_t disp;
	int32_t idisp[PROBE_DEREF_MAX - 1];
	char gsym[PROBE_GSYM_MAX];	/* PROBE_REG_GLOBAL: the object's name */
	uint64_t addr;		/* PROBE_REG_GLOBAL: its address, once planted */
};

struct probe_spec {
	char name[PROBE_NAME_MAX];
	char sym[PROBE_SYM_MAX];
	uint32_t offset;
	uint8_t ret;		/* 1: SYMBOL%return, a return probe */
	unsigned int nfetch;
	struct probe_fetch fetch[PROBE_FETCH_MAX];
};

/* Parses text into *out; returns 0, or -1 with *why saying what is wrong
 * (out is then unspecified, nothing else is touched). */
int probe_spec_parse(const char *text, struct probe_spec *out, const char **why);

/* The type's size in bytes (1, 2, 4, 8). */
unsigned int probe_type_size(uint8_t type);
/* raw cut to the type's width: zero-extended for u and x types,
 * sign-extended for s types; as a signed 64-bit number, the way the
 * wire carries it (zigzag). */
int64_t probe_type_value(uint8_t type, uint64_t raw);
/* "u32" for PROBE_U32, ...; "?" for an unknown code. */
const char *probe_type_name(uint8_t type);

#endif /* TRACE_PROBE_SPEC_H */
