/*
 * tools/baretrace/decode/symtab.c: function names, by callsite index and by
 * address, filled from an ELF (elf_syms.c) or from symbol-dump frames
 * (docs/wire.md section 2.3).
 *
 * Ownership: from an ELF, by_addr holds every function and owns the
 * names, by_site points into it; from dumps, by_site owns the names and
 * by_addr is a sorted copy of it, rebuilt when a dump changed it.
 *
 * Names are stored as shown (bt_sym_set_name): a C++ name demangled once
 * when the table is read, its mangled form kept beside it for filters
 * that name it so. Every output reads .name, none demangles again.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../wire/wire_syms.h"
#include "../base/util.h"

#include "symtab.h"

/* Sites beyond this in a dump are taken as damage, not a real image. */
#define MAX_SITES	(1u << 20)

char *(*bt_sym_demangler)(const char *raw);

void bt_sym_set_name(struct bt_sym *s, const void *p, size_t n)
{
	char *raw = bt_strndup(p, n), *shown = bt_sym_demangler ? bt_sym_demangler(raw) : NULL;

	s->name = shown ? shown : raw;
	s->raw = shown ? raw : NULL;
}

static void free_sym(struct bt_sym *s)
{
	free(s->name);
	free(s->raw);
}

void bt_symtab_init(struct bt_symtab *t)
{
	memset(t, 0, sizeof(*t));
}

void bt_symtab_free(struct bt_symtab *t)
{
	if (t->from_elf) {
		for (size_t i = 0; i < t->naddr; i++)
			free_sym(&t->by_addr[i]);
	} else {
		for (size_t i = 0; i < t->nsites; i++)
			free_sym(&t->by_site[i]);
	}
	free(t->by_site);
	free(t->by_addr);
	bt_symtab_init(t);
}

static int get(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	int n = *p < end ? wire_varint_get(*p, (size_t)(end - *p), v) : -1;

	if (n < 0)
		return -1;
	*p += n;
	return 0;
}

int bt_symtab_add_dump(struct bt_symtab *t, const uint8_t *body, size_t len, unsigned version)
{
	const uint8_t *p = body, *end = body + len;
	uint64_t first, count;
	struct wire_sym_state prev;

	if (t->from_elf)
		return 0;	/* the ELF is the better source */
	if (get(&p, end, &first) || get(&p, end, &count) || first > MAX_SITES ||
	    count > MAX_SITES - first)
		return -1;
	wire_sym_begin(&prev);
	for (uint64_t i = 0; i < count; i++) {
		uint64_t start, size, n;
		size_t site = (size_t)(first + i), shared = 0;
		const uint8_t *rest;
		char *name;

		if (version >= WIRE_VERSION_SLOTS) {
			/* Front-coded against the entry before (wire.md 2.3). */
			if (wire_sym_get(&p, end, &prev, &start, &size, &shared, &rest, &n))
				return -1;
		} else {
			if (get(&p, end, &start) || get(&p, end, &size) || get(&p, end, &n) ||
			    n > (uint64_t)(end - p))
				return -1;
			rest = p;
			p += n;
		}
		name = bt_alloc(shared + (size_t)n + 1);
		memcpy(name, prev.name, shared);
		memcpy(name + shared, rest, (size_t)n);
		wire_sym_took(&prev, shared, rest, (size_t)n);
		t->by_site = bt_grow(t->by_site, &t->sites_cap, site + 1, sizeof(*t->by_site));
		if (site >= t->nsites)
			t->nsites = site + 1;
		free_sym(&t->by_site[site]);
		t->by_site[site] = (struct bt_sym){ start, size, NULL, NULL };
		bt_sym_set_name(&t->by_site[site], name, shared + (size_t)n);
		free(name);
		t->addr_dirty = 1;
	}
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const struct bt_sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static void rebuild_addr(struct bt_symtab *t)
{
	t->naddr = 0;
	for (size_t i = 0; i < t->nsites; i++) {
		if (!t->by_site[i].name)
			continue;
		t->by_addr = bt_grow(t->by_addr, &t->addr_cap, t->naddr + 1, sizeof(*t->by_addr));
		t->by_addr[t->naddr++] = t->by_site[i];
	}
	qsort(t->by_addr, t->naddr, sizeof(*t->by_addr), by_start);
	t->addr_dirty = 0;
}

const char *bt_site_name(struct bt_symtab *t, uint64_t site, char *buf, size_t n)
{
	if (site < t->nsites && t->by_site[site].name)
		return t->by_site[site].name;
	snprintf(buf, n, "site#%llu", (unsigned long long)site);
	return buf;
}

/* The function holding a caller (the wire's offset / 4), or NULL. */
static const struct bt_sym *caller_sym(struct bt_symtab *t, uint64_t caller)
{
	/* The return address is after the BL: step back into the call. */
	uint64_t off = caller * 4 - 4;
	size_t lo = 0, hi;

	if (t->addr_dirty)
		rebuild_addr(t);
	hi = t->naddr;
	while (caller && lo < hi) {	/* first symbol starting after off */
		size_t mid = lo + (hi - lo) / 2;

		if (t->by_addr[mid].start <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (caller && lo > 0) {
		const struct bt_sym *s = &t->by_addr[lo - 1];

		if (off - s->start < (s->size ? s->size : 4))
			return s;
	}
	return NULL;
}

const char *bt_caller_name(struct bt_symtab *t, uint64_t caller, char *buf, size_t n)
{
	const struct bt_sym *s = caller_sym(t, caller);

	if (s)
		return s->name;
	snprintf(buf, n, "0x%llx", (unsigned long long)(caller * 4));
	return buf;
}

const char *bt_site_raw(struct bt_symtab *t, uint64_t site)
{
	return site < t->nsites ? t->by_site[site].raw : NULL;
}

const char *bt_caller_raw(struct bt_symtab *t, uint64_t caller)
{
	const struct bt_sym *s = caller_sym(t, caller);

	return s ? s->raw : NULL;
}
