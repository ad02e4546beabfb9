/*
 * kernel/tables.h: layout of the tables tools/mktables generates into
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

#ifndef BT_TABLES_HOST
extern const struct bt_sym bt_syms[];
extern const uint32_t bt_sym_count;
extern const char bt_sym_names[];
#endif

#endif /* KERNEL_TABLES_H */
