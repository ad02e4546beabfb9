/*
 * tools/baretrace/model/demangle.c: C++ names as their source spells them.
 *
 * An Itanium-ABI name ("_ZNK6Sensor4readEv", what g++ and clang emit on
 * arm64) becomes "Sensor::read() const". The demangler is the one in the
 * host's libstdc++ (abi::__cxa_demangle, cxxabi.h; the Makefile links it
 * from libstdc++.a): it comes with the host's g++, knows every construct
 * the cross g++ of the same Debian release emits, and needs no other
 * library (libiberty's cplus_demangle is the same code in another package).
 *
 * Called once per symbol, when a table is read (symtab.c): the events
 * carry sites, never names, so nothing here runs per event.
 */
#include <stdlib.h>
#include <string.h>

#include "../decode/symtab.h"

/* abi::__cxa_demangle, declared by cxxabi.h as extern "C". */
char *__cxa_demangle(const char *mangled, char *out, size_t *len, int *status);

char *bt_demangle(const char *raw)
{
	int status = -1;
	char *s;

	if (strncmp(raw, "_Z", 2))
		return NULL;	/* C, assembly: names as they are */
	s = __cxa_demangle(raw, NULL, NULL, &status);
	if (status || !s || !*s) {	/* not a valid mangling: keep it raw */
		free(s);
		return NULL;
	}
	return s;
}
