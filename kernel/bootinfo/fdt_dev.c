/*
 * kernel/bootinfo/fdt_dev.c: see fdt_dev.h. The board-specific parts are
 * data in the drivers the board builds (which compatibles, which reg
 * entry, which enable-method); this file only applies the rules.
 */
#include <stdint.h>

#include "fdt.h"
#include "fdt_addr.h"
#include "fdt_dev.h"
#include "kprintf.h"
#include "mmu.h"
#include "uart.h"

#include "board.h"

static int in_mmio_window(uint64_t base, uint64_t size)
{
	static const struct mem_region mmio[] = BOARD_MMIO_WINDOWS;

	if (size == 0)
		size = 4;	/* at least the first register */
	for (unsigned int i = 0; i < sizeof(mmio) / sizeof(mmio[0]); i++)
		if (base >= mmio[i].base && size <= mmio[i].size &&
		    base - mmio[i].base <= mmio[i].size - size)
			return 1;
	return 0;
}

static int is_a(const void *fdt, int node, const struct fdt_base *b)
{
	for (int i = 0; node >= 0 && i < 3 && b->compat[i]; i++)
		if (fdt_prop_has_string(fdt, node, "compatible", b->compat[i]))
			return 1;
	return 0;
}

/* Replaces *b->base by reg entry b->reg of 'node' if it is usable. 1 if
 * the base changed. */
static int take(const void *fdt, int node, const struct fdt_base *b)
{
	uint64_t addr, size;
	unsigned long old = (unsigned long)*b->base;

	if (fdt_reg_cpu(fdt, node, b->reg, &addr, &size)) {
		kprintf("%s: DTB %s reg[%d] does not translate to a CPU address; "
			"keeping %lx (board)\n", b->what, fdt_name(fdt, node), b->reg, old);
		return 0;
	}
	if (!in_mmio_window(addr, size)) {
		kprintf("%s: DTB %s at %lx+%lx is outside the board's MMIO windows; "
			"keeping %lx (board)\n", b->what, fdt_name(fdt, node),
			(unsigned long)addr, (unsigned long)size, old);
		return 0;
	}
	if (addr == old) {
		kprintf("%s: %lx (DTB %s)\n", b->what, old, fdt_name(fdt, node));
		return 0;
	}
	*b->base = (uintptr_t)addr;
	kprintf("%s: %lx (DTB %s; board.h says %lx)\n", b->what,
		(unsigned long)addr, fdt_name(fdt, node), old);
	return 1;
}

/* The console: stdout-path if the driver can run it, else alias serial0. */
static void take_uart(const void *fdt)
{
	const struct fdt_base *b = &uart_fdt_base;
	int node = fdt_stdout(fdt);

	if (!is_a(fdt, node, b)) {
		int alias = fdt_alias(fdt, "serial0");

		if (node >= 0)
			kprintf("%s: stdout-path names %s, which is not %s; trying alias serial0\n",
				b->what, fdt_name(fdt, node), b->compat[0]);
		node = is_a(fdt, alias, b) ? alias : -1;
	}
	if (node < 0) {
		kprintf("%s: no %s console in the DTB; keeping %lx (board)\n",
			b->what, b->compat[0], (unsigned long)*b->base);
		return;
	}
	uintptr_t old = *b->base;

	uart_flush();	/* the last line leaves through the old UART */
	if (take(fdt, node, b)) {
		uart_init();
		kprintf("%s: console moved from %lx\n", b->what, (unsigned long)old);
	}
}

/* The loader's DTB (checked by fdt_check), or NULL; written once by
 * fdt_devices_init on the boot CPU, read-only after. */
static const void *boot_fdt;

const void *fdt_boot_blob(void)
{
	return boot_fdt;
}

void fdt_devices_init(const void *fdt)
{
	boot_fdt = fdt;
	if (!fdt)
		return;
	take_uart(fdt);
	for (unsigned int i = 0; i < irqchip_fdt_nbases; i++) {
		const struct fdt_base *b = &irqchip_fdt_bases[i];
		int node = -1;

		for (int c = 0; node < 0 && c < 3 && b->compat[c]; c++)
			node = fdt_find_compatible(fdt, b->compat[c]);
		if (node < 0)
			kprintf("%s: no %s node in the DTB; keeping %lx (board)\n",
				b->what, b->compat[0], (unsigned long)*b->base);
		else
			take(fdt, node, b);
	}
}

int fdt_cpu_startable(const void *fdt, int node)
{
	return !fdt_prop(fdt, node, "enable-method", NULL) ||
	       fdt_prop_has_string(fdt, node, "enable-method", cpu_boot_method);
}

void fdt_cpus_report(const void *fdt)
{
	int cpus = fdt ? fdt_path(fdt, "/cpus") : -1;
	unsigned int n = 0, ok = 0, missing = 0;

	for (int c = cpus >= 0 ? fdt_first_child(fdt, cpus) : -1; c >= 0;
	     c = fdt_next_sibling(fdt, c)) {
		int len;
		const char *m = fdt_prop(fdt, c, "enable-method", &len);

		if (!fdt_prop_has_string(fdt, c, "device_type", "cpu"))
			continue;
		n++;
		if (!m) {
			if (!missing++)
				kprintf("smp: %s has no enable-method; using the board's "
					"\"%s\"\n", fdt_name(fdt, c), cpu_boot_method);
		} else if (fdt_cpu_startable(fdt, c)) {
			ok++;
		} else {
			/* The first string of the list, if the list ends in NUL. */
			kprintf("smp: %s: enable-method \"%s\" is not this board's "
				"\"%s\"; not starting it\n", fdt_name(fdt, c),
				len > 0 && !m[len - 1] ? m : "?", cpu_boot_method);
		}
	}
	if (n && missing)
		kprintf("smp: enable-method \"%s\" (DTB) on %u of %u CPUs, (board) on "
			"%u\n", cpu_boot_method, ok, n, missing);
	else if (n)
		kprintf("smp: enable-method \"%s\" (DTB) on %u of %u CPUs\n",
			cpu_boot_method, ok, n);
}
