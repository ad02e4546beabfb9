/*
 * tools/baretrace/output/export/export_tracecmd_typed.c: recorded arguments and
 * return values by name and type in the trace-cmd export, as events of
 * system "typed": for each function whose DWARF the host read
 * (model/functypes.c), an event named as the function, one field per
 * parameter, and FUNC__return with a field "ret":
 *
 *   ty_sensor_read: (id=3, buf=0x40284a60, len=64)
 *   ty_sensor_read__return: ret=TY_EINVAL
 *
 * A value that is a number stays one (64 bits, signed as its type), so
 * trace-cmd's filters compare it: integers print in decimal, pointers in
 * hex (0 as NULL), enums by enumerator name and bool as true or false
 * through __print_symbolic (a value with no name prints in hex there).
 * The rest is text, a __data_loc string of what report prints (typed.c):
 * a char literal, a char * (its string when one was recorded), {...} for
 * an aggregate, ? for floating point and 128-bit integers.
 *
 * Which parameters a format lists: those that fit in the most registers
 * any of the function's calls recorded, as report shows them, and ", ..."
 * after them when there were more or the function is variadic. A call's
 * arguments event is written once its string records (which follow it)
 * are in: when the CPU's next record comes, before a hole, at the end.
 * Functions with no signature (no --elf, --no-types, no DWARF) get no
 * typed events: their argument records stay out, as before.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../decode/units.h"
#include "../../model/model.h"
#include "../render/render.h"

#include "bt_tracecmd.h"

#define MAX_FIELDS	16	/* 8 x registers, 8 floating-point parameters */
#define TEXT_MAX	160	/* a text field's bytes, its NUL too */
#define EVENT_MAX	(8 + 8 * MAX_FIELDS + MAX_FIELDS * TEXT_MAX)
#define MAX_FUNCS	((BT_TC_ID_LAST + 1 - BT_TC_ID_FIRST_TYPED) / 2)
#define ENUM_NAMES_MAX	512	/* more enumerators: the number alone */

struct tc_field {
	const char *name;		/* the parameter's, or "ret" */
	const struct bt_ctype *type;
	int reg;			/* its x register, or -1 (not recorded) */
	uint8_t text;			/* a __data_loc string, else 64 bits */
	uint16_t off;
};

struct tc_fn {
	uint64_t site;
	const struct bt_sig *sig;
	char name[96];			/* the event's: the function's, as one word */
	struct tc_field f[MAX_FIELDS];
	unsigned nf, fixed;		/* fields, where text bytes start */
	unsigned nmax;			/* most registers a call recorded */
	struct tc_field ret;
};

struct tc_pending {
	int have;
	size_t fn;
	uint64_t ts;
	int64_t v[8];
	unsigned n;
	struct bt_strs *strs;
};

/* Sites seen, by hash: the function's index in fn + 1, or 0 for one
 * with no signature. */
struct tc_slot {
	uint64_t site;
	size_t fn;
	int used;
};

struct bt_tc_typed {
	struct tc_fn *fn;
	size_t n, cap;
	struct tc_slot *slot;
	size_t nslots, used;		/* nslots: a power of two, or 0 */
	struct tc_pending pend[BT_MAX_CPUS];
};

struct bt_tc_typed *bt_tc_typed_new(void)
{
	struct bt_tc_typed *t = calloc(1, sizeof(*t));

	if (!t)
		bt_die(BT_EXIT_INPUT, "out of memory");
	return t;
}

void bt_tc_typed_free(struct bt_tc_typed *t)
{
	if (!t)
		return;
	for (unsigned c = 0; c < BT_MAX_CPUS; c++)
		free(t->pend[c].strs);
	free(t->fn);
	free(t->slot);
	free(t);
}

/* Shown as text rather than a number. */
static int is_text(const struct bt_ctype *ty)
{
	return ty->kind == BT_TY_CHAR || ty->kind == BT_TY_AGGR || ty->kind == BT_TY_FLOAT ||
	       (ty->kind == BT_TY_INT && ty->size > 8) || (ty->kind == BT_TY_PTR && ty->char_ptr);
}

