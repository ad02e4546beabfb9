/*
 * kernel/libc/cxx_init.c: the application's static constructors (C++
 * objects with a constructor at namespace scope, C functions marked
 * __attribute__((constructor))), run once on CPU 0 just before main().
 *
 * The linker gathers them in .init_array (linker/baretrace.ld.S): first
 * those with a priority, in priority order, then the rest in link order,
 * which is the order of the app's sources in app-srcs (or the folder's
 * sorted order). Entries are absolute addresses, fixed up by boot/'s
 * self-relocation like any other pointer. Destructors of static objects
 * are never run: main() returning powers the machine off.
 */
#include "cxx_init.h"

typedef void (*init_fn)(void);
extern const init_fn __init_array_start[], __init_array_end[];

void cxx_run_constructors(void)
{
	for (const init_fn *f = __init_array_start; f < __init_array_end; f++)
		(*f)();
}
