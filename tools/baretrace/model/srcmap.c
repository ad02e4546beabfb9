/*
 * tools/baretrace/model/srcmap.c: the source file and line of a function,
 * from the ELF's DWARF line table, read with elfutils' libdw.
 *
 * libdw rather than a line-table reader of our own: DWARF 5 line tables
 * (what GCC 12 writes) take a header with entry formats, two string
 * sections and the directory table to get right, and libdw is packaged
 * (libdw-dev) next to the libelf this tool already links. The line is
 * its subprogram's declaration line (the line of its name) where DWARF
 * has one, else the line table's row for its first instruction (the
 * assembly functions').
 *
 * Addresses: the site tables give a function's offset from _text; the
 * DWARF has link addresses, so _text's link address is added. GCC 12
 * writes no .debug_aranges (which libdw's dwarf_addrdie needs), so the
 * units' own address ranges are read once into a sorted table.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/util.h"

#include "model.h"

static int is_text(const char *name, uint64_t value, void *arg)
{
	if (strcmp(name, "_text"))
		return 0;
	*(uint64_t *)arg = value;
	return 1;
}

/* _text's value from the symbol table; 0 if found, else -1. */
static int find_text(Elf *e, uint64_t *text)
{
	return bt_elf_symbols(e, is_text, text) ? 0 : -1;
}

struct unit_range {
	uint64_t lo, hi;		/* [lo, hi) */
	Dwarf_Off die;			/* the unit's DIE */
};

