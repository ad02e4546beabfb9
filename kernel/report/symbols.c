/* kernel/report/symbols.c: see symbols.h. Built without patch sites: the crash
 * report and, later, the trace core use it. */
#include <stddef.h>
#include <stdint.h>

#include "mmu.h"
#include "symbols.h"
#include "tables.h"

static const struct bt_sym *find(uint32_t off)
{
	size_t lo = 0, hi = bt_sym_count;

	while (lo < hi) {	/* last entry with start <= off */
		size_t mid = lo + (hi - lo) / 2;

		if (bt_syms[mid].start <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct bt_sym *s = &bt_syms[lo - 1];

	return off - s->start < s->size ? s : NULL;
}

const char *sym_lookup(uintptr_t addr, uintptr_t *offset, uintptr_t *size)
{
	uintptr_t base = (uintptr_t)_text;

	if (addr < base || addr - base > UINT32_MAX)
		return NULL;
	const struct bt_sym *s = find((uint32_t)(addr - base));

	if (!s)
		return NULL;
	if (offset)
		*offset = addr - base - s->start;
	if (size)
		*size = s->size;
	return bt_sym_names + s->name;
}

uintptr_t sym_address(const char *name)
{
	for (uint32_t i = 0; i < bt_sym_count; i++) {
		const char *a = bt_sym_names + bt_syms[i].name, *b = name;

		while (*a && *a == *b) {
			a++;
			b++;
		}
		if (*a == *b)
			return (uintptr_t)_text + bt_syms[i].start;
	}
	return 0;
}

uintptr_t sym_object(const char *name, uintptr_t *size)
{
	for (uint32_t i = 0; i < bt_obj_count; i++) {
		const char *a = bt_obj_names + bt_objs[i].name, *b = name;

		while (*a && *a == *b) {
			a++;
			b++;
		}
		if (*a == *b) {
			*size = bt_objs[i].size;
			return (uintptr_t)_text + bt_objs[i].start;
		}
	}
	return 0;
}

unsigned int sym_count(void)
{
	return bt_sym_count;
}
