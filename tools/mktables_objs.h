/* tools/mktables_objs.h: the data objects' table of an image
 * (mktables_objs.c), for fetches of globals by name on the target
 * (trace/core/probe.c, '@SYMBOL' in a probe's fetches). */
#ifndef TOOLS_MKTABLES_OBJS_H
#define TOOLS_MKTABLES_OBJS_H

#include <stdio.h>

/* Writes bt_objs, bt_obj_count and bt_obj_names (kernel/report/tables.h)
 * into f, in section .bt_objs (after .bt_tables): every sized data object of 'elf' (NULL: none,
 * the first link), one per address, sorted by address, its offset from
 * text_base. Dies with a message on an ELF it cannot read. */
void objs_emit(FILE *f, const char *elf, unsigned long text_base);
/* 0 if every data object has the same address and size in both links;
 * 1 with a message naming the first that moved. */
int objs_same(const char *a, const char *b);

#endif /* TOOLS_MKTABLES_OBJS_H */
