/*
 * kernel/libc/cxx_new.c: C++'s operator new and delete for applications,
 * on newlib's malloc (the heap behind _sbrk), and the handler a call to a
 * pure virtual function lands in.
 *
 * Applications are built without exceptions (-fno-exceptions), so a new
 * that cannot allocate has nothing to throw: it stops the run with a
 * panic naming the size, as an unchecked NULL would later do less
 * clearly. The std::nothrow forms return NULL instead. The operators are
 * written in C under their Itanium C++ ABI names (size_t is unsigned
 * long: 'm'); delete's size and alignment arguments are not needed by
 * free().
 */
#include <malloc.h>
#include <stddef.h>
#include <stdlib.h>

#include "exception.h"

#define CXX_NAME(sym) __asm__(sym) __attribute__((used, visibility("default")))

static void *cxx_alloc(size_t size, size_t align, int nothrow)
{
	void *p = align > 16 ? memalign(align, size ? size : 1) : malloc(size ? size : 1);

	if (!p && !nothrow)
		panic("C++ operator new: out of memory for %lu bytes", (unsigned long)size);
	return p;
}

void *cxx_new(size_t n) CXX_NAME("_Znwm");
void *cxx_new_arr(size_t n) CXX_NAME("_Znam");
void *cxx_new_nt(size_t n, const void *nt) CXX_NAME("_ZnwmRKSt9nothrow_t");
void *cxx_new_arr_nt(size_t n, const void *nt) CXX_NAME("_ZnamRKSt9nothrow_t");
void *cxx_new_al(size_t n, size_t al) CXX_NAME("_ZnwmSt11align_val_t");
void *cxx_new_arr_al(size_t n, size_t al) CXX_NAME("_ZnamSt11align_val_t");

void *cxx_new(size_t n) { return cxx_alloc(n, 0, 0); }
void *cxx_new_arr(size_t n) { return cxx_alloc(n, 0, 0); }
void *cxx_new_nt(size_t n, const void *nt) { (void)nt; return cxx_alloc(n, 0, 1); }
void *cxx_new_arr_nt(size_t n, const void *nt) { (void)nt; return cxx_alloc(n, 0, 1); }
void *cxx_new_al(size_t n, size_t al) { return cxx_alloc(n, al, 0); }
void *cxx_new_arr_al(size_t n, size_t al) { return cxx_alloc(n, al, 0); }

void cxx_del(void *p) CXX_NAME("_ZdlPv");
void cxx_del_arr(void *p) CXX_NAME("_ZdaPv");
void cxx_del_sz(void *p, size_t n) CXX_NAME("_ZdlPvm");
void cxx_del_arr_sz(void *p, size_t n) CXX_NAME("_ZdaPvm");
void cxx_del_al(void *p, size_t al) CXX_NAME("_ZdlPvSt11align_val_t");
void cxx_del_arr_al(void *p, size_t al) CXX_NAME("_ZdaPvSt11align_val_t");
void cxx_del_sz_al(void *p, size_t n, size_t al) CXX_NAME("_ZdlPvmSt11align_val_t");
void cxx_del_arr_sz_al(void *p, size_t n, size_t al) CXX_NAME("_ZdaPvmSt11align_val_t");
void cxx_del_nt(void *p, const void *nt) CXX_NAME("_ZdlPvRKSt9nothrow_t");
void cxx_del_arr_nt(void *p, const void *nt) CXX_NAME("_ZdaPvRKSt9nothrow_t");

void cxx_del(void *p) { free(p); }
void cxx_del_arr(void *p) { free(p); }
void cxx_del_sz(void *p, size_t n) { (void)n; free(p); }
void cxx_del_arr_sz(void *p, size_t n) { (void)n; free(p); }
void cxx_del_al(void *p, size_t al) { (void)al; free(p); }
void cxx_del_arr_al(void *p, size_t al) { (void)al; free(p); }
void cxx_del_sz_al(void *p, size_t n, size_t al) { (void)n; (void)al; free(p); }
void cxx_del_arr_sz_al(void *p, size_t n, size_t al) { (void)n; (void)al; free(p); }
void cxx_del_nt(void *p, const void *nt) { (void)nt; free(p); }
void cxx_del_arr_nt(void *p, const void *nt) { (void)nt; free(p); }

/* A virtual call through a half-built or destroyed object's vtable. */
void __cxa_pure_virtual(void) __attribute__((used, visibility("default")));
void __cxa_pure_virtual(void)
{
	panic("C++: pure virtual function called");
}

void __cxa_deleted_virtual(void) __attribute__((used, visibility("default")));
void __cxa_deleted_virtual(void)
{
	panic("C++: deleted virtual function called");
}
