/*
 * kernel/cpu/tls.c: the application's thread-local storage, one copy per CPU.
 *
 * There are no threads: a CPU is the thread, so a _Thread_local variable
 * is per-CPU storage. The image carries one initial block (.tdata, then
 * .tbss, linker/baretrace.ld.S); each CPU gets its own copy in .tls and
 * its TPIDR_EL0 points at it, laid out as AArch64 TLS variant 1 wants
 * for local-exec code (what GCC emits, and what the linker relaxes
 * other models to, in this static image):
 *
 *   TPIDR_EL0 -> +0   TCB, TLS_TCB_SIZE (16) bytes, zero (unused)
 *                +16  copy of .tdata
 *                     zeroes for .tbss
 *
 * After that TPIDR_EL0 is the application's: the kernel and the trace
 * core never read or write it again (the trace core's recursion guard is
 * in struct percpu), so an application may also point it elsewhere.
 * Built without patch sites: it runs while a CPU comes up.
 */
#include <stdint.h>
#include <string.h>

#include "barrier.h"
#include "config.h"
#include "percpu.h"
#include "tls.h"

extern char __tdata_start[], __tdata_end[], __tbss_end[], __tls_areas_start[];

void tls_init_cpu(void)
{
	size_t block = (size_t)(__tbss_end - __tdata_start);
	size_t init = (size_t)(__tdata_end - __tdata_start);
	char *tp = __tls_areas_start + this_cpu()->cpu * (TLS_TCB_SIZE + block);

	memset(tp, 0, TLS_TCB_SIZE);
	memcpy(tp + TLS_TCB_SIZE, __tdata_start, init);
	memset(tp + TLS_TCB_SIZE + init, 0, block - init);
	write_sysreg(tpidr_el0, (uintptr_t)tp);
	write_sysreg(tpidrro_el0, 0);	/* the application's too; starts at 0 */
}
