/*
 * tools/baretrace/model/functypes.c: a traced function's parameters and
 * return type from the ELF's DWARF (libdw), so that recorded argument
 * registers and return values show by name and type.
 *
 * Each function is read once, the first time one of its records is
 * shown, and kept by site. Types are followed through typedefs and
 * qualifiers down to what decides how a value prints: an integer of a
 * size and signedness, bool, char, an enum with its enumerators, a
 * pointer, an aggregate, a floating-point number.
 *
 * The target records the integer argument registers x0..x7 in order
 * (trace/tracers/args.c), so each parameter is placed in them by the
 * AAPCS64 rules (Arm's Procedure Call Standard for the Arm 64-bit
 * Architecture, "Parameter passing rules"): an integer, pointer, bool
 * or enum takes the next x register; a 16-byte integer the next even
 * pair; a floating-point value, or an aggregate of one to four of the
 * same floating-point type (an HFA), goes in v0-v7 and takes none; any
 * other aggregate of up to 16 bytes takes one or two x registers, a
 * larger one is copied by the caller and passed by its address in one;
 * once x7 is used, the rest go on the stack, which is not recorded.
 *
 * A function whose symbol carries a GCC clone suffix (".constprop.0",
 * ".isra.0", ".part.0") may take its parameters in other registers than
 * its declaration says, so it gets no signature and shows raw values.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "../decode/symtab.h"

#include "model.h"

int bt_opt_types = 1;	/* --no-types clears it */

#define TYPE_HOPS	32	/* typedef/qualifier chains longer than this are cycles */

static uint32_t byte_size(Dwarf_Die *d)
{
	int n = dwarf_bytesize(d);

	return n > 0 ? (uint32_t)n : 0;
}

/* The DIE d's DW_AT_type names, past typedefs and qualifiers; 0, or -1: void. */
static int strip(Dwarf_Die *d, Dwarf_Die *out)
{
	Dwarf_Attribute a;
	Dwarf_Die cur = *d;

	for (int hops = 0; hops < TYPE_HOPS; hops++) {
		if (!dwarf_attr_integrate(&cur, DW_AT_type, &a) || !dwarf_formref_die(&a, out))
			return -1;
		switch (dwarf_tag(out)) {
		case DW_TAG_typedef:
		case DW_TAG_const_type:
		case DW_TAG_volatile_type:
		case DW_TAG_restrict_type:
		case DW_TAG_atomic_type:
			cur = *out;
			continue;
		default:
			return 0;
		}
	}
	return -1;
}

static int encoding(Dwarf_Die *d)
{
	Dwarf_Attribute a;
	Dwarf_Word enc;

	if (!dwarf_attr(d, DW_AT_encoding, &a) || dwarf_formudata(&a, &enc))
		return -1;
	return (int)enc;
}

static int is_float_enc(int enc)
{
	return enc == DW_ATE_float || enc == DW_ATE_complex_float || enc == DW_ATE_decimal_float;
}

static void base_type(Dwarf_Die *d, struct bt_ctype *t)
{
	int enc = encoding(d);
	const char *name = dwarf_diename(d);

	t->size = byte_size(d);
	switch (enc) {
	case DW_ATE_boolean:
		t->kind = BT_TY_BOOL;
		break;
	case DW_ATE_signed_char:
	case DW_ATE_unsigned_char:
		/* uint8_t is an unsigned char: only plain char prints as one */
		t->kind = name && !strcmp(name, "char") ? BT_TY_CHAR : BT_TY_INT;
		t->is_signed = enc == DW_ATE_signed_char;
		break;
	case DW_ATE_signed:
		t->kind = BT_TY_INT;
		t->is_signed = 1;
		break;
	case DW_ATE_unsigned:
	case DW_ATE_UTF:
		t->kind = BT_TY_INT;
		break;
	default:
		t->kind = is_float_enc(enc) ? BT_TY_FLOAT : BT_TY_OTHER;
	}
}

