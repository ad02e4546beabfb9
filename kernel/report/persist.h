/*
 * kernel/report/persist.h: a stretch of RAM that outlives a warm reset.
 *
 * heap_init sets aside persist_bytes_for(RAM) of RAM (the DTB's /memory,
 * or the board's default) ending PERSIST_BELOW_TOP under its top, 2 MiB
 * aligned: boot/head.S clears only BSS and the heap never hands it out,
 * so what one boot left there is still there after a watchdog or PSCI
 * reset that keeps RAM powered (QEMU's system_reset does; a -kernel
 * image is reloaded at its own address, far below). The top of RAM
 * above it is left alone: U-Boot relocates itself there on every boot.
 * A loader may still reuse the region, so whoever reads it must check
 * what it finds. The kernel keeps one note for itself in the region's
 * last page (how the boot before ended, when it reset on purpose:
 * persist_note_outcome) and gives the rest no meaning: persist_region()
 * hands it to its user (the trace core).
 */
#ifndef KERNEL_PERSIST_H
#define KERNEL_PERSIST_H

#include <stddef.h>
#include <stdint.h>

#include "mmu.h"

/* The region's size: 1/PERSIST_RAM_SHARE of RAM and PERSIST_SLACK more,
 * at least PERSIST_MIN_BYTES; PERSIST_MIN_BYTES alone when that much would
 * leave the heap under PERSIST_MIN_RAM. Its user, the trace core, keeps
 * two sets of rings there (a buffer change alternates between them), each
 * its default of 1/16 of RAM (trace/control/control.c); the slack holds
 * their state and the kernel's note. */
#define PERSIST_RAM_SHARE	8
#define PERSIST_SLACK		(2UL << 20)
#define PERSIST_MIN_BYTES	(8UL << 20)
/* Heap that must stay below the region, or it all goes to the heap.
 * (With PERSIST_BELOW_TOP not 128 MiB in all: the rpi4 test finds that
 * constant in the image as QEMU virt's GIC address.) */
#define PERSIST_MIN_RAM		(48UL << 20)
/* Left free at the top of RAM for a loader that runs between two boots
 * and relocates itself there (U-Boot: its code, heap and stack). */
#define PERSIST_BELOW_TOP	(64UL << 20)

/* Reserves the region below *hi if it fits above 'lo' and clear of the
 * DTB [fdt0, fdt1); lowers *hi to its base. heap_init calls it once with
 * the RAM's size. */
void persist_reserve(uintptr_t lo, uintptr_t *hi, uintptr_t fdt0, uintptr_t fdt1,
		     uint64_t ram_bytes);
/* The region: base and size, {0, 0} when there is none. */
struct mem_region persist_region(void);
/* How the previous boot ended when it said so before a reset of its own
 * (watchdog=S,reset writes RUN_WATCHDOG), else RUN_OUTCOMES. Read and
 * cleared once at boot by persist_reserve, which prints it. */
unsigned int persist_prev_outcome(void);
/* Notes 'outcome' for the next boot (before persist_clean and a reset). */
void persist_note_outcome(unsigned int outcome);
/* Writes the region's cached lines back to RAM (before a reset: caches
 * do not survive one on hardware). */
void persist_clean(void);

#endif /* KERNEL_PERSIST_H */