static void word(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src);
	for (char *c = dst; *c; c++)
		*c = isalnum((unsigned char)*c) ? *c : '_';
}

static struct tc_slot *slot_of(struct bt_tc_typed *t, uint64_t site)
{
	size_t i = (size_t)(site * 0x9e3779b97f4a7c15ull >> 20) & (t->nslots - 1);

	while (t->slot[i].used && t->slot[i].site != site)
		i = (i + 1) & (t->nslots - 1);
	return &t->slot[i];
}

/* Room for one more site: the table grows to stay at most half full. */
static void slots_grow(struct bt_tc_typed *t)
{
	struct tc_slot *old = t->slot;
	size_t n = t->nslots;

	if (2 * (t->used + 1) <= t->nslots)
		return;
	t->nslots = n ? 2 * n : 64;
	t->slot = calloc(t->nslots, sizeof(*t->slot));
	if (!t->slot)
		bt_die(BT_EXIT_INPUT, "out of memory");
	for (size_t i = 0; i < n; i++)
		if (old[i].used)
			*slot_of(t, old[i].site) = old[i];
	free(old);
}

/* The function's entry in the table, made on first sight: NULL when it
 * has no signature or the table is full. */
static struct tc_fn *fn_of(struct bt_tc_typed *t, struct bt_decoder *d, uint64_t site, size_t *at)
{
	const struct bt_sig *s;
	struct tc_slot *sl;
	struct tc_fn *f;
	char nb[96];
	unsigned off = 8;

	slots_grow(t);
	sl = slot_of(t, site);
	if (sl->used) {
		*at = sl->fn - 1;
		return sl->fn ? &t->fn[sl->fn - 1] : NULL;
	}
	s = t->n < MAX_FUNCS ? bt_sig_find(d->elf_path, &d->syms, site) : NULL;
	*sl = (struct tc_slot){ site, s ? t->n + 1 : 0, 1 };
	t->used++;
	if (!s)
		return NULL;
	t->fn = bt_grow(t->fn, &t->cap, t->n + 1, sizeof(*t->fn));
	f = &t->fn[*at = t->n++];
	memset(f, 0, sizeof(*f));
	f->site = site;
	f->sig = s;
	word(f->name, sizeof(f->name), bt_func_name(d, site, nb, sizeof(nb)));
	for (size_t i = 0; i < s->np && f->nf < MAX_FIELDS; i++) {
		const struct bt_param *p = &s->p[i];

		if (p->type.kind != BT_TY_FLOAT && (p->reg < 0 || p->reg + p->nregs > 8))
			break;		/* on the stack: never recorded, nor what follows */
		f->f[f->nf++] = (struct tc_field){ p->name ? p->name : "?", &p->type,
						   p->type.kind == BT_TY_FLOAT ? -1 : p->reg,
						   (uint8_t)is_text(&p->type), 0 };
	}
	for (int pass = 0; pass < 2; pass++)	/* numbers, then text locations */
		for (unsigned i = 0; i < f->nf; i++)
			if (f->f[i].text == pass) {
				f->f[i].off = (uint16_t)off;
				off += pass ? 4 : 8;
			}
	f->fixed = off;
	f->ret = (struct tc_field){ "ret", &s->ret, 0, (uint8_t)is_text(&s->ret), 8 };
	return f;
}

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Field x's value into ev (text after *at). */
static void put_value(uint8_t *ev, unsigned *at, const struct tc_field *x, uint64_t raw,
		      const struct bt_argstr *str)
{
	char text[4 * 64];
	size_t len;

	if (!x->text) {
		put_le(ev + x->off, (uint64_t)bt_ctype_value(x->type, raw), 8);
		return;
	}
	if (str)
		bt_argstr_text(str, raw, text, sizeof(text));
	else
		bt_typed_value(x->type, raw, text, sizeof(text));
	len = strlen(text) < TEXT_MAX - 1 ? strlen(text) : TEXT_MAX - 1;
	memcpy(ev + *at, text, len);
	ev[*at + len] = 0;
	put_le(ev + x->off, (uint64_t)(len + 1) << 16 | *at, 4);
	*at += (unsigned)len + 1;
}

