/* tools/mktables_syms.h: an image's function symbols and patch-site
 * entries, read from its ELF (mktables_syms.c), for tools/mktables.c. */
#ifndef TOOLS_MKTABLES_SYMS_H
#define TOOLS_MKTABLES_SYMS_H

#include <stddef.h>

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

/* "mktables: " and the message (fmt with arg) on stderr, exit status 1. */
void mk_die(const char *fmt, const char *arg) __attribute__((noreturn));
/* Every sized function symbol in an executable section of the ELF at
 * path, sorted by address, one name per address (a global wins), with
 * _text, __patchable_function_entries and .text's bytes. Dies on an ELF
 * it cannot read. */
void syms_load(const char *path, struct symtab *t);

#endif /* TOOLS_MKTABLES_SYMS_H */
