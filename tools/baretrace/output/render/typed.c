/*
 * tools/baretrace/output/render/typed.c: recorded arguments and return
 * values by name and type (model/functypes.c reads the types), as report's
 * text and as JSON members for the Chrome export.
 *
 *   sensor_read(id=3, buf=0x40081230, len=64, mode=MODE_FAST, ok=true)
 *
 * Integers are cut to their type's size and sign (an int's register may
 * hold anything above bit 31), enums print by enumerator name (a value
 * no enumerator has, as a number), bool as true/false, plain char as a
 * C character literal, pointers in hex (0 as NULL). What the registers
 * cannot show: an aggregate by value prints as {...} (its bytes are in
 * one or two registers, or it was copied and passed by address), a
 * floating-point parameter as ? (it travels in v0-v7, which are not
 * recorded), and so does a 128-bit integer for now. A char * whose
 * string was recorded (trace_args=F:N:sR, docs/wire.md 2.6 subtype 6)
 * prints as a C string literal, "..." after it when it went on.
 * Parameters past the recorded registers are left out, and "..." says
 * there were more. A void function shows no return value.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../model/model.h"

#include "render.h"

static const char *enum_name(const struct bt_ctype *t, int64_t v)
{
	for (size_t i = 0; i < t->nvals; i++)
		if (t->vals[i].value == v)
			return t->vals[i].name;
	return NULL;
}

/* A char literal: 'A', '\'', '\x07'. */
static void char_text(unsigned c, char *buf, size_t n)
{
	if (c == '\'' || c == '\\')
		snprintf(buf, n, "'\\%c'", c);
	else if (c >= ' ' && c <= '~')
		snprintf(buf, n, "'%c'", c);
	else
		snprintf(buf, n, "'\\x%02x'", c);
}

void bt_typed_value(const struct bt_ctype *t, uint64_t raw, char *buf, size_t n)
{
	int64_t v = bt_ctype_value(t, raw);
	const char *name;

	switch (t->kind) {
	case BT_TY_INT:
		if (t->size > 8)
			snprintf(buf, n, "?");	/* __int128: not shown yet */
		else if (t->is_signed)
			snprintf(buf, n, "%lld", (long long)v);
		else
			snprintf(buf, n, "%llu", (unsigned long long)v);
		break;
	case BT_TY_BOOL:
		if (v == 0 || v == 1)
			snprintf(buf, n, "%s", v ? "true" : "false");
		else
			snprintf(buf, n, "%llu", (unsigned long long)v);	/* not a bool's value */
		break;
	case BT_TY_CHAR:
		char_text((unsigned)(v & 0xff), buf, n);
		break;
	case BT_TY_ENUM:
		if ((name = enum_name(t, v)))
			snprintf(buf, n, "%s", name);
		else
			snprintf(buf, n, t->is_signed ? "%lld" : "%llu", (long long)v);
		break;
	case BT_TY_PTR:
		snprintf(buf, n, raw ? "0x%llx" : "NULL", (unsigned long long)raw);
		break;
	case BT_TY_AGGR:
		snprintf(buf, n, "{...}");
		break;
	case BT_TY_FLOAT:
		snprintf(buf, n, "?");
		break;
	default:
		snprintf(buf, n, "0x%llx", (unsigned long long)raw);
	}
}

/* Calls fn for each parameter shown: its name and its text; returns
 * whether parameters were left out (past the registers recorded). */
static int each_arg(const struct bt_sig *s, const int64_t *v, unsigned nv,
		    void (*fn)(void *ctx, const char *name, const struct bt_ctype *t, uint64_t raw,
			       unsigned i, const struct bt_argstr *str),
		    void *ctx, const struct bt_argstr *strs)
{
	unsigned shown = 0;

	for (size_t i = 0; i < s->np; i++) {
		const struct bt_param *p = &s->p[i];
		const struct bt_argstr *str = NULL;

		if (p->type.kind != BT_TY_FLOAT && (p->reg < 0 || p->reg + p->nregs > (int)nv))
			return 1;
		if (strs && p->reg >= 0 && p->type.char_ptr && v[p->reg] && strs[p->reg].have)
			str = &strs[p->reg];	/* a char * (not NULL) whose string came */
		fn(ctx, p->name ? p->name : "?", &p->type,
		   p->reg >= 0 ? (uint64_t)v[p->reg] : 0, shown++, str);
	}
	return s->variadic;
}

void bt_argstr_text(const struct bt_argstr *str, uint64_t raw, char *buf, size_t n)
{
	size_t len = 0;

	if ((str->flags & WIRE_STR_UNREADABLE) && !str->len) {
		snprintf(buf, n, "0x%llx <unreadable>", (unsigned long long)raw);
		return;
	}
	if (n < 8)
		return;
	buf[len++] = '"';
	for (unsigned i = 0; i < str->len && len + 8 < n; i++) {
		uint8_t c = str->bytes[i];

		if (c == '"' || c == '\\')
			len += (size_t)snprintf(buf + len, n - len, "\\%c", c);
		else if (c >= ' ' && c <= '~')
			buf[len++] = (char)c;
		else
			len += (size_t)snprintf(buf + len, n - len, "\\x%02x", c);
	}
	buf[len++] = '"';
	buf[len] = 0;
	if (str->flags & (WIRE_STR_CUT | WIRE_STR_UNREADABLE))
		snprintf(buf + len, n - len, "...");	/* the string goes on */
}

struct json {
	FILE *f;
	int lead;		/* members were written before these */
	int n;
};

struct text {
	char *buf;
	size_t cap, len;
};

