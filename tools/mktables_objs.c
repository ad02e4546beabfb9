/*
 * tools/mktables_objs.c: the data objects' table (mktables_objs.h).
 *
 * The first link has empty tables and the second full ones, and the
 * tables sit before .data and .bss (linker/baretrace.ld.S): every data
 * object past them moves between the two. So the Makefile links a third
 * time, with the tables mktables writes from the second link: its tables
 * have the same size as the second's (the same symbols and names, only
 * the addresses differ), so nothing moves, and --same-data proves it.
 *
 * A section of its own, .bt_objs, after .bt_tables: the image hash (the
 * CRC of .bt_tables that every metadata frame carries, and the host
 * compares with the ELF's) covers the functions' and sites' tables only,
 * and costs the target no more than before.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mktables_objs.h"

struct obj {
	unsigned long addr, size;
	const char *name;
	int global;
};

static void die(const char *what, const char *path)
{
	fprintf(stderr, "mktables: %s %s\n", what, path);
	exit(1);
}

static int cmp_obj(const void *a, const void *b)
{
	const struct obj *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->global != y->global)	/* globals first: they win ties */
		return y->global - x->global;
	return strcmp(x->name, y->name);
}

/* Every sized object symbol in an allocated section that is not code,
 * sorted by address, one per address; *n of them. */
static struct obj *load(const char *path, size_t *n)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	struct obj *v = NULL;
	size_t k = 0;

	*n = 0;
	if (fd < 0)
		die("cannot open", path);
	elf_version(EV_CURRENT);
	if (!(e = elf_begin(fd, ELF_C_READ, NULL)) || elf_kind(e) != ELF_K_ELF)
		die("not an ELF file:", path);
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh, in_sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		size_t count = sh.sh_size / sh.sh_entsize;

		if (!(v = calloc(count + 1, sizeof(*v))))
			die("out of memory reading", path);
		for (size_t i = 0; i < count; i++) {
			GElf_Sym s;
			Elf_Scn *in;
			const char *name;

			if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_OBJECT ||
			    !s.st_size || s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE ||
			    !(in = elf_getscn(e, s.st_shndx)) || !gelf_getshdr(in, &in_sh) ||
			    !(in_sh.sh_flags & SHF_ALLOC) || (in_sh.sh_flags & SHF_EXECINSTR) ||
			    (in_sh.sh_flags & SHF_TLS) ||
			    !(name = elf_strptr(e, sh.sh_link, s.st_name)) || !*name ||
			    strchr(name, '"') || strchr(name, '\\'))
				continue;
			v[(*n)++] = (struct obj){ s.st_value, s.st_size, strdup(name),
						  GELF_ST_BIND(s.st_info) != STB_LOCAL };
		}
	}
	qsort(v, *n, sizeof(*v), cmp_obj);
	for (size_t i = 0; i < *n; i++)
		if (!k || v[i].addr != v[k - 1].addr)
			v[k++] = v[i];
	*n = k;
	elf_end(e);
	close(fd);
	return v;
}

void objs_emit(FILE *f, const char *elf, unsigned long text_base)
{
	size_t n = 0;
	struct obj *v = elf ? load(elf, &n) : NULL;
	unsigned long name = 0;

	fprintf(f, "\t.section .bt_objs, \"a\"\n\t.balign 4\n\t.globl bt_objs\nbt_objs:\n");
	for (size_t i = 0; i < n; i++) {
		if (v[i].addr < text_base || v[i].addr - text_base > 0xffffffffUL ||
		    v[i].size > 0xffffffffUL)
			die("a data object out of a 32-bit offset from _text:", v[i].name);
		fprintf(f, "\t.long 0x%lx, 0x%lx, %lu\t// %s\n", v[i].addr - text_base,
			v[i].size, name, v[i].name);
		name += strlen(v[i].name) + 1;
	}
	fprintf(f, "\t.globl bt_obj_count\nbt_obj_count:\n\t.long %zu\n", n);
	fprintf(f, "\t.globl bt_obj_names\nbt_obj_names:\n");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "\t.asciz \"%s\"\n", v[i].name);
	fprintf(f, "\t.byte 0\n\t.balign 4\n");
	free(v);
}

int objs_same(const char *a, const char *b)
{
	size_t na, nb;
	struct obj *x = load(a, &na), *y = load(b, &nb);

	if (na != nb) {
		fprintf(stderr, "mktables: %s has %zu data objects, %s has %zu\n", a, na, b, nb);
		return 1;
	}
	for (size_t i = 0; i < na; i++)
		if (x[i].addr != y[i].addr || x[i].size != y[i].size || strcmp(x[i].name, y[i].name)) {
			fprintf(stderr, "mktables: data moved between links: %s at 0x%lx in %s, "
				"%s at 0x%lx in %s\n", x[i].name, x[i].addr, a, y[i].name,
				y[i].addr, b);
			return 1;
		}
	return 0;
}
