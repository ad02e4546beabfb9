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
	return 0;	/* an unnamed fetch is named when all are parsed */
}

/* Appends text to a name, cut to fit PROBE_NAME_MAX. */
static void name_add(char *name, const char *text)
{
	size_t n = strlen(name);

	while (*text && n < PROBE_NAME_MAX - 1)
		name[n++] = *text++;
	name[n] = '\0';
}

/* Appends the decimal of v. Not snprintf: see find(). */
static void name_num(char *name, uint64_t v)
{
	char num[24];
	unsigned int k = sizeof(num) - 1;

	num[k] = '\0';
	do
		num[--k] = (char)('0' + v % 10);
	while ((v /= 10));
	name_add(name, num + k);
}

/* An unnamed fetch's name: a word (every export takes it as a field's
 * name) made of its location, its memory reads' displacements innermost
 * first: x0, sp, pc, retval, a global's name ('.' as '_'); +8(x0) x0_p8,
 * -8(x0) x0_m8, +4(+0(x1)) x1_p0_p4, @head+8 head_p8, +2(@head) head_p2.
 * Cut to fit; probe_spec_parse makes it unique. */
static void derive_name(struct probe_fetch *f)
{
	unsigned int l = 0;

	f->name[0] = '\0';
	if (f->reg < PROBE_REG_SP) {
		name_add(f->name, "x");
		name_num(f->name, f->reg);
	} else if (f->reg != PROBE_REG_GLOBAL) {
		name_add(f->name, f->reg == PROBE_REG_SP ? "sp" : f->reg == PROBE_REG_PC ? "pc" :
			 "retval");
	} else {
		name_add(f->name, f->gsym);
		for (char *c = f->name; *c; c++)
			*c = *c == '.' ? '_' : *c;
		l = f->deref > 1 ? f->idisp[0] == 0 : f->disp == 0;	/* @SYM: no +0 */
	}
	for (; l < f->deref; l++) {
		int64_t d = l + 1 == f->deref ? f->disp : f->idisp[l];

		name_add(f->name, d < 0 ? "_m" : "_p");
		name_num(f->name, d < 0 ? (uint64_t)-d : (uint64_t)d);
	}
}

/* Whether a fetch of s other than k is named 'name' already. */
static int name_used(const struct probe_spec *s, unsigned int k, const char *name)
{
	for (unsigned int j = 0; j < s->nfetch; j++)
		if (j != k && s->fetch[j].name[0] && !strcmp(s->fetch[j].name, name))
			return 1;
	return 0;
}

/* Names the unnamed fetches of s (the named ones already have theirs),
 * each distinct from every other fetch's name: a derived name that is
 * taken gets _2, _3, ... (cut shorter to make room). Every export and
 * the report show a fetch by this name, so names never collide there. */
static void name_fetches(struct probe_spec *s)
{
	for (unsigned int k = 0; k < s->nfetch; k++) {
		struct probe_fetch *f = &s->fetch[k];
		char base[PROBE_NAME_MAX];

		if (f->name[0])
			continue;
		derive_name(f);
		memcpy(base, f->name, sizeof(base));
		for (unsigned int n = 2; name_used(s, k, f->name); n++) {
			size_t cut = strlen(base) < PROBE_NAME_MAX - 5 ? strlen(base) :
				     PROBE_NAME_MAX - 5;	/* room for _NNN */

			memcpy(f->name, base, cut);
			f->name[cut] = '\0';
			name_add(f->name, "_");
			name_num(f->name, n);
		}
	}
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
		if (out->fetch[out->nfetch].name[0] &&
		    name_used(out, out->nfetch, out->fetch[out->nfetch].name))
			return *why = "two fetches have the same NAME= (a fetch's name says which "
				      "value is which: each once)", -1;
		out->nfetch++;
	}
	name_fetches(out);
	return 0;
}