static void put_text(void *ctx, const char *name, const struct bt_ctype *t, uint64_t raw,
		     unsigned i, const struct bt_argstr *str)
{
	struct text *x = ctx;
	char val[4 * 64];

	if (str)
		bt_argstr_text(str, raw, val, sizeof(val));
	else
		bt_typed_value(t, raw, val, sizeof(val));
	if (x->len < x->cap) {
		int k = snprintf(x->buf + x->len, x->cap - x->len, "%s%s=%s", i ? ", " : "", name,
				 val);

		x->len += k > 0 ? (size_t)k : 0;
	}
}

int bt_typed_args(struct bt_decoder *d, uint64_t site, const int64_t *v, unsigned n,
		  const struct bt_argstr *strs, char *buf, size_t cap)
{
	const struct bt_sig *s = bt_sig_find(d->elf_path, &d->syms, site);
	struct text x = { buf, cap, 0 };

	if (!s)
		return -1;
	buf[0] = 0;
	if (each_arg(s, v, n, put_text, &x, strs) && x.len < cap)
		snprintf(buf + x.len, cap - x.len, "%s...", x.len ? ", " : "");
	return 0;
}

int bt_typed_retval(struct bt_decoder *d, uint64_t site, int64_t v, char *buf, size_t n)
{
	const struct bt_sig *s = bt_sig_find(d->elf_path, &d->syms, site);

	if (!s)
		return -1;
	if (s->ret.kind == BT_TY_VOID)
		return 0;
	bt_typed_value(&s->ret, (uint64_t)v, buf, n);
	return 1;
}

void bt_strs_add(struct bt_strs **s, const struct wire_ext *x)
{
	if (x->reg >= 8)
		return;
	if (!*s && !(*s = calloc(1, sizeof(**s))))
		bt_die(BT_EXIT_INPUT, "out of memory");
	(*s)->have |= (uint8_t)(1u << x->reg);
	(*s)->flags[x->reg] = x->str_flags;
	(*s)->len[x->reg] = (uint8_t)(x->count < 32 ? x->count : 32);
	memcpy((*s)->bytes[x->reg], x->values, (*s)->len[x->reg]);
}

void bt_strs_view(const struct bt_strs *s, struct bt_argstr out[8])
{
	for (unsigned r = 0; r < 8; r++)
		out[r] = s && (s->have & (1u << r)) ?
			 (struct bt_argstr){ 1, s->bytes[r], s->len[r], s->flags[r] } :
			 (struct bt_argstr){ 0, NULL, 0, 0 };
}

/* ---- JSON ---------------------------------------------------------------- */

/* A member's name: the parameter's, unless it would hide a member the
 * export writes itself. */
static void json_name(FILE *f, const char *name)
{
	static const char *const taken[] = { "args", "retval", "caller" };

	for (size_t i = 0; i < sizeof(taken) / sizeof(taken[0]); i++)
		if (!strcmp(name, taken[i])) {
			fputs("\"param_", f);
			fputs(name, f);
			fputs("\":", f);
			return;
		}
	bt_json_str(f, name);
	fputc(':', f);
}

/* Numbers stay numbers, bool a JSON bool; the rest strings as report prints them. */
static void json_value(FILE *f, const struct bt_ctype *t, uint64_t raw)
{
	int64_t v = bt_ctype_value(t, raw);
	char val[64];

	if (t->kind == BT_TY_INT || (t->kind == BT_TY_ENUM && !enum_name(t, v))) {
		fprintf(f, t->is_signed ? "%lld" : "%llu", (long long)v);
		return;
	}
	bt_typed_value(t, raw, val, sizeof(val));
	if (t->kind == BT_TY_BOOL && (v == 0 || v == 1))
		fputs(val, f);
	else
		bt_json_str(f, val);
}

static void put_json(void *ctx, const char *name, const struct bt_ctype *t, uint64_t raw,
		     unsigned i, const struct bt_argstr *str)
{
	struct json *j = ctx;
	char text[64];

	(void)i;
	if (j->lead || j->n)
		fputc(',', j->f);
	json_name(j->f, name);
	j->n++;
	if (!str) {
		json_value(j->f, t, raw);
		return;
	}
	if ((str->flags & WIRE_STR_UNREADABLE) && !str->len) {	/* as report says it */
		snprintf(text, sizeof(text), "0x%llx <unreadable>", (unsigned long long)raw);
		bt_json_str(j->f, text);
		return;
	}
	/* the string itself, "..." after it if it went on */
	memcpy(text, str->bytes, str->len < 32 ? str->len : 32);
	text[str->len < 32 ? str->len : 32] = 0;
	if (str->flags & (WIRE_STR_CUT | WIRE_STR_UNREADABLE))
		strcat(text, "...");
	bt_json_str(j->f, text);
}

int bt_typed_json_args(FILE *f, struct bt_decoder *d, uint64_t site, const int64_t *v,
		       unsigned n, const struct bt_argstr *strs, int lead)
{
	const struct bt_sig *s = bt_sig_find(d->elf_path, &d->syms, site);
	struct json j = { f, lead, 0 };

	if (!s)
		return -1;
	each_arg(s, v, n, put_json, &j, strs);
	return j.n;
}

int bt_typed_json_retval(FILE *f, struct bt_decoder *d, uint64_t site, int64_t v, int lead)
{
	const struct bt_sig *s = bt_sig_find(d->elf_path, &d->syms, site);

	if (!s)
		return -1;
	if (s->ret.kind == BT_TY_VOID)
		return 0;
	fputs(lead ? ",\"retval\":" : "\"retval\":", f);
	json_value(f, &s->ret, (uint64_t)v);
	return 1;
}
