/* sources: trace/core/probe_insn.c trace/core/probe_spec.c */
/*
 * test/host/test_probe_insn.c: which instructions a probe may displace,
 * against encodings produced by GNU as (aarch64-linux-gnu-as
 * -march=armv8.5-a+lse, objdump -d), and the probe text parser. Where
 * in a function: test_probe_window.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../trace/core/probe_insn.h"
#include "../../trace/core/probe_spec.h"
#include "tap.h"

struct insn_case {
	uint32_t insn;
	const char *text;
	int refused;
};

static const struct insn_case cases[] = {
	{ 0xd503201f, "nop", 0 },
	{ 0xaa0103e0, "mov x0, x1", 0 },
	{ 0x8b010000, "add x0, x0, x1", 0 },
	{ 0xf9400020, "ldr x0, [x1]", 0 },
	{ 0xa9bf7bfd, "stp x29, x30, [sp, #-16]!", 0 },
	{ 0xa8c17bfd, "ldp x29, x30, [sp], #16", 0 },
	{ 0xc8dffc20, "ldar x0, [x1]", 0 },
	{ 0xc89ffc20, "stlr x0, [x1]", 0 },
	{ 0xd538d080, "mrs x0, tpidr_el1", 0 },
	{ 0xd2824680, "mov x0, #0x1234", 0 },
	{ 0x1e622820, "fadd d0, d1, d2", 0 },
	{ 0xaa1e03e9, "mov x9, x30 (a patch site's first word)", 0 },
	{ 0x14000001, "b", 1 },
	{ 0x94000000, "bl", 1 },
	{ 0x54000040, "b.eq", 1 },
	{ 0xb4000040, "cbz x0", 1 },
	{ 0x35000041, "cbnz w1", 1 },
	{ 0x36180040, "tbz w0, #3", 1 },
	{ 0x37080040, "tbnz w0, #1", 1 },
	{ 0xd61f0000, "br x0", 1 },
	{ 0xd63f0000, "blr x0", 1 },
	{ 0xd65f03c0, "ret", 1 },
	{ 0xd69f03e0, "eret", 1 },
	{ 0x10000000, "adr x0", 1 },
	{ 0x90000000, "adrp x0", 1 },
	{ 0x58000040, "ldr x0, literal", 1 },
	{ 0x18000040, "ldr w0, literal", 1 },
	{ 0x98000040, "ldrsw x0, literal", 1 },
	{ 0x1c000040, "ldr s0, literal", 1 },
	{ 0x9c000040, "ldr q0, literal", 1 },
	{ 0xd8000040, "prfm pldl1keep, literal", 1 },
	{ 0xc85f7c20, "ldxr x0, [x1]", 1 },
	{ 0xc8027c20, "stxr w2, x0, [x1]", 1 },
	{ 0x885ffc20, "ldaxr w0, [x1]", 1 },
	{ 0x8802fc20, "stlxr w2, w0, [x1]", 1 },
	{ 0xc87f0440, "ldxp x0, x1, [x2]", 1 },
	{ 0xc8230440, "stxp w3, x0, x1, [x2]", 1 },
	{ 0x085f7c20, "ldxrb w0, [x1]", 1 },
	{ 0xc87f8c02, "ldaxp x2, x3, [x0]", 1 },
	{ 0x88238440, "stlxp w3, w0, w1, [x2]", 1 },
	{ 0x485f7c22, "ldxrh w2, [x1]", 1 },
	{ 0x0804fc23, "stlxrb w4, w3, [x1]", 1 },
	{ 0x48207c82, "casp x0, x1, x2, x3, [x4] (one access)", 0 },
	{ 0x08607c82, "caspa w0, w1, w2, w3, [x4]", 0 },
	{ 0x88a07c41, "cas w0, w1, [x2]", 0 },
	{ 0xb8200041, "ldadd w0, w1, [x2]", 0 },
	{ 0xf8bfc020, "ldapr x0, [x1]", 0 },
	{ 0xd5384020, "mrs x0, elr_el1", 1 },
	{ 0xd5384001, "mrs x1, spsr_el1", 1 },
	{ 0xd5385202, "mrs x2, esr_el1", 1 },
	{ 0xd5386003, "mrs x3, far_el1", 1 },
	{ 0xd5184020, "msr elr_el1, x0 (its place: probe_window.c)", 0 },
	{ 0xd53b4220, "mrs x0, daif", 0 },
	{ 0xd50342df, "msr daifset, #2", 0 },
	{ 0xd53b4200, "mrs x0, nzcv", 0 },
	{ 0xd5033f5f, "clrex", 0 },
	{ 0xd503205f, "wfe", 0 },
	{ 0xd503207f, "wfi", 0 },
	{ 0xd503209f, "sev", 0 },
	{ 0xd50320bf, "sevl", 0 },
	{ 0xd503245f, "bti c", 0 },
	{ 0xd503233f, "paciasp", 0 },
	{ 0xd50323bf, "autiasp", 0 },
	{ 0xd4000001, "svc #0", 1 },
	{ 0xd4000002, "hvc #0", 1 },
	{ 0xd4000003, "smc #0", 1 },
	{ 0xd4200000, "brk #0", 1 },
	{ 0xd4400000, "hlt #0", 1 },
	{ 0x00000000, "udf #0", 1 },
};

static void insns(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *why = probe_insn_refusal(cases[i].insn);

		if (!tap_ok(!!why == cases[i].refused, "%08x %s: %s", cases[i].insn,
			    cases[i].text, cases[i].refused ? "refused" : "may run out of line"))
			tap_diag("got %s", why ? why : "accepted");
	}
	/* The reason names the class. */
	tap_ok(strstr(probe_insn_refusal(0x90000000), "ADRP") != NULL, "adrp's reason names ADRP");
	tap_ok(strstr(probe_insn_refusal(0xc85f7c20), "exclusive") != NULL,
	       "ldxr's reason says exclusive");
	tap_ok(strstr(probe_insn_refusal(0xd5385202), "ESR_EL1") != NULL,
	       "mrs esr_el1's reason names ESR_EL1");
}

