/*
 * kernel/smp/smp.h: bringing CPUs up and calling across them. The calls for
 * applications (smp_call, smp_start, ...) are in <baretrace.h>.
 */
#ifndef KERNEL_SMP_H
#define KERNEL_SMP_H

#include <stdint.h>

#include <baretrace.h>

/* On the export path (trace/output/export.c asks smp_num_cpus for every block
 * it sends, export_flush and export_close close other CPUs' blocks by
 * smp_call_others, which is also the patcher's synchronisation round):
 * declared again here without a patch site, so that the definitions in
 * kernel/smp/smp.c and smp_call.c get none either and the exporter never
 * traces itself (the build checks it: tools/check-trace-path). */
__attribute__((patchable_function_entry(0, 0))) unsigned int smp_num_cpus(void);
__attribute__((patchable_function_entry(0, 0))) void smp_call_others(smp_fn fn, void *arg);

/* Like smp_call_others, but safe with interrupts masked (in an
 * interrupt handler): it waits for the call lock and for each CPU at
 * most 'us' microseconds, since a CPU with interrupts masked never
 * answers. A call a CPU did not take in time is taken back. Returns the
 * mask of the CPUs that ran fn (break key and lockup reports). */
uint64_t smp_call_others_bounded(smp_fn fn, void *arg, uint64_t us);
/* The same for the CPUs in the mask 'cpus' (bit n: CPU n) that are
 * online, this one left out; returns the mask of those that ran fn.
 * On the export path too (export_close), so without a patch site. */
__attribute__((patchable_function_entry(0, 0)))
uint64_t smp_call_cpus_bounded(uint64_t cpus, smp_fn fn, void *arg, uint64_t us);
/* The mask of the online CPUs other than this one. */
__attribute__((patchable_function_entry(0, 0))) uint64_t smp_others_mask(void);
/* The end of a run and the crash path: one console line for each CPU in
 * 'cpus' that did not answer 'what' within 'us' microseconds,
 * "cpuN did not answer <what> within M ms (interrupts masked?)", each
 * CPU named once a run however many waits it cost. */
__attribute__((patchable_function_entry(0, 0)))
void smp_name_silent(uint64_t cpus, const char *what, uint64_t us);
/* The CPUs smp_name_silent has named this run. */
__attribute__((patchable_function_entry(0, 0))) uint64_t smp_silent_mask(void);
/* Reads /cpus, starts every secondary CPU and prints
 * "smp: N CPUs online". Boot CPU, after irq and time init. */
void smp_init(const void *fdt);
/* Runs fn on each idle secondary CPU whenever it wakes (thread
 * context, interrupts on): work that may take long, like pushing trace
 * frames out of a slow UART. fn returns soon when work is handed to its
 * CPU; it returns true when it has more to do (called again at once),
 * false to let the CPU wait for an interrupt. */
void smp_set_idle_hook(bool (*fn)(void));
/* Sends SGI_STOP to every other CPU and waits (at most 1 s) until
 * each has parked; returns the mask of those that did not (crash path). */
#define SMP_STOP_US	1000000
uint64_t smp_stop_others(void);
/* kernel/smp/smp_call.c: registers the SGIs between CPUs (call, wake,
 * stop); smp_init calls it once, before it starts any CPU. No patch
 * site: part of smp_init, it adds no callsite of its own. */
__attribute__((patchable_function_entry(0, 0))) void smp_sgi_init(void);
/* Entered from boot/head.S on each secondary CPU. */
void boot_secondary(void) __attribute__((noreturn));

/* Board's way of starting a CPU (drivers/psci.c, or a spin-table):
 * start the CPU with affinity 'mpidr' at physical 'entry' with x0 = ctx.
 * Returns 0 when the request was accepted. */
int cpu_boot(uint64_t mpidr, uintptr_t entry, uintptr_t ctx);
/* Called once before the first cpu_boot, with the DTB. */
void cpu_boot_init(const void *fdt);

#endif /* KERNEL_SMP_H */
