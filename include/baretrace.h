/*
 * include/baretrace.h: what an application may call.
 *
 * An application is a directory of C and assembly files built into the
 * image with 'make APP=dir'. Its main(argc, argv) runs on CPU 0 after the
 * kernel has brought up every CPU; argv holds the boot arguments after
 * '--'. The other CPUs idle in WFI until handed work with smp_start().
 * Returning from main powers the machine off with that status.
 *
 * newlib is the C library: printf, malloc and friends work on any CPU, in
 * thread context (not inside interrupt or tick callbacks, which must stay
 * short and use only the functions marked "any context" here).
 */
#ifndef BARETRACE_H
#define BARETRACE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*smp_fn)(void *arg);

/* CPUs. "any context" */
unsigned int smp_cpu_id(void);
unsigned int smp_num_cpus(void);

/* Run fn(arg) on 'cpu' in interrupt context and wait until it returned.
 * For short work (a flag, a counter, a cache operation). Calling it for
 * the current CPU runs fn directly. Returns 0, or -1 for a CPU that is
 * not online. Thread context only. */
int smp_call(unsigned int cpu, smp_fn fn, void *arg);
/* The same on every online CPU except the caller, in parallel. */
void smp_call_others(smp_fn fn, void *arg);

/* Hand fn(arg) to an idle CPU to run in thread context (it may print,
 * allocate, take long). Returns -1 if that CPU is offline, busy or the
 * caller itself. smp_wait() blocks until it has returned. */
int smp_start(unsigned int cpu, smp_fn fn, void *arg);
void smp_wait(unsigned int cpu);

/* Time from the generic counter (CNTVCT). "any context" */
uint64_t time_counter(void);
uint64_t time_counter_hz(void);
uint64_t time_ns(void);
/* Busy-wait delays: spin (the CPU stays busy, interrupts stay as they
 * are) until at least 'us' microseconds / 'ms' milliseconds of the
 * generic counter have passed, rounded up to whole counter ticks; longer
 * if interrupts are taken meanwhile. Never shorter, on any board: the
 * counter runs at time_counter_hz() whatever the CPU clock. For waits
 * beyond a few ticks prefer time_wait_tick, which idles. us up to 2^32
 * (71 minutes). "any context" (keep them short in handlers). */
void time_delay_us(uint64_t us);
void time_delay_ms(uint64_t ms);
/* Timer tick rate (kernel parameter tick_hz=, default 100). */
unsigned int time_tick_hz(void);
/* Ticks taken so far on this CPU. "any context" */
uint64_t time_ticks(void);
/* Wait, with the CPU idle, until this CPU's tick count is no longer
 * 'seen' (read with time_ticks() before checking whatever the tick
 * brings, so a tick in between ends the wait at once). Returns 0. Until
 * the first tick on this CPU, or with interrupts masked, it spins for at
 * most max_us instead and returns -1 if no tick came. Thread context. */
int time_wait_tick(uint64_t seen, uint64_t max_us);

/* Called from the timer interrupt on every tick, on every CPU, in the
 * order registered, each from the reset FPCR. At most TICK_HOOKS_MAX
 * hooks (the kernel takes two: the lockup detector and the end of a
 * run; the KTAP suites six more); returns -1 when full. */
#define TICK_HOOKS_MAX 16
typedef void (*tick_fn)(unsigned int cpu, uint64_t tick);
int time_tick_hook(tick_fn fn);

/* Interrupts: register a handler for an interrupt ID and unmask it. The
 * handler runs in interrupt context with interrupts masked: a shared
 * peripheral interrupt's on CPU 0 (the kernel routes every one there), a
 * per-CPU one's (PPI, SGI) on the CPU it fires on. A PPI is unmasked only
 * on the calling CPU (the controller banks it): register it on each CPU
 * that wants it (smp_call).
 * IDs are the interrupt controller's (GIC INTIDs; bt_dev_find gives the
 * ID of a device-tree node). The kernel keeps its own IDs (the README's
 * list): registering one of those replaces the kernel's handler. */
typedef void (*irq_fn)(unsigned int irq, void *arg);
int irq_register(unsigned int irq, irq_fn fn, void *arg);

/* Power. power_exit() never returns: it prints the final status line,
 * tells QEMU the status through semihosting when it listens, and powers
 * off with PSCI. */
void power_exit(int status) __attribute__((noreturn));
void power_reset(void) __attribute__((noreturn));

#ifdef __cplusplus
}
#endif

/* The rest of the API, one header per subject. Names are bt_ prefixed
 * so they never meet the kernel's own. */
#include "baretrace/lock.h"
#include "baretrace/percpu.h"
#include "baretrace/console.h"
#include "baretrace/mmio.h"
#include "baretrace/cache.h"
#include "baretrace/device.h"

#endif /* BARETRACE_H */