static void good_spec(void)
{
	struct probe_spec s;
	const char *why = "";

	tap_ok(probe_spec_parse("p1=demo_work+0x10,x0:u32 len=x2:s16,+8(x1):x64,-16(sp):u8,pc,sp",
				&s, &why) == 0, "a full spec parses (%s)", why);
	tap_ok(!strcmp(s.name, "p1") && !strcmp(s.sym, "demo_work") && s.offset == 16,
	       "name, symbol and offset");
	tap_ok(s.nfetch == 6, "six fetches");
	tap_ok(s.fetch[0].reg == 0 && s.fetch[0].type == PROBE_U32 && !s.fetch[0].deref &&
	       !strcmp(s.fetch[0].name, "x0"), "x0:u32, named x0");
	tap_ok(s.fetch[1].reg == 2 && s.fetch[1].type == PROBE_S16 && !strcmp(s.fetch[1].name, "len"),
	       "len=x2:s16");
	tap_ok(s.fetch[2].reg == 1 && s.fetch[2].deref && s.fetch[2].disp == 8 &&
	       s.fetch[2].type == PROBE_X64, "+8(x1):x64");
	tap_ok(s.fetch[3].reg == PROBE_REG_SP && s.fetch[3].deref && s.fetch[3].disp == -16 &&
	       s.fetch[3].type == PROBE_U8, "-16(sp):u8");
	tap_ok(s.fetch[4].reg == PROBE_REG_PC && s.fetch[4].type == PROBE_X64, "pc, x64 by default");
	tap_ok(s.fetch[5].reg == PROBE_REG_SP && !s.fetch[5].deref, "sp");
	tap_ok(probe_spec_parse("q=f", &s, &why) == 0 && s.offset == 0 && s.nfetch == 0,
	       "a bare symbol is offset 0, no fetches");
	tap_ok(probe_spec_parse("q=f+8,x30,x29:u64", &s, &why) == 0 && s.fetch[0].reg == 30,
	       "x30");
	tap_ok(!s.ret, "an instruction probe is not a return probe");
	tap_ok(probe_spec_parse("r=f%return,$retval:s32 w=+8($retval):u16,-8(sp)", &s, &why) == 0,
	       "a return probe parses (%s)", why);
	tap_ok(s.ret && !strcmp(s.sym, "f") && s.offset == 0 && s.nfetch == 3,
	       "SYMBOL%%return: the symbol, a return probe, three fetches");
	tap_ok(s.fetch[0].reg == PROBE_REG_RETVAL && !s.fetch[0].deref &&
	       s.fetch[0].type == PROBE_S32 && !strcmp(s.fetch[0].name, "retval"),
	       "$retval:s32, named retval (a word for CTF and trace-cmd)");
	tap_ok(s.fetch[1].reg == PROBE_REG_RETVAL && s.fetch[1].deref && s.fetch[1].disp == 8 &&
	       s.fetch[1].type == PROBE_U16 && !strcmp(s.fetch[1].name, "w"), "w=+8($retval):u16");
	tap_ok(s.fetch[2].reg == PROBE_REG_SP && s.fetch[2].deref && s.fetch[2].disp == -8,
	       "-8(sp) at a return");
	tap_ok(probe_spec_parse("r=f%return", &s, &why) == 0 && s.ret && !s.nfetch,
	       "a return probe without fetches counts only");
	tap_ok(probe_spec_parse("g=f+8,@counter:u32,p=@pair+8,@name.1:s8", &s, &why) == 0 &&
	       s.nfetch == 3, "globals parse (%s)", why);
	tap_ok(s.fetch[0].reg == PROBE_REG_GLOBAL && s.fetch[0].deref && !s.fetch[0].disp &&
	       !strcmp(s.fetch[0].gsym, "counter") && !strcmp(s.fetch[0].name, "counter") &&
	       s.fetch[0].type == PROBE_U32, "@counter:u32, named counter");
	tap_ok(s.fetch[1].reg == PROBE_REG_GLOBAL && s.fetch[1].disp == 8 &&
	       !strcmp(s.fetch[1].gsym, "pair") && !strcmp(s.fetch[1].name, "p") &&
	       s.fetch[1].type == PROBE_X64, "p=@pair+8, x64 by default");
	tap_ok(!strcmp(s.fetch[2].gsym, "name.1"), "a static's name.N");
	tap_ok(probe_spec_parse("g=f%return,$retval,@counter+0x10:u16", &s, &why) == 0 &&
	       s.fetch[1].disp == 16, "a global in a return probe (%s)", why);
	tap_ok(probe_spec_parse("n=f+8,+8(+0(x1)):u32,-4(+16(+0(sp))),+2(@head+8):u8", &s, &why) == 0,
	       "nested memory parses (%s)", why);
	tap_ok(s.fetch[0].reg == 1 && s.fetch[0].deref == 2 && s.fetch[0].idisp[0] == 0 &&
	       s.fetch[0].disp == 8 && s.fetch[0].type == PROBE_U32, "+8(+0(x1)): two reads");
	tap_ok(s.fetch[1].reg == PROBE_REG_SP && s.fetch[1].deref == 3 && s.fetch[1].idisp[0] == 0 &&
	       s.fetch[1].idisp[1] == 16 && s.fetch[1].disp == -4, "-4(+16(+0(sp))): three reads");
	tap_ok(s.fetch[2].reg == PROBE_REG_GLOBAL && s.fetch[2].deref == 2 &&
	       s.fetch[2].idisp[0] == 8 && s.fetch[2].disp == 2 && !strcmp(s.fetch[2].gsym, "head"),
	       "+2(@head+8): the pointer at head+8, then a byte");
	tap_ok(probe_spec_parse("r=f%return,+0($retval)", &s, &why) == 0 &&
	       !strcmp(s.fetch[0].name, "retval_p0"), "memory at $retval named retval_p0");
}