static int by_lo(const void *a, const void *b)
{
	const struct unit_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Every unit's ranges, sorted by start. */
static void read_ranges(struct bt_srcmap *m)
{
	Dwarf_Off off = 0, next;
	size_t hsize, cap = 0;
	Dwarf_Die cu;

	while (dwarf_nextcu(m->dwarf, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t it = 0;

		if (dwarf_offdie(m->dwarf, off + hsize, &cu))
			while ((it = dwarf_ranges(&cu, it, &base, &lo, &hi)) > 0) {
				struct unit_range *r;

				if (hi <= lo)
					continue;
				m->ranges = bt_grow(m->ranges, &cap, m->nranges + 1, sizeof(*r));
				r = (struct unit_range *)m->ranges + m->nranges++;
				*r = (struct unit_range){ lo, hi, off + hsize };
			}
		off = next;
	}
	qsort(m->ranges, m->nranges, sizeof(struct unit_range), by_lo);
}

/* The unit whose ranges hold addr: 0, or -1 if none does. */
static int unit_of(struct bt_srcmap *m, uint64_t addr, Dwarf_Die *cu)
{
	const struct unit_range *r = m->ranges;
	size_t lo = 0, hi = m->nranges;

	while (lo < hi) {		/* the last range starting at or before addr */
		size_t mid = lo + (hi - lo) / 2;

		if (r[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr >= r[lo - 1].hi)
		return -1;
	return dwarf_offdie(m->dwarf, r[lo - 1].die, cu) ? 0 : -1;
}

int bt_srcmap_try_open(struct bt_srcmap *m, const char *path)
{
	Dwarf *dw;
	Dwarf_Die cu;
	Dwarf_Off off = 0, next;
	size_t hsize;
	Dwarf_Attribute at;
	const char *dir;

	memset(m, 0, sizeof(*m));
	m->fd = open(path, O_RDONLY);
	if (m->fd < 0)
		return -1;
	dw = dwarf_begin(m->fd, DWARF_C_READ);
	if (!dw) {
		close(m->fd);
		m->fd = -1;
		return -2;
	}
	m->dwarf = dw;
	if (find_text(dwarf_getelf(dw), &m->text)) {
		bt_srcmap_close(m);
		return -3;
	}
	if (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0 &&
	    dwarf_offdie(dw, off + hsize, &cu) &&
	    dwarf_attr(&cu, DW_AT_comp_dir, &at) && (dir = dwarf_formstring(&at)))
		m->comp_dir = bt_strndup(dir, strlen(dir));
	read_ranges(m);
	return 0;
}

void bt_srcmap_open(struct bt_srcmap *m, const char *path)
{
	switch (bt_srcmap_try_open(m, path)) {
	case -1:
		bt_die(BT_EXIT_INPUT, "cannot open %s: %s", path, strerror(errno));
	case -2:
		bt_die(BT_EXIT_INPUT, "%s has no DWARF debug information (%s): coverage needs "
		       "the image built with -g, as the Makefile builds it", path,
		       dwarf_errmsg(-1));
	case -3:
		bt_die(BT_EXIT_INPUT, "%s has no _text symbol: not a baretrace image", path);
	}
}

/*
 * GCC's line table starts a function after its patchable entry's NOPs
 * (-fpatchable-function-entry=4,2: two NOPs at the symbol): the first
 * row is found a few instructions on.
 */
#define ENTRY_SEARCH	32

struct decl {
	Dwarf_Addr addr;		/* the function's symbol */
	Dwarf_Addr best, end;		/* the nearest entry found at or after
					 * it, and the end of that function */
	const char *file;		/* found: its declaration */
	int line;
	Dwarf_Die die;			/* and its subprogram */
};

/*
 * dwarf_getfuncs' callback: the subprogram whose entry is nearest at or
 * after the symbol, within the patchable entry's NOPs (its low_pc lies
 * past the NOPs inside the function; the next function's lies further).
 * A concrete copy of an inline function takes its file and line from
 * the abstract one (dwarf_decl_* follow DW_AT_abstract_origin).
 */
static int decl_of(Dwarf_Die *fn, void *arg)
{
	struct decl *want = arg;
	Dwarf_Addr entry;
	const char *f;
	int line;

	if (dwarf_entrypc(fn, &entry) || entry < want->addr || entry > want->addr + ENTRY_SEARCH ||
	    (want->file && entry >= want->best))
		return DWARF_CB_OK;
	if ((f = dwarf_decl_file(fn)) && !dwarf_decl_line(fn, &line)) {
		want->file = f;
		want->line = line;
		want->best = entry;
		want->die = *fn;
		if (dwarf_highpc(fn, &want->end))
			want->end = entry;
	}
	return DWARF_CB_OK;
}

/* The unit's own source (DW_AT_name, relative to its build directory). */
static int in_unit_file(Dwarf_Die *cu, const char *file)
{
	const char *name = dwarf_diename(cu);
	size_t n = name ? strlen(name) : 0, f = strlen(file);

	return n && f >= n && !strcmp(file + f - n, name) && (f == n || file[f - n - 1] == '/');
}

/* The first row of want's function that lies in the unit's own source. */
static void first_unit_line(Dwarf_Die *cu, const struct decl *want, const char **file, int *line)
{
	Dwarf_Lines *lines;
	size_t n;
	Dwarf_Addr best = want->end;

	if (dwarf_getsrclines(cu, &lines, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		const char *f;
		int ln;

		if (!l || dwarf_lineaddr(l, &a) || a < want->best || a >= best ||
		    !(f = dwarf_linesrc(l, NULL, NULL)) || !in_unit_file(cu, f) ||
		    dwarf_lineno(l, &ln) || !ln)
			continue;
		best = a;
		*file = f;
		*line = ln;
	}
}

/*
 * No row of the function's code lies in the unit's own source either:
 * GCC folded two identical bodies (newlib's lock hooks) and left the
 * copy only the header prototype's row. Its parameters are still
 * declared where it is defined, so the first of them in the unit's
 * own source gives the file and line.
 */
static void param_line(Dwarf_Die *cu, Dwarf_Die *fn, const char **file, int *line)
{
	Dwarf_Attribute a;
	Dwarf_Die origin, child, *d = fn;
	const char *f;
	int ln;

	if (dwarf_attr(fn, DW_AT_abstract_origin, &a) && dwarf_formref_die(&a, &origin))
		d = &origin;
	if (dwarf_child(d, &child))
		return;
	do {
		if (dwarf_tag(&child) == DW_TAG_formal_parameter &&
		    (f = dwarf_decl_file(&child)) && in_unit_file(cu, f) &&
		    !dwarf_decl_line(&child, &ln)) {
			*file = f;
			*line = ln;
			return;
		}
	} while (!dwarf_siblingof(&child, &child));
}

/* dwarf_getfuncs' callback: the subprogram declared at want's row,
 * which has no code of its own left here (the folded copy's). */
static int declared_at(Dwarf_Die *fn, void *arg)
{
	struct decl *want = arg;
	const char *f = dwarf_decl_file(fn);
	int line;

	if (!f || strcmp(f, want->file) || dwarf_decl_line(fn, &line) || line != want->line)
		return DWARF_CB_OK;
	want->die = *fn;
	want->best = 1;
	return DWARF_CB_ABORT;
}

int bt_srcmap_find(struct bt_srcmap *m, uint64_t off, const char **file, int *line)
{
	Dwarf_Die cu;
	Dwarf_Line *l = NULL;
	Dwarf_Addr addr = m->text + off;
	struct decl want;

	for (unsigned k = 0; k <= ENTRY_SEARCH && !l; k += 4)
		if (!unit_of(m, addr + k, &cu))
			l = dwarf_getsrc_die(&cu, addr + k);
	if (!l || !(*file = dwarf_linesrc(l, NULL, NULL)) || dwarf_lineno(l, line))
		return -1;
	/*
	 * The function's own declaration line (its name), where its DIE
	 * has one: the line table's first row is its '{' or a statement,
	 * or a line of a function inlined there. But an inline function
	 * declared first in a header (newlib's lock hooks) is declared at
	 * its prototype there: when the declaration is not in the unit's
	 * own source and the function's code has lines in it, the first
	 * of those is taken.
	 */
	want.addr = addr;
	want.file = NULL;
	dwarf_getfuncs(&cu, decl_of, &want, 0);
	if (!want.file) {
		if (in_unit_file(&cu, *file))
			return 0;
		want.file = *file;
		want.line = *line;
		want.best = 0;
		dwarf_getfuncs(&cu, declared_at, &want, 0);
		if (want.best)
			param_line(&cu, &want.die, file, line);
		return 0;
	}
	*file = want.file;
	*line = want.line;
	if (!in_unit_file(&cu, want.file))
		first_unit_line(&cu, &want, file, line);
	if (!in_unit_file(&cu, *file))
		param_line(&cu, &want.die, file, line);
	return 0;
}

int bt_srcmap_subprogram(struct bt_srcmap *m, uint64_t off, void *die)
{
	Dwarf_Die cu;
	struct decl want = { .addr = m->text + off };

	for (unsigned k = 0; k <= ENTRY_SEARCH; k += 4)
		if (!unit_of(m, want.addr + k, &cu)) {
			dwarf_getfuncs(&cu, decl_of, &want, 0);
			break;
		}
	if (!want.file)
		return -1;
	*(Dwarf_Die *)die = want.die;
	return 0;
}

void bt_srcmap_close(struct bt_srcmap *m)
{
	if (m->dwarf)
		dwarf_end(m->dwarf);
	if (m->fd > 0)
		close(m->fd);
	free(m->comp_dir);
	free(m->ranges);
	memset(m, 0, sizeof(*m));
}