int64_t bt_ctype_value(const struct bt_ctype *t, uint64_t raw)
{
	unsigned bits = t->size * 8;
	uint64_t mask;

	if (!bits || bits >= 64)
		return (int64_t)raw;
	mask = (UINT64_C(1) << bits) - 1;
	raw &= mask;
	if (t->is_signed && (raw >> (bits - 1)))
		raw |= ~mask;
	return (int64_t)raw;
}

static void enum_type(Dwarf_Die *d, struct bt_ctype *t)
{
	Dwarf_Die base, child;
	Dwarf_Attribute a;
	Dwarf_Sword v;
	size_t cap = 0;

	t->kind = BT_TY_ENUM;
	t->size = byte_size(d);
	if (!strip(d, &base))			/* its underlying type, DWARF 3 on */
		t->is_signed = encoding(&base) == DW_ATE_signed;
	if (dwarf_child(d, &child))
		return;
	do {
		if (dwarf_tag(&child) != DW_TAG_enumerator || !dwarf_diename(&child) ||
		    !dwarf_attr(&child, DW_AT_const_value, &a) || dwarf_formsdata(&a, &v))
			continue;
		t->vals = bt_grow(t->vals, &cap, t->nvals + 1, sizeof(*t->vals));
		t->vals[t->nvals].value = v;
		t->vals[t->nvals++].name = bt_strndup(dwarf_diename(&child),
						       strlen(dwarf_diename(&child)));
		if (v < 0)
			t->is_signed = 1;	/* no underlying type said so */
	} while (!dwarf_siblingof(&child, &child));
	/* Enumerators as the register holds them, truncated to the size. */
	for (size_t i = 0; i < t->nvals; i++)
		t->vals[i].value = bt_ctype_value(t, (uint64_t)t->vals[i].value);
}

/* One to four members, all of one floating-point type: passed in v registers. */
static int is_hfa(Dwarf_Die *d)
{
	Dwarf_Die child, ty;
	int n = 0, size = -1;

	if (dwarf_child(d, &child))
		return 0;
	do {
		if (dwarf_tag(&child) != DW_TAG_member)
			continue;
		if (strip(&child, &ty) || dwarf_tag(&ty) != DW_TAG_base_type ||
		    !is_float_enc(encoding(&ty)) || (size >= 0 && dwarf_bytesize(&ty) != size))
			return 0;
		size = dwarf_bytesize(&ty);
		n++;
	} while (!dwarf_siblingof(&child, &child));
	return n >= 1 && n <= 4;
}

static int points_to_char(Dwarf_Die *ptr)
{
	Dwarf_Die to;
	const char *name;

	return !strip(ptr, &to) && dwarf_tag(&to) == DW_TAG_base_type &&
	       (name = dwarf_diename(&to)) && strstr(name, "char") &&
	       (encoding(&to) == DW_ATE_signed_char || encoding(&to) == DW_ATE_unsigned_char);
}

/* The type of holder (a parameter, or a function for its return type). */
static void read_type(Dwarf_Die *holder, struct bt_ctype *t)
{
	Dwarf_Die ty;

	memset(t, 0, sizeof(*t));
	if (strip(holder, &ty))
		return;				/* void */
	switch (dwarf_tag(&ty)) {
	case DW_TAG_base_type:
		base_type(&ty, t);
		break;
	case DW_TAG_enumeration_type:
		enum_type(&ty, t);
		break;
	case DW_TAG_pointer_type:
	case DW_TAG_reference_type:
	case DW_TAG_rvalue_reference_type:
		t->kind = BT_TY_PTR;
		t->size = 8;
		t->char_ptr = (uint8_t)points_to_char(&ty);
		break;
	case DW_TAG_structure_type:
	case DW_TAG_union_type:
	case DW_TAG_class_type:
		t->size = byte_size(&ty);
		t->kind = is_hfa(&ty) ? BT_TY_FLOAT : BT_TY_AGGR;
		break;
	default:
		t->kind = BT_TY_OTHER;
		t->size = byte_size(&ty);
	}
}

