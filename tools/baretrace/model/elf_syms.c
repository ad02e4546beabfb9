/*
 * tools/baretrace/model/elf_syms.c: names from the image itself. Reads the
 * .bt_tables section that tools/mktables generated (kernel/report/tables.h):
 * bt_syms (start, size, name offset; sorted), bt_sym_names, and bt_sites
 * (site i is function bt_syms[bt_sites[i]]). Every offset and count is
 * checked against the section, so a damaged ELF cannot make us read
 * outside it. The image hash is the CRC-32 of the whole section, the
 * value the target puts in its metadata.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/util.h"
#include "../decode/decode.h"
#include "../decode/symtab.h"

#include "model.h"

struct tables {
	const uint8_t *data;	/* section contents */
	uint64_t addr, size;	/* section address and size */
	uint64_t off[5];	/* of each table_syms[] entry in it */
	int found;		/* bit per symbol */
};

enum { SYMS, SYM_COUNT, NAMES, SITES, SITE_COUNT };

static const char *const table_syms[] = {
	"bt_syms", "bt_sym_count", "bt_sym_names", "bt_sites", "bt_site_count",
};

static uint32_t u32_at(const struct tables *t, uint64_t off)
{
	const uint8_t *p = t->data + off;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

int bt_elf_symbols(void *elf, int (*fn)(const char *name, uint64_t value, void *arg), void *arg)
{
	Elf *e = elf;
	Elf_Scn *scn = NULL;
	int r;

	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name;

			if (gelf_getsym(d, (int)i, &s) &&
			    (name = elf_strptr(e, sh.sh_link, s.st_name)) &&
			    (r = fn(name, s.st_value, arg)))
				return r;
		}
	}
	return 0;
}

struct table_search {
	struct tables *t;
	const char *path;
};

static int table_symbol(const char *name, uint64_t value, void *arg)
{
	struct table_search *ts = arg;
	struct tables *t = ts->t;

	for (int k = 0; k < 5; k++) {
		if (strcmp(name, table_syms[k]))
			continue;
		if (value < t->addr || value - t->addr > t->size)
			bt_die(BT_EXIT_INPUT, "%s: %s lies outside .bt_tables", ts->path, name);
		t->off[k] = value - t->addr;
		t->found |= 1 << k;
	}
	return 0;
}

/* Finds the table symbols' offsets inside the section. */
static void find_symbols(Elf *e, struct tables *t, const char *path)
{
	struct table_search ts = { t, path };

	bt_elf_symbols(e, table_symbol, &ts);
	for (int k = 0; k < 5; k++)
		if (!(t->found & 1 << k))
			bt_die(BT_EXIT_INPUT, "%s: no symbol %s for .bt_tables (stripped ELF?)",
			       path, table_syms[k]);
}

static void fill(struct bt_symtab *st, const struct tables *t, const char *path)
{
	uint64_t nsyms, nsites, names_end;
	const uint64_t *off = t->off;

	if (off[SYM_COUNT] + 4 > t->size || off[SITE_COUNT] + 4 > t->size)
		bt_die(BT_EXIT_INPUT, "%s: .bt_tables is too short", path);
	nsyms = u32_at(t, off[SYM_COUNT]);
	nsites = u32_at(t, off[SITE_COUNT]);
	names_end = off[SITES] > off[NAMES] ? off[SITES] : t->size;
	if (off[SYMS] + nsyms * 12 > t->size || off[SITES] + nsites * 4 > t->size ||
	    off[NAMES] > names_end)
		bt_die(BT_EXIT_INPUT, "%s: .bt_tables counts run past the section", path);
	st->from_elf = 1;
	st->by_addr = bt_alloc(sizeof(*st->by_addr) * (nsyms + 1));
	st->naddr = st->addr_cap = nsyms;
	for (uint64_t i = 0; i < nsyms; i++) {
		uint64_t at = off[SYMS] + i * 12, name = off[NAMES] + u32_at(t, at + 8);
		const uint8_t *nul;

		if (name >= names_end ||
		    !(nul = memchr(t->data + name, 0, (size_t)(names_end - name))))
			bt_die(BT_EXIT_INPUT, "%s: .bt_tables symbol %llu has a bad name",
			       path, (unsigned long long)i);
		st->by_addr[i] = (struct bt_sym){ u32_at(t, at), u32_at(t, at + 4), NULL, NULL };
		bt_sym_set_name(&st->by_addr[i], t->data + name, (size_t)(nul - (t->data + name)));
		if (i && st->by_addr[i].start < st->by_addr[i - 1].start)
			bt_die(BT_EXIT_INPUT, "%s: .bt_tables symbols are not sorted", path);
	}
	st->by_site = bt_alloc(sizeof(*st->by_site) * (nsites + 1));
	st->nsites = st->sites_cap = nsites;
	for (uint64_t i = 0; i < nsites; i++) {
		uint32_t k = u32_at(t, off[SITES] + i * 4);

		if (k >= nsyms)
			bt_die(BT_EXIT_INPUT, "%s: .bt_tables site %llu names no symbol",
			       path, (unsigned long long)i);
		st->by_site[i] = st->by_addr[k];
	}
}

