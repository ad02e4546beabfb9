/*
 * tools/mktables.c: the link-time tables of a baretrace image.
 *
 *   mktables -o tables.S [--empty] [--map IMAGE.elf.map] IMAGE.elf
 *       Writes an assembly file for section .bt_tables holding the symbol
 *       table (every sized function in executable sections, sorted by
 *       address, one name per address) in the kernel/report/tables.h format.
 *       --empty writes the same symbols with no entries (the first link).
 *       Also writes the callsite table: every entry of
 *       __patchable_function_entries whose function (entry + 8) is a named
 *       function, sorted; entries of discarded or weak-overridden
 *       functions name no function and are dropped. Fails, naming the
 *       function, if a site is not 8-byte aligned or is not four NOPs.
 *       With --map, also the folder of each site's source (boot, kernel,
 *       drivers, app, ...; tools/mktables_map.c) for coverage's summary.
 *       Also the data objects' table (mktables_objs.c).
 *   mktables --same-text FIRST.elf SECOND.elf
 *       Fails unless every function has the same address and size in
 *       both links: adding the tables must not move any text.
 *   mktables --same-data SECOND.elf THIRD.elf
 *       The same for every data object (mktables_objs.c says why).
 *   mktables --notrace OBJ...
 *       Fails, naming the function, if any of these objects (the trace
 *       core, exception entry, console path, early boot) has a patch site.
 *
 * Reads the ELF with libelf. Exit status 0 on success, 1 with a message
 * on stderr otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BT_TABLES_HOST
#include "../kernel/report/tables.h"
#include "mktables_map.h"
#include "mktables_objs.h"

struct sym {
	unsigned long addr;
	unsigned long size;
	const char *name;
	int global;
};

struct symtab {
	struct sym *v;
	size_t n;
	unsigned long text_base;	/* address of _text */
	unsigned long *entries;		/* __patchable_function_entries */
	size_t nentries;
	unsigned char *text;		/* contents of .text, for NOP checks */
	unsigned long text_addr, text_size;
};

#define INSN_NOP	0xd503201fU

static void die(const char *fmt, const char *arg)
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
static void load(const char *path, struct symtab *t)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	int have_text = 0;

	if (fd < 0)
		die("cannot open %s", path);
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF)
		die("%s is not an ELF file", path);
	t->v = NULL;
	t->n = 0;
	size_t shstrndx;

	if (elf_getshdrstrndx(e, &shstrndx))
		die("%s has no section names", path);
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
			die("out of memory reading %s", path);
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
		die("%s has no symbol table", path);
	if (!have_text)
		die("%s has no _text symbol", path);
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

static unsigned int insn_at(const struct symtab *t, unsigned long addr)
{
	unsigned long off = addr - t->text_addr;
	const unsigned char *p = t->text + off;

	if (!t->text || addr < t->text_addr || off + 4 > t->text_size)
		return 0;
	return p[0] | p[1] << 8 | p[2] << 16 | (unsigned int)p[3] << 24;
}

static int cmp_ulong(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* Symbol index of the function starting at addr, or -1. */
static long sym_at(const struct symtab *t, unsigned long addr)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < t->n && t->v[lo].addr == addr ? (long)lo : -1;
}

/* Checks every patch site and returns the sorted symbol indexes of the
 * sites to keep (count in *n). */
static long *collect_sites(const struct symtab *t, size_t *n)
{
	long *sites = malloc((t->nentries + 1) * sizeof(*sites));
	size_t k = 0, dropped = 0;

	qsort(t->entries, t->nentries, sizeof(*t->entries), cmp_ulong);
	for (size_t i = 0; i < t->nentries; i++) {
		unsigned long e = t->entries[i];
		long s = e ? sym_at(t, e + 8) : -1;

		if (s < 0 || (i && e == t->entries[i - 1])) {
			dropped++;
			continue;
		}
		if (e % 8)
			die("function %s: patch site not 8-byte aligned (GCC left it "
			    "unaligned; build with -falign-functions=8)", t->v[s].name);
		for (int w = 0; w < 4; w++)
			if (insn_at(t, e + 4 * w) != INSN_NOP)
				die("function %s: patch site is not four NOPs", t->v[s].name);
		sites[k++] = s;
	}
	*n = k;
	if (dropped && getenv("MKTABLES_VERBOSE"))
		fprintf(stderr, "mktables: dropped %zu entries of discarded functions\n", dropped);
	return sites;
}

/* bt_site_folder: a byte per site, its folder's index in
 * bt_folder_names (NUL-separated, bt_folder_count of them). No map:
 * no folders, and the bytes are absent. */
static void emit_folders(FILE *f, const struct symtab *t, const long *sites, size_t nsites,
			 const char *map)
{
	unsigned long *addrs = calloc(nsites + 1, sizeof(*addrs));
	unsigned char *folder = calloc(nsites + 1, 1);
	const char *names[MAP_FOLDERS_MAX];
	size_t nnames = 0;

	for (size_t i = 0; i < nsites; i++)
		addrs[i] = t->v[sites[i]].addr;
	if (map)
		nnames = map_folders(map, addrs, nsites, folder, names);
	fprintf(f, "\t.globl bt_site_folder\nbt_site_folder:\n");
	for (size_t i = 0; map && i < nsites; i++)
		fprintf(f, "\t.byte %u\n", folder[i]);
	fprintf(f, "\t.globl bt_folder_names\nbt_folder_names:\n");
	for (size_t k = 0; k < nnames; k++)
		fprintf(f, "\t.asciz \"%s\"\n", names[k]);
	fprintf(f, "\t.balign 4\n\t.globl bt_folder_count\nbt_folder_count:\n\t.long %zu\n",
		nnames);
	free(addrs);
	free(folder);
}

