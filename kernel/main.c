/*
 * kernel/main.c: the boot CPU's path from boot/head.S to the
 * application's main(), in the order each step depends on.
 */
#include <stdint.h>

#include "barrier.h"
#include "bootargs.h"
#include "console.h"
#include "console_input.h"
#include "cxx_init.h"
#include "exception.h"
#include "fdt.h"
#include "fdt_dev.h"
#include "heap.h"
#include "hooks.h"
#include "irq.h"
#include "kprintf.h"
#include "mmu.h"
#include "percpu.h"
#include "pmu.h"
#include "power.h"
#include "shell.h"
#include "smp.h"
#include "tls.h"
#include "ktime.h"

#include "board.h"

extern char boot_stack_top[];
int main(int argc, char **argv);

/* RAM from the DTB's /memory node (first range), or the board default. */
void kernel_run_inits(unsigned int point)
{
	extern const struct kernel_init __kinits_start[], __kinits_end[];

	for (const struct kernel_init *k = __kinits_start; k < __kinits_end; k++)
		if (k->point == point)
			k->fn();
}

static struct mem_region find_ram(const void *fdt)
{
	struct mem_region ram = { BOARD_RAM_BASE, BOARD_RAM_SIZE };
	int root = fdt_path(fdt, "/"), mem = fdt_path(fdt, "/memory");
	int len, ac = 2, sc = 1;
	const void *p;

	if (root < 0 || mem < 0)
		return ram;
	if ((p = fdt_prop(fdt, root, "#address-cells", &len)) && len == 4)
		ac = (int)fdt_be32(p);
	if ((p = fdt_prop(fdt, root, "#size-cells", &len)) && len == 4)
		sc = (int)fdt_be32(p);
	p = fdt_prop(fdt, mem, "reg", &len);
	if (p && (ac == 1 || ac == 2) && (sc == 1 || sc == 2) && len >= 4 * (ac + sc)) {
		ram.base = fdt_cells(p, ac);
		ram.size = fdt_cells((const uint8_t *)p + 4 * ac, sc);
	}
	return ram;
}

void boot_primary(void *dtb, unsigned long entry_el)
{
	uint64_t t0 = read_sysreg(cntvct_el0);
	const void *fdt = fdt_check(dtb, 1 << 21) == 0 ? dtb : NULL;
	struct mem_region ram = fdt ? find_ram(fdt) : (struct mem_region){
		BOARD_RAM_BASE, BOARD_RAM_SIZE };

	mmu_init(&ram);
	percpu_data[0].stack_top = (uintptr_t)boot_stack_top;
	write_sysreg(tpidr_el1, &percpu_data[0]);
	/* Unexpected exceptions go to the crash report from the moment the
	 * vectors are in place (the exception layer does not name it). */
	exception_set_crash_handler(crash);
	exception_init_cpu();
	tls_init_cpu();
	console_init();

	kprintf("\nbaretrace: %s, entered at EL%lu, image at %p (%lu KiB), "
		"RAM %lx+%lx\n", BOARD_NAME, entry_el, _text,
		(unsigned long)(_end - _text) / 1024, (unsigned long)ram.base,
		(unsigned long)ram.size);
	if (!fdt)
		kprintf("baretrace: no valid DTB at %p; using board defaults\n", dtb);
	bootargs_init(fdt);
	heap_init(&ram, fdt, fdt ? fdt_totalsize(fdt) : 0);
	cpu_boot_init(fdt);
	fdt_devices_init(fdt);
	fdt_cpus_report(fdt);
	pmu_init();
	kernel_run_inits(KINIT_EARLY);

	irq_init();
	irq_init_cpu();
	time_init();
	time_init_cpu();
	console_init_irq();
	percpu_data[0].online = true;
	irq_enable();
	smp_init(fdt);
	kernel_run_inits(KINIT_LATE);

	uint64_t t1 = time_counter();
	kprintf("baretrace: main() after %lu us (%lu us since reset)\n",
		(unsigned long)((t1 - t0) * 1000000 / time_counter_hz()),
		(unsigned long)(t1 * 1000000 / time_counter_hz()));
	cxx_run_constructors();
	int status = main(bootargs_app_argc(), bootargs_app_argv());

	if (shell_wanted())
		status = shell_run();
	power_exit(status);
}
