/*
 * drivers/spintable.c: starting CPUs through a spin table, the arm64
 * boot protocol's "spin-table" enable-method (described in Linux's
 * Documentation/arch/arm64/booting.rst; the Raspberry Pi firmware and
 * QEMU's raspi machines implement it).
 *
 * Each secondary CPU waits in firmware with its MMU off, polling a 64-bit
 * release address between WFEs; once that holds an entry point it
 * branches there with x0 = 0. secondary_entry wants its struct percpu in
 * x0 (the PSCI CPU_ON contract), so the release address gets
 * spintable_entry (spintable.S), which loads the entry and the context
 * from the CPU's slot below.
 *
 * Release addresses come from board.h (BOARD_SPIN_RELEASE_ADDRS, indexed
 * by MPIDR Aff0); a DTB's cpu-release-addr for the same CPU wins.
 */
#include <stdint.h>

#include "barrier.h"
#include "fdt.h"
#include "fdt_dev.h"
#include "kprintf.h"
#include "mmu.h"
#include "smp.h"

#include "board.h"

struct spin_slot {
	uintptr_t entry;	/* physical entry point */
	uintptr_t ctx;		/* x0 for it */
};

/* Written by cpu_boot_init before any CPU is released; read-only after. */
static uint64_t release_addr[] = BOARD_SPIN_RELEASE_ADDRS;
#define SPIN_SLOTS	(sizeof(release_addr) / sizeof(release_addr[0]))

/* Read by spintable_entry with the MMU and D-cache off. Only the boot CPU
 * writes a slot, once, and cleans it to the point of coherency before it
 * releases that slot's CPU. */
struct spin_slot spintable_slots[SPIN_SLOTS] __attribute__((aligned(64)));
const uint32_t spintable_nslots = SPIN_SLOTS;

/* The enable-method this file implements; CPUs with another are not
 * started (fdt_cpu_startable). */
const char cpu_boot_method[] = "spin-table";

void spintable_entry(void);				/* spintable.S */
void spintable_release(uint64_t release, uintptr_t entry);	/* spintable.S */

void cpu_boot_init(const void *fdt)
{
	int cpus = fdt ? fdt_path(fdt, "/cpus") : -1;
	int len, acells = 1;
	const void *p = cpus >= 0 ? fdt_prop(fdt, cpus, "#address-cells", &len) : NULL;

	if (p && len == 4)
		acells = (int)fdt_be32(p);
	for (int n = cpus >= 0 ? fdt_first_child(fdt, cpus) : -1; n >= 0;
	     n = fdt_next_sibling(fdt, n)) {
		const void *reg = fdt_prop(fdt, n, "reg", &len);
		const void *rel;
		int rlen;

		if (!reg || len < 4 * acells ||
		    !(rel = fdt_prop(fdt, n, "cpu-release-addr", &rlen)) || rlen != 8)
			continue;
		uint64_t mpidr = fdt_cells(reg, acells), addr = fdt_cells(rel, 2);

		if (mpidr >= SPIN_SLOTS || addr == release_addr[mpidr])
			continue;
		kprintf("spin-table: CPU %lx releases at %lx (DTB), not %lx\n",
			(unsigned long)mpidr, (unsigned long)addr,
			(unsigned long)release_addr[mpidr]);
		release_addr[mpidr] = addr;
	}
}

int cpu_boot(uint64_t mpidr, uintptr_t entry, uintptr_t ctx)
{
	uint64_t slot = mpidr & 0xff;

	if (mpidr != slot || slot >= SPIN_SLOTS || !release_addr[slot]) {
		kprintf("spin-table: no release address for CPU %lx\n",
			(unsigned long)mpidr);
		return -1;
	}
	spintable_slots[slot].entry = entry;
	spintable_slots[slot].ctx = ctx;
	/* The CPU reads its slot with the MMU off, from memory. */
	dcache_clean_inval_poc((uintptr_t)&spintable_slots[slot],
			       (uintptr_t)&spintable_slots[slot + 1]);
	spintable_release(release_addr[slot], (uintptr_t)spintable_entry);
	return 0;
}