static void emit(FILE *f, const struct symtab *t, const char *map, const char *elf)
{
	unsigned long name = 0;
	size_t nsites = 0;
	long *sites = collect_sites(t, &nsites);

	fprintf(f, "/* Generated by tools/mktables: do not edit. */\n"
		   "\t.section .bt_tables, \"a\"\n\t.balign 4\n"
		   "\t.globl bt_tables_start\nbt_tables_start:\n"
		   "\t.globl bt_syms\nbt_syms:\n");
	for (size_t i = 0; i < t->n; i++) {
		fprintf(f, "\t.long 0x%lx, 0x%lx, %lu\t// %s\n",
			t->v[i].addr - t->text_base, t->v[i].size, name, t->v[i].name);
		name += strlen(t->v[i].name) + 1;
	}
	fprintf(f, "\t.globl bt_sym_count\nbt_sym_count:\n\t.long %zu\n", t->n);
	fprintf(f, "\t.globl bt_sym_names\nbt_sym_names:\n");
	for (size_t i = 0; i < t->n; i++)
		fprintf(f, "\t.asciz \"%s\"\n", t->v[i].name);
	fprintf(f, "\t.byte 0\n\t.balign 4\n\t.globl bt_sites\nbt_sites:\n");
	for (size_t i = 0; i < nsites; i++)
		fprintf(f, "\t.long %ld\t// %s\n", sites[i], t->v[sites[i]].name);
	fprintf(f, "\t.globl bt_site_count\nbt_site_count:\n\t.long %zu\n", nsites);
	emit_folders(f, t, sites, nsites, map);
	fprintf(f, "\t.globl bt_tables_end\nbt_tables_end:\n");
	objs_emit(f, elf, t->text_base);
	fprintf(f, "\t.section .bss.bt_site_state, \"aw\", %%nobits\n\t.balign 16\n"
		   "\t.globl bt_site_state\nbt_site_state:\n\t.space %zu\n",
		nsites * BT_SITE_STATE_SIZE + 16);
	free(sites);
}

/* --notrace: an object built without patch sites has no entries. */
static int check_notrace(int n, char **objs)
{
	int bad = 0;

	elf_version(EV_CURRENT);
	for (int i = 0; i < n; i++) {
		int fd = open(objs[i], O_RDONLY);
		Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
		Elf_Scn *scn = NULL;
		size_t shstrndx;

		if (!e || elf_getshdrstrndx(e, &shstrndx))
			die("cannot read object %s", objs[i]);
		while ((scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;
			const char *sname;

			if (!gelf_getshdr(scn, &sh) ||
			    !(sname = elf_strptr(e, shstrndx, sh.sh_name)))
				continue;
			if (!strcmp(sname, "__patchable_function_entries") && sh.sh_size) {
				/* Name the functions: the link-order section it
				 * belongs to is .text.<function>. */
				Elf_Scn *lnk = elf_getscn(e, sh.sh_link);
				GElf_Shdr lsh;
				const char *fn = lnk && gelf_getshdr(lnk, &lsh) ?
					elf_strptr(e, shstrndx, lsh.sh_name) : "?";

				fprintf(stderr, "mktables: %s must have no patch sites (it is on "
					"the trace path), but has one in %s\n", objs[i], fn);
				bad = 1;
			}
		}
		elf_end(e);
		close(fd);
	}
	return bad;
}

static int same_text(const char *a, const char *b)
{
	struct symtab x, y;

	load(a, &x);
	load(b, &y);
	if (x.n != y.n) {
		fprintf(stderr, "mktables: %s has %zu functions, %s has %zu\n", a, x.n, b, y.n);
		return 1;
	}
	for (size_t i = 0; i < x.n; i++) {
		if (x.v[i].addr != y.v[i].addr || x.v[i].size != y.v[i].size ||
		    strcmp(x.v[i].name, y.v[i].name)) {
			fprintf(stderr, "mktables: text moved between links: %s at 0x%lx in %s, "
				"%s at 0x%lx in %s\n", x.v[i].name, x.v[i].addr, a,
				y.v[i].name, y.v[i].addr, b);
			return 1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *out = NULL, *elf = NULL, *map = NULL;
	int empty = 0;

	if (argc == 4 && !strcmp(argv[1], "--same-text"))
		return same_text(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "--same-data"))
		return objs_same(argv[2], argv[3]);
	if (argc >= 2 && !strcmp(argv[1], "--notrace"))
		return check_notrace(argc - 2, argv + 2);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-o") && i + 1 < argc)
			out = argv[++i];
		else if (!strcmp(argv[i], "--empty"))
			empty = 1;
		else if (!strcmp(argv[i], "--map") && i + 1 < argc)
			map = argv[++i];
		else if (argv[i][0] != '-' && !elf)
			elf = argv[i];
		else
			die("unknown argument '%s'\n"
			    "usage: mktables -o OUT.S [--empty] IMAGE.elf | --same-text A.elf B.elf",
			    argv[i]);
	}
	if (!out || (!elf && !empty))
		die("%s", "usage: mktables -o OUT.S [--empty] IMAGE.elf | --same-text A.elf B.elf");
	struct symtab t = { 0 };

	if (!empty)
		load(elf, &t);
	FILE *f = fopen(out, "w");

	if (!f)
		die("cannot write %s", out);
	emit(f, &t, empty ? NULL : map, empty ? NULL : elf);
	if (fclose(f))
		die("error writing %s", out);
	return 0;
}