static void common(uint8_t *ev, unsigned id, unsigned cpu)
{
	memset(ev, 0, 8);
	put_le(ev, id, 2);
	put_le(ev + 4, cpu + 1, 4);
}

void bt_tc_typed_flush(struct bt_tc_typed *t, struct bt_decoder *d, unsigned cpu,
		       struct bt_tc_cpu *out)
{
	struct tc_pending *p = &t->pend[cpu];
	struct tc_fn *f;
	struct bt_argstr strs[8];
	uint8_t ev[EVENT_MAX];
	unsigned at;

	if (!p->have)
		return;
	p->have = 0;
	f = &t->fn[p->fn];
	at = f->fixed;
	bt_strs_view(p->strs, strs);
	common(ev, BT_TC_ID_FIRST_TYPED + 2 * (unsigned)p->fn, cpu);
	for (unsigned i = 0; i < f->nf; i++) {
		const struct tc_field *x = &f->f[i];
		int here = x->reg >= 0 && (unsigned)x->reg < p->n;
		uint64_t raw = here ? (uint64_t)p->v[x->reg] : 0;

		put_value(ev, &at, x, raw, here && x->type->char_ptr && raw &&
			  strs[x->reg].have ? &strs[x->reg] : NULL);
	}
	bt_tc_event(out, bt_ticks_ns(p->ts, bt_freq(d)), ev, at);
	free(p->strs);
	p->strs = NULL;
}

int bt_tc_typed_record(struct bt_tc_typed *t, struct bt_decoder *d, unsigned cpu,
		       const struct wire_record *r, struct bt_tc_cpu *out)
{
	struct tc_pending *p = &t->pend[cpu];
	struct wire_ext x;
	struct tc_fn *f;
	size_t at;

	if (r->kind != WIRE_REC_EXT || wire_ext_parse(r, &x) <= 0 ||
	    (x.subtype != WIRE_EXT_ARGS && x.subtype != WIRE_EXT_STRING)) {
		bt_tc_typed_flush(t, d, cpu, out);
		return 0;
	}
	if (x.subtype == WIRE_EXT_STRING) {	/* joins the arguments before it */
		if (p->have && t->fn[p->fn].site == x.site)
			bt_strs_add(&p->strs, &x);
		return 1;
	}
	bt_tc_typed_flush(t, d, cpu, out);
	if (!(f = fn_of(t, d, x.site, &at)))
		return 1;
	p->have = 1;
	p->fn = at;
	p->ts = r->ts;
	p->n = bt_ext_args(&x, p->v, 8);
	f->nmax = p->n > f->nmax ? p->n : f->nmax;
	return 1;
}

void bt_tc_typed_exit(struct bt_tc_typed *t, struct bt_decoder *d, unsigned cpu,
		      const struct wire_record *r, struct bt_tc_cpu *out)
{
	uint8_t ev[8 + 8 + TEXT_MAX];
	struct tc_fn *f;
	unsigned at = 16;
	size_t i;

	if (!(r->flags & WIRE_EXIT_HAS_RETVAL) || !(f = fn_of(t, d, r->site, &i)) ||
	    f->sig->ret.kind == BT_TY_VOID)
		return;
	common(ev, BT_TC_ID_FIRST_TYPED + 2 * (unsigned)i + 1, cpu);
	put_value(ev, &at, &f->ret, (uint64_t)r->retval, NULL);
	bt_tc_event(out, bt_ticks_ns(r->ts, bt_freq(d)), ev, f->ret.text ? at : 16);
}

unsigned bt_tc_typed_count(const struct bt_tc_typed *t)
{
	return t ? 2 * (unsigned)t->n : 0;
}