void bt_symtab_load_elf(struct bt_symtab *st, const char *path, uint32_t *hash)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	size_t shstrndx;
	struct tables t = { 0 };

	if (fd < 0)
		bt_die(BT_EXIT_INPUT, "cannot open ELF %s: %s", path, strerror(errno));
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || !gelf_getehdr(e, &eh))
		bt_die(BT_EXIT_INPUT, "%s is not an ELF file", path);
	if (eh.e_machine != EM_AARCH64 || gelf_getclass(e) != ELFCLASS64 ||
	    eh.e_ident[EI_DATA] != ELFDATA2LSB)
		bt_die(BT_EXIT_INPUT, "%s is not a little-endian aarch64 ELF (machine %u); "
		       "pass the baretrace.elf the target runs", path, eh.e_machine);
	if (elf_getshdrstrndx(e, &shstrndx))
		bt_die(BT_EXIT_INPUT, "%s has no section names", path);
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		const char *name;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(e, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".bt_tables"))
			continue;
		if (sh.sh_type != SHT_PROGBITS || !(d = elf_getdata(scn, NULL)) || !d->d_buf)
			bt_die(BT_EXIT_INPUT, "%s: .bt_tables has no contents", path);
		t.data = d->d_buf;
		t.addr = sh.sh_addr;
		t.size = d->d_size;
		break;
	}
	if (!t.data)
		bt_die(BT_EXIT_INPUT, "%s has no .bt_tables section: not a baretrace image "
		       "(use build/<board>/baretrace.elf)", path);
	find_symbols(e, &t, path);
	fill(st, &t, path);
	*hash = wire_crc32(0, t.data, (size_t)t.size);
	elf_end(e);
	close(fd);
}

/*
 * The string at symbol 'sym' (bt_app_name, bt_board_name: the Makefile's
 * app_name.S), or NULL if it has none. Only read to name the app or the
 * board in a message, so anything odd about it just gives NULL.
 */
static char *elf_string(const char *path, const char *sym)
{
	int fd = open(path, O_RDONLY);
	Elf *e = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	char *app = NULL;

	while (e && !app && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; !app && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			GElf_Shdr at;
			Elf_Data *ad;
			const char *name;
			const uint8_t *p, *nul;

			if (!gelf_getsym(d, (int)i, &s) ||
			    !(name = elf_strptr(e, sh.sh_link, s.st_name)) ||
			    strcmp(name, sym))
				continue;
			Elf_Scn *home = elf_getscn(e, s.st_shndx);

			if (!home || !gelf_getshdr(home, &at) || !(ad = elf_getdata(home, NULL)) ||
			    !ad->d_buf || s.st_value < at.sh_addr ||
			    s.st_value - at.sh_addr >= ad->d_size)
				break;
			p = (const uint8_t *)ad->d_buf + (s.st_value - at.sh_addr);
			nul = memchr(p, 0, ad->d_size - (s.st_value - at.sh_addr));
			if (nul && nul > p)
				app = bt_strndup(p, (size_t)(nul - p));
			break;
		}
	}
	if (e)
		elf_end(e);
	if (fd >= 0)
		close(fd);
	return app;
}

/* Here rather than in decode.c, so the decoder links without libelf. */
void bt_dec_use_elf(struct bt_decoder *d, const char *path)
{
	bt_symtab_load_elf(&d->syms, path, &d->elf_hash);
	d->elf_path = path;
	d->elf_app = elf_string(path, "bt_app_name");
	d->elf_board = elf_string(path, "bt_board_name");
}
