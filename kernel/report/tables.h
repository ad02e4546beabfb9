/*
 * kernel/report/tables.h: layout of the tables tools/mktables generates into
 * section .bt_tables. Shared by the host tool and the kernel.
 *
 * Addresses are offsets from _text (the image is position independent),
 * sorted ascending with no overlaps, so lookups are binary searches.
 */
#ifndef KERNEL_TABLES_H
#define KERNEL_TABLES_H

#include <stdint.h>

struct bt_sym {
	uint32_t start;		/* offset of the function from _text */
	uint32_t size;		/* bytes */
	uint32_t name;		/* offset of its name in bt_sym_names */
};

/*
 * Callsites: every function compiled with a patchable entry, as an index
 * into bt_syms, sorted by address. A site's index is its identity on the
 * wire (docs/wire.md). Its patch site spans [func - 8, func + 8):
 *
 *   func-8  literal, 8 bytes: the ops for this site
 *   func+0  NOP  -> MOV X9, LR (at boot)
 *   func+4  NOP <-> BL trace_caller
 *
 * bt_site_state is a zeroed array of bt_site_count entries of
 * BT_SITE_STATE_SIZE bytes that the trace core owns (trace/site.h).
 */
#define BT_SITE_STATE_SIZE	32

#ifndef BT_TABLES_HOST
extern const struct bt_sym bt_syms[];
extern const uint32_t bt_sym_count;
extern const char bt_sym_names[];
extern const uint32_t bt_sites[];
extern const uint32_t bt_site_count;
extern char bt_tables_start[], bt_tables_end[];
/* The folder of each site's source (boot, kernel, drivers, app, ...),
 * an index into bt_folder_names, which holds bt_folder_count
 * NUL-terminated names one after the other (tools/mktables_map.c). */
extern const uint8_t bt_site_folder[];
extern const char bt_folder_names[];
extern const uint32_t bt_folder_count;
/* Every sized data object (globals and statics, not thread-local), as
 * bt_syms: offset from _text, size, name in bt_obj_names; sorted by
 * address (tools/mktables_objs.c). */
extern const struct bt_sym bt_objs[];
extern const uint32_t bt_obj_count;
extern const char bt_obj_names[];
#endif

#endif /* KERNEL_TABLES_H */
