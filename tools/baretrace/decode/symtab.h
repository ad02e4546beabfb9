/*
 * tools/baretrace/decode/symtab.h: function names by site and by address
 * (symtab.c), from the stream's symbol dumps (the decoder fills it) or
 * an ELF's .bt_tables (model/elf_syms.c).
 */
#ifndef TOOLS_BARETRACE_DECODE_SYMTAB_H
#define TOOLS_BARETRACE_DECODE_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

/* ---- symtab.c, elf_syms.c ---------------------------------------------- */

struct bt_sym {
	uint64_t start, size;	/* offset from _text, bytes */
	char *name;		/* as shown: demangled for C++ (bt_sym_set_name) */
	char *raw;		/* the table's own name if name differs, else NULL */
};

struct bt_symtab {
	struct bt_sym *by_site;		/* index = site; name NULL: unknown */
	size_t nsites, sites_cap;
	struct bt_sym *by_addr;		/* sorted by start; may hold non-sites */
	size_t naddr, addr_cap;
	int addr_dirty;			/* by_addr must be re-sorted */
	int from_elf;
};

/*
 * The name shown for a symbol table's name (demangle.c's bt_demangle: a
 * C++ name demangled, else NULL to keep it), or NULL for raw names
 * everywhere (--no-demangle; the unit tests, which do not link it).
 * main.c sets it before any table is read.
 */
extern char *(*bt_sym_demangler)(const char *raw);
/* demangle.c: "_ZNK6Sensor4readEv" -> "Sensor::read() const" (malloc'd),
 * or NULL if raw is no Itanium-ABI C++ name. */
char *bt_demangle(const char *raw);
/* Sets s->name (as shown) and s->raw from the table's n bytes at p. */
void bt_sym_set_name(struct bt_sym *s, const void *p, size_t n);

void bt_symtab_init(struct bt_symtab *t);
void bt_symtab_free(struct bt_symtab *t);
/* Adds a symbol-dump body of stream format 'version' (wire.md 2.3); 0,
 * or -1 if malformed. */
int bt_symtab_add_dump(struct bt_symtab *t, const uint8_t *body, size_t len, unsigned version);
/* Name of a site: its function, or "site#N" written into buf. */
const char *bt_site_name(struct bt_symtab *t, uint64_t site, char *buf, size_t n);
/* Name of the function holding a caller (the wire's offset / 4). */
const char *bt_caller_name(struct bt_symtab *t, uint64_t caller, char *buf, size_t n);
/* The table's own (mangled) name of a site, or of the function holding a
 * caller, when it differs from the name shown; else NULL. */
const char *bt_site_raw(struct bt_symtab *t, uint64_t site);
const char *bt_caller_raw(struct bt_symtab *t, uint64_t caller);
/*
 * Loads .bt_tables from an aarch64 ELF and stores the CRC-32 of the
 * section in *hash. Dies with a message naming what is wrong.
 */
void bt_symtab_load_elf(struct bt_symtab *t, const char *path, uint32_t *hash);

#endif /* TOOLS_BARETRACE_DECODE_SYMTAB_H */