/* Places a parameter in x0..x7 (the comment at the top); ngrn: the next free. */
static void place(struct bt_param *p, unsigned *ngrn)
{
	unsigned need = 1;

	p->reg = -1;
	if (p->type.kind == BT_TY_FLOAT)
		return;				/* v registers */
	if ((p->type.kind == BT_TY_AGGR || p->type.kind == BT_TY_OTHER) && p->type.size > 8 &&
	    p->type.size <= 16)
		need = 2;
	if (p->type.kind == BT_TY_INT && p->type.size == 16) {
		need = 2;
		*ngrn += *ngrn & 1;		/* an even pair */
	}
	if (*ngrn + need > 8) {
		*ngrn = 8;			/* the stack from here on */
		return;
	}
	p->reg = (int)*ngrn;
	p->nregs = (uint8_t)need;
	*ngrn += need;
}

static void read_sig(Dwarf_Die *fn, struct bt_sig *s)
{
	Dwarf_Attribute a;
	Dwarf_Die origin, child, *d = fn;
	size_t cap = 0;
	unsigned ngrn = 0;

	read_type(fn, &s->ret);
	if (dwarf_attr(fn, DW_AT_abstract_origin, &a) && dwarf_formref_die(&a, &origin))
		d = &origin;			/* a concrete copy of an inline function */
	if (dwarf_child(d, &child))
		return;
	do {
		struct bt_param *p;
		const char *name;

		if (dwarf_tag(&child) == DW_TAG_unspecified_parameters) {
			s->variadic = 1;
			break;
		}
		if (dwarf_tag(&child) != DW_TAG_formal_parameter)
			continue;
		s->p = bt_grow(s->p, &cap, s->np + 1, sizeof(*s->p));
		p = &s->p[s->np++];
		memset(p, 0, sizeof(*p));
		name = dwarf_diename(&child);
		p->name = name ? bt_strndup(name, strlen(name)) : NULL;
		read_type(&child, &p->type);
		place(p, &ngrn);
	} while (!dwarf_siblingof(&child, &child));
}

/* One ELF's signatures; a command reads one ELF, so one cache. */
static struct {
	char *elf;
	int state;			/* 1 open; -1 no DWARF */
	struct bt_srcmap map;
	struct {
		struct bt_sig *sig;	/* NULL: none (raw values) */
		int read;
	} *site;
	size_t cap;
} cache;

static void free_type(struct bt_ctype *t)
{
	for (size_t i = 0; i < t->nvals; i++)
		free(t->vals[i].name);
	free(t->vals);
}

void bt_sig_cache_free(void)
{
	for (size_t i = 0; i < cache.cap; i++) {
		struct bt_sig *s = cache.site[i].sig;

		if (!s)
			continue;
		for (size_t k = 0; k < s->np; k++) {
			free(s->p[k].name);
			free_type(&s->p[k].type);
		}
		free(s->p);
		free_type(&s->ret);
		free(s);
	}
	if (cache.state > 0)
		bt_srcmap_close(&cache.map);
	free(cache.elf);
	free(cache.site);
	memset(&cache, 0, sizeof(cache));
}

static int open_elf(const char *elf)
{
	if (cache.elf && !strcmp(cache.elf, elf))
		return cache.state;
	bt_sig_cache_free();
	cache.elf = bt_strndup(elf, strlen(elf));
	cache.state = bt_srcmap_try_open(&cache.map, elf) ? -1 : 1;
	return cache.state;
}

const struct bt_sig *bt_sig_find(const char *elf, struct bt_symtab *syms, uint64_t site)
{
	const struct bt_sym *sym;
	Dwarf_Die fn;
	struct bt_sig *s;

	if (!bt_opt_types || !elf || site >= syms->nsites || !syms->by_site[site].name ||
	    open_elf(elf) < 0)
		return NULL;
	cache.site = bt_grow(cache.site, &cache.cap, site + 1, sizeof(*cache.site));
	if (cache.site[site].read)
		return cache.site[site].sig;
	cache.site[site].read = 1;
	sym = &syms->by_site[site];
	if (strchr(sym->raw ? sym->raw : sym->name, '.') ||
	    bt_srcmap_subprogram(&cache.map, sym->start, &fn))
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		bt_die(BT_EXIT_INPUT, "out of memory");
	read_sig(&fn, s);
	cache.site[site].sig = s;
	return s;
}