static void bad_spec(const char *text, const char *want)
{
	struct probe_spec s;
	const char *why = "";
	int r = probe_spec_parse(text, &s, &why);

	if (!tap_ok(r == -1 && strstr(why, want), "\"%s\" refused: %s", text, want))
		tap_diag("got %d, \"%s\"", r, why);
}

static void types(void)
{
	tap_ok(probe_type_value(PROBE_U8, 0x1234) == 0x34, "u8 keeps the low byte");
	tap_ok(probe_type_value(PROBE_S8, 0xff) == -1, "s8 0xff is -1");
	tap_ok(probe_type_value(PROBE_S16, 0x18000) == -32768, "s16 0x18000 is -32768");
	tap_ok(probe_type_value(PROBE_U32, 0xffffffff00000005ULL) == 5, "u32 drops the high half");
	tap_ok(probe_type_value(PROBE_S32, 0xfffffffe) == -2, "s32 0xfffffffe is -2");
	tap_ok(probe_type_value(PROBE_X64, 0x8000000000000000ULL) == INT64_MIN, "x64 is all 64 bits");
	tap_ok(probe_type_size(PROBE_X32) == 4 && probe_type_size(PROBE_S64) == 8 &&
	       probe_type_size(PROBE_U16) == 2, "sizes");
	tap_ok(!strcmp(probe_type_name(PROBE_X32), "x32") && !strcmp(probe_type_name(99), "?"),
	       "names");
}