/* How field x prints: its conversion into fmt, its argument into args. */
static void print_field(struct bt_tc_buf *fmt, struct bt_tc_buf *args, const struct tc_field *x,
			const char *name)
{
	const struct bt_ctype *ty = x->type;

	if (x->text) {
		bt_tc_printf(fmt, "%%s");
		bt_tc_printf(args, ", __get_str(%s)", name);
	} else if (ty->kind == BT_TY_BOOL || ty->kind == BT_TY_PTR ||
		   (ty->kind == BT_TY_ENUM && ty->nvals && ty->nvals <= ENUM_NAMES_MAX)) {
		bt_tc_printf(fmt, "%%s");
		bt_tc_printf(args, ", __print_symbolic(REC->%s", name);
		if (ty->kind == BT_TY_BOOL)
			bt_tc_printf(args, ", { 0, \"false\" }, { 1, \"true\" }");
		else if (ty->kind == BT_TY_PTR)
			bt_tc_printf(args, ", { 0, \"NULL\" }");
		else	/* as the field holds it: 64 bits, in hex */
			for (size_t k = 0; k < ty->nvals; k++)
				bt_tc_printf(args, ", { 0x%llx, \"%s\" }",
					     (unsigned long long)ty->vals[k].value, ty->vals[k].name);
		bt_tc_printf(args, ")");
	} else {
		bt_tc_printf(fmt, ty->kind == BT_TY_OTHER ? "0x%%llx" : ty->is_signed ? "%%lld" : "%%llu");
		bt_tc_printf(args, ", REC->%s", name);
	}
}

static void field_decl(char *decl, size_t n, const struct tc_field *x, const char *name)
{
	snprintf(decl, n, "%s %s", x->text ? "__data_loc char[]" :
		 x->type->is_signed && x->type->kind != BT_TY_PTR ? "s64" : "u64", name);
}

void bt_tc_typed_format(const struct bt_tc_typed *t, unsigned i, struct bt_tc_buf *b)
{
	const struct tc_fn *f = &t->fn[i / 2];
	struct bt_tc_buf fmt = { 0 }, args = { 0 };
	struct bt_tc_field fl[MAX_FIELDS];
	char decl[MAX_FIELDS][96], names[MAX_FIELDS][64], ev[128];
	unsigned shown = 0;

	bt_tc_printf(&args, "%s", "");
	if (i & 1) {
		snprintf(ev, sizeof(ev), "%s__return", f->name);
		field_decl(decl[0], sizeof(decl[0]), &f->ret, "ret");
		fl[0] = (struct bt_tc_field){ decl[0], 8, f->ret.text ? 4 : 8,
					      !f->ret.text && f->ret.type->is_signed };
		bt_tc_printf(&fmt, "\"");
		if (f->sig->ret.kind != BT_TY_VOID) {	/* (a void function has no events) */
			bt_tc_printf(&fmt, "ret=");
			print_field(&fmt, &args, &f->ret, "ret");
			shown = 1;
		}
	} else {
		snprintf(ev, sizeof(ev), "%s", f->name);
		bt_tc_printf(&fmt, "\"(");
		for (; shown < f->nf; shown++) {
			const struct tc_field *x = &f->f[shown];

			if (x->reg >= 0 && (unsigned)x->reg >= f->nmax)
				break;	/* no call recorded its register */
			word(names[shown], sizeof(names[shown]), x->name);
			field_decl(decl[shown], sizeof(decl[shown]), x, names[shown]);
			fl[shown] = (struct bt_tc_field){ decl[shown], x->off, x->text ? 4 : 8,
							  !x->text && x->type->is_signed };
			bt_tc_printf(&fmt, "%s%s=", shown ? ", " : "", names[shown]);
			print_field(&fmt, &args, x, names[shown]);
		}
		if (shown < f->sig->np || f->sig->variadic)
			bt_tc_printf(&fmt, "%s...", shown ? ", " : "");
		bt_tc_printf(&fmt, ")");
	}
	bt_tc_printf(&fmt, "\"%s", (char *)args.p);
	bt_tc_format_text(b, ev, BT_TC_ID_FIRST_TYPED + i, fl, shown, (char *)fmt.p);
	free(fmt.p);
	free(args.p);
}
