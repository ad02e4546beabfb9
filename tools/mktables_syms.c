/*
 * tools/mktables_syms.c: reads an image's ELF for tools/mktables.c: its
 * function symbols (in executable sections, sized), the patch-site
 * entries GCC's -fpatchable-function-entry left, and .text's bytes.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mktables_syms.h"

void mk_die(const char *fmt, const char *arg)
{
	fprintf(stderr, "mktables: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static int cmp_sym(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->global != y->global)	/* globals first: they win ties */
		return y->global - x->global;
	return strcmp(x->name, y->name);
}

/* Loads every sized function symbol in an executable section. */
void syms_load(const char *path, struct symtab *t)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	int have_text = 0;

	if (fd < 0)
		mk_die("cannot open %s", path);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF)
		mk_die("%s is not an ELF file", path);
	t->v = NULL;
	t->n = 0;
	size_t shstrndx;

	if (elf_getshdrstrndx(e, &shstrndx))
		mk_die("%s has no section names", path);
	t->entries = NULL;
	t->nentries = 0;
	t->text = NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			continue;
		const char *sname = elf_strptr(e, shstrndx, sh.sh_name);

		if (sname && !strcmp(sname, "__patchable_function_entries") &&
		    sh.sh_type == SHT_PROGBITS) {
			Elf_Data *d = elf_getdata(scn, NULL);

			t->nentries = d ? d->d_size / 8 : 0;
			t->entries = malloc(t->nentries * sizeof(*t->entries) + 1);
			if (t->nentries)
				memcpy(t->entries, d->d_buf, t->nentries * 8);
		}
		if (sname && !strcmp(sname, ".text") && sh.sh_type == SHT_PROGBITS) {
			Elf_Data *d = elf_getdata(scn, NULL);

			t->text_addr = sh.sh_addr;
			t->text_size = d ? d->d_size : 0;
			t->text = malloc(t->text_size + 1);
			if (t->text_size)
				memcpy(t->text, d->d_buf, t->text_size);
		}
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		size_t count = sh.sh_size / sh.sh_entsize;

		t->v = calloc(count, sizeof(*t->v));
		if (!t->v)
			mk_die("out of memory reading %s", path);
		for (size_t i = 0; i < count; i++) {
			GElf_Sym s;
			GElf_Shdr ssh;

			if (!gelf_getsym(d, (int)i, &s))
				continue;
			const char *name = elf_strptr(e, sh.sh_link, s.st_name);

			if (name && !strcmp(name, "_text")) {
				t->text_base = s.st_value;
				have_text = 1;
			}
			/* The linker's Cortex-A53 erratum stubs (e843419@...,
			 * e835769@..., FUNC symbols of GNU ld's
			 * --fix-cortex-a53-843419, on by default with Debian's
			 * GCC) are no functions of ours, and come and go with the
			 * layout: an mbed TLS image's second link had one more
			 * than its first. No C name holds an '@'. */
			if (GELF_ST_TYPE(s.st_info) != STT_FUNC || !s.st_size ||
			    s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE ||
			    (name && strchr(name, '@')))
				continue;
			Elf_Scn *in = elf_getscn(e, s.st_shndx);

			if (!in || !gelf_getshdr(in, &ssh) || !(ssh.sh_flags & SHF_EXECINSTR))
				continue;
			t->v[t->n++] = (struct sym){ s.st_value, s.st_size, strdup(name),
				GELF_ST_BIND(s.st_info) != STB_LOCAL };
		}
	}
	if (!t->v)
		mk_die("%s has no symbol table", path);
	if (!have_text)
		mk_die("%s has no _text symbol", path);
	qsort(t->v, t->n, sizeof(*t->v), cmp_sym);
	/* One name per address: the first after sorting (a global). */
	size_t k = 0;

	for (size_t i = 0; i < t->n; i++)
		if (!k || t->v[i].addr != t->v[k - 1].addr)
			t->v[k++] = t->v[i];
	t->n = k;
	elf_end(e);
	close(fd);
}
