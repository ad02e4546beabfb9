/*
 * kernel/report/symbols.h: function names for addresses, from the table that
 * tools/mktables writes between the two links (kernel/report/tables.h format).
 * Lookup is a binary search; nothing is sorted at boot.
 */
#ifndef KERNEL_SYMBOLS_H
#define KERNEL_SYMBOLS_H

#include <stdint.h>

/* Name of the function containing addr, with the offset into it and its
 * size; NULL if addr is in no known function. */
const char *sym_lookup(uintptr_t addr, uintptr_t *offset, uintptr_t *size);
/* Address of a function by exact name, 0 if unknown. */
uintptr_t sym_address(const char *name);
/* Address and size of a data object (a global or a static: the first of
 * that name) by exact name; 0 if unknown. */
uintptr_t sym_object(const char *name, uintptr_t *size);
unsigned int sym_count(void);

#endif /* KERNEL_SYMBOLS_H */