int main(void)
{
	insns();
	good_spec();
	bad_spec("p1", "expected NAME=");
	bad_spec("=f+8", "expected NAME=");
	bad_spec("1p=f+8", "expected NAME=");
	bad_spec("p=+8", "expected a symbol");
	bad_spec("p=f+zz", "not a number");
	bad_spec("p=f+6", "multiple of 4");
	bad_spec("p=f+0x100000000", "not a number");
	bad_spec("p=f+8,x31", "unknown register");
	bad_spec("p=f+8,x01", "unknown register");
	bad_spec("p=f+8,w0", "unknown register");
	bad_spec("p=f+8,x0:u128", "unknown type");
	bad_spec("p=f+8,x0:", "unknown type");
	bad_spec("p=f+8,+8(pc)", "memory at pc");
	bad_spec("p=f+8,+8(+0(pc))", "memory at pc");
	bad_spec("p=f+8,+0(+0(+0(+0(x1))))", "too many memory reads");
	bad_spec("p=f+8,+8(+0(x1)", "memory is");
	bad_spec("p=f+8,+8(+0(x31))", "unknown register");
	bad_spec("p=f+8,+8(x1", "memory is");
	bad_spec("p=f+8,+8x(x1)", "memory is");
	bad_spec("p=f+8,+4294967296(x1)", "memory is");
	bad_spec("p=f+8,a-b=x0", "a fetch's name");
	bad_spec("p=f+8,x0,x1,x2,x3,x4,x5,x6,x7,x8", "too many fetches");
	bad_spec("r=f%retur", "only +OFFSET or %return");
	bad_spec("r=f%return+8", "only +OFFSET or %return");
	bad_spec("r=f+8%return", "only +OFFSET or %return");
	bad_spec("r=%return", "expected a symbol");
	bad_spec("r=f%return,x1", "a return probe fetches $retval, sp");
	bad_spec("r=f%return,pc", "a return probe fetches $retval, sp");
	bad_spec("r=f%return,+8(x0)", "a return probe fetches $retval, sp");
	bad_spec("p=f+8,$retval", "$retval is for return probes");
	bad_spec("p=f+8,+8($retval)", "$retval is for return probes");
	bad_spec("r=f%return,$retva", "unknown register");
	bad_spec("g=f+8,@", "a global is @SYMBOL");
	bad_spec("g=f+8,@+8", "a global is @SYMBOL");
	bad_spec("g=f+8,@a-b", "a global is @SYMBOL");
	bad_spec("g=f+8,@a+zz", "a global is @SYMBOL");
	bad_spec("g=f+8,@a+4294967296", "a global is @SYMBOL");
	bad_spec("g=f+8,@a_name_longer_than_forty_seven_characters_is_cut_no", "a global is @SYMBOL");
	types();
	return tap_done();
}
