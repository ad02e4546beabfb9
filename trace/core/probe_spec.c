/*
 * trace/core/probe_spec.c: parsing a probe's text (probe_spec.h). Every
 * check happens here, before anything is planted, so a refused probe
 * changes nothing.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "probe_spec.h"

static const char *const type_names[] = {
	[PROBE_U8] = "u8", [PROBE_U16] = "u16", [PROBE_U32] = "u32", [PROBE_U64] = "u64",
	[PROBE_S8] = "s8", [PROBE_S16] = "s16", [PROBE_S32] = "s32", [PROBE_S64] = "s64",
	[PROBE_X32] = "x32", [PROBE_X64] = "x64",
};

const char *probe_type_name(uint8_t type)
{
	return type < sizeof(type_names) / sizeof(type_names[0]) && type_names[type] ?
	       type_names[type] : "?";
}

unsigned int probe_type_size(uint8_t type)
{
	switch (type) {
	case PROBE_U8: case PROBE_S8: return 1;
	case PROBE_U16: case PROBE_S16: return 2;
	case PROBE_U32: case PROBE_S32: case PROBE_X32: return 4;
	default: return 8;
	}
}

int64_t probe_type_value(uint8_t type, uint64_t raw)
{
	unsigned int bits = probe_type_size(type) * 8;
	uint64_t v = bits == 64 ? raw : raw & ((1ULL << bits) - 1);

	if (type >= PROBE_S8 && type <= PROBE_S64 && bits < 64 && (v >> (bits - 1)))
		v |= ~0ULL << bits;	/* sign-extend */
	return (int64_t)v;
}

/* The first c in [s, e), or NULL. Not memchr: newlib's uses FP/SIMD
 * registers, which the kernel and trace core never touch (test/boot_stages.py
 * check_fp_free_core). */
static const char *find(const char *s, const char *e, char c)
{
	for (; s < e; s++)
		if (*s == c)
			return s;
	return NULL;
}

/* A decimal or 0x-hex number of [s, e) into *out; 0 or -1. */
static int number(const char *s, const char *e, uint64_t max, uint64_t *out)
{
	uint64_t v = 0;
	unsigned int base = 10;

	if (e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (s == e)
		return -1;
	for (; s < e; s++) {
		unsigned int d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned int)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned int)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned int)(*s - 'A' + 10);
		else
			return -1;
		if (v > (max - d) / base)
			return -1;
		v = v * base + d;
	}
	*out = v;
	return 0;
}

/* x0..x30, sp, pc or $retval in [s, e); the code or -1. */
static int reg(const char *s, const char *e)
{
	uint64_t n;

	if (e - s == 7 && !memcmp(s, "$retval", 7))
		return PROBE_REG_RETVAL;
	if (e - s == 2 && !memcmp(s, "sp", 2))
		return PROBE_REG_SP;
	if (e - s == 2 && !memcmp(s, "pc", 2))
		return PROBE_REG_PC;
	if (e - s < 2 || e - s > 3 || *s != 'x' || s[1] < '0' || s[1] > '9' ||
	    (e - s == 3 && s[1] == '0') || number(s + 1, e, 30, &n))
		return -1;
	return (int)n;
}

