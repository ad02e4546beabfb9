/*
 * kernel/lib/visibility.h: included first in every target file (-include).
 * The image is one static PIE: every symbol is defined in it, so every
 * declaration may be treated as local and reached PC-relative (ADRP),
 * never through the GOT.
 */
#pragma GCC visibility push(hidden)