static int name_ok(const char *s, const char *e)
{
	if (s == e || e - s >= PROBE_NAME_MAX || (*s >= '0' && *s <= '9'))
		return 0;
	for (; s < e; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

/* A symbol's name: letters, digits, _ and . (a static's "name.1"). */
static int sym_ok(const char *s, const char *e)
{
	for (; s < e; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_' || *s == '.'))
			return 0;
	return 1;
}

/* One more memory read, of displacement d, outside those f has. */
static int add_read(struct probe_fetch *f, int64_t d, const char **why)
{
	if (f->deref == PROBE_DEREF_MAX)
		return *why = "too many memory reads in one fetch (at most 3)", -1;
	if (f->deref)
		f->idisp[f->deref - 1] = f->disp;
	f->disp = (int32_t)d;
	f->deref++;
	return 0;
}

/* The location [s, e) into f (its memory reads, innermost first, and the
 * global's name); the base register's code, or -1 with *why set. */
static int location(const char *s, const char *e, struct probe_fetch *f, const char **why)
{
	int r;

	if (s < e && *s == '@') {	/* @SYMBOL[+OFF] */
		const char *plus = find(s, e, '+');
		uint64_t d = 0;

		if (!plus)
			plus = e;
		if (plus == s + 1 || plus - s - 1 >= PROBE_GSYM_MAX || !sym_ok(s + 1, plus) ||
		    (plus < e && number(plus + 1, e, 0x7fffffff, &d)))
			return *why = "a global is @SYMBOL[+OFF] (a variable's name, OFF below 2^31)", -1;
		memcpy(f->gsym, s + 1, (size_t)(plus - s - 1));
		return add_read(f, (int64_t)d, why) ? -1 : PROBE_REG_GLOBAL;
	}
	if (s < e && (*s == '+' || *s == '-' || *s == '(' || (*s >= '0' && *s <= '9'))) {
		const char *open = find(s, e, '(');
		const char *num = *s == '+' || *s == '-' ? s + 1 : s;
		uint64_t d = 0;

		if (!open || e[-1] != ')' || (num < open && number(num, open, 0x7fffffff, &d)))
			return *why = "memory is [+|-]DISP(xN), DISP(sp), DISP($retval) or "
				      "DISP(MEMORY), DISP below 2^31", -1;
		if ((r = location(open + 1, e - 1, f, why)) < 0)
			return -1;
		if (r == PROBE_REG_PC && !f->deref)
			return *why = "memory at pc is not read (the probed instruction is known)", -1;
		return add_read(f, *s == '-' ? -(int64_t)d : (int64_t)d, why) ? -1 : r;
	}
	if ((r = reg(s, e)) < 0)
		return *why = "unknown register (x0..x30, sp, pc, $retval) or global (@SYMBOL)", -1;
	return r;
}

static int fetch(const char *s, const char *e, struct probe_fetch *f, const char **why)
{
	const char *eq = find(s, e, '='), *colon, *loc = s;
	int r;

	memset(f, 0, sizeof(*f));
	if (eq) {
		if (!name_ok(s, eq))
			return *why = "a fetch's name is not a word of letters, digits and _", -1;
		memcpy(f->name, s, (size_t)(eq - s));
		loc = eq + 1;
	}
	colon = find(loc, e, ':');
	f->type = PROBE_X64;
	if (colon) {
		size_t n = (size_t)(e - colon - 1);

		f->type = 0;
		for (uint8_t t = 1; t < sizeof(type_names) / sizeof(type_names[0]); t++)
			if (type_names[t] && strlen(type_names[t]) == n &&
			    !memcmp(colon + 1, type_names[t], n))
				f->type = t;
		if (!f->type)
			return *why = "unknown type (u8..u64, s8..s64, x32, x64)", -1;
		e = colon;
	}
	if ((r = location(loc, e, f, why)) < 0)
		return -1;
	f->reg = (uint8_t)r;
	if (!eq && r == PROBE_REG_RETVAL && !f->deref) {
		memcpy(f->name, "retval", 7);	/* a word: CTF and trace-cmd fields */
	} else if (!eq) {	/* named after its location, cut to fit */
		size_t n = (size_t)(e - loc) < PROBE_NAME_MAX - 1 ? (size_t)(e - loc) : PROBE_NAME_MAX - 1;

		memcpy(f->name, loc, n);
	}
	return 0;
}

/* Why fetch f cannot be taken where probe s runs, or NULL. At a return
 * only x0 ($retval) and sp (as at the call) still mean what they did:
 * the other registers hold whatever the function left in them. */
static const char *where_refusal(const struct probe_spec *s, const struct probe_fetch *f)
{
	if (!s->ret && f->reg == PROBE_REG_RETVAL)
		return "$retval is for return probes (SYMBOL%return)";
	if (s->ret && f->reg != PROBE_REG_RETVAL && f->reg != PROBE_REG_SP &&
	    f->reg != PROBE_REG_GLOBAL)
		return "a return probe fetches $retval, sp, memory at them and globals (@SYMBOL)";
	return NULL;
}

int probe_spec_parse(const char *text, struct probe_spec *out, const char **why)
{
	const char *eq = strchr(text, '='), *s, *e, *plus, *no;
	uint64_t off = 0;

	memset(out, 0, sizeof(*out));
	if (!eq || !name_ok(text, eq))
		return *why = "expected NAME=SYMBOL[+OFFSET] (NAME: letters, digits, _)", -1;
	memcpy(out->name, text, (size_t)(eq - text));
	s = eq + 1;
	for (e = s; *e && *e != ',' && *e != ' '; e++)
		;
	plus = find(s, e, '%');
	if (plus) {	/* SYMBOL%return */
		if (e - plus != 7 || memcmp(plus, "%return", 7) || find(s, plus, '+'))
			return *why = "after SYMBOL only +OFFSET or %return", -1;
		out->ret = 1;
	} else if (!(plus = find(s, e, '+'))) {
		plus = e;
	}
	if (plus == s || plus - s >= PROBE_SYM_MAX)
		return *why = "expected a symbol after NAME=", -1;
	if (!out->ret && plus < e && number(plus + 1, e, 0xffffffff, &off))
		return *why = "the offset is not a number", -1;
	if (off & 3)
		return *why = "the offset is not a multiple of 4 (one instruction)", -1;
	memcpy(out->sym, s, (size_t)(plus - s));
	out->offset = (uint32_t)off;
	while (*e) {
		for (s = e; *s == ',' || *s == ' '; s++)
			;
		for (e = s; *e && *e != ',' && *e != ' '; e++)
			;
		if (s == e)
			break;
		if (out->nfetch == PROBE_FETCH_MAX)
			return *why = "too many fetches (at most 8)", -1;
		if (fetch(s, e, &out->fetch[out->nfetch], why))
			return -1;
		if ((no = where_refusal(out, &out->fetch[out->nfetch])))
			return *why = no, -1;
		out->nfetch++;
	}
	return 0;
}
