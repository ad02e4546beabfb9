/*
 * drivers/psci.c: Arm PSCI (DEN 0022) for starting CPUs and powering
 * off. The conduit (HVC or SMC) comes from the DTB's /psci "method".
 */
#include <stdint.h>

#include "fdt.h"
#include "fdt_dev.h"
#include "kprintf.h"
#include "power.h"
#include "smp.h"

#define PSCI_CPU_ON_64		0xc4000003UL
#define PSCI_SYSTEM_OFF		0x84000008UL
#define PSCI_SYSTEM_RESET	0x84000009UL

const char cpu_boot_method[] = "psci";	/* see fdt_dev.h */

static int use_smc;	/* written once by cpu_boot_init, before any call */

static long psci_call(unsigned long fn, unsigned long a1, unsigned long a2,
		      unsigned long a3)
{
	register unsigned long x0 __asm__("x0") = fn;
	register unsigned long x1 __asm__("x1") = a1;
	register unsigned long x2 __asm__("x2") = a2;
	register unsigned long x3 __asm__("x3") = a3;

	if (use_smc)
		__asm__ volatile("smc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)
				 :: "memory");
	else
		__asm__ volatile("hvc #0" : "+r"(x0), "+r"(x1), "+r"(x2), "+r"(x3)
				 :: "memory");
	return (long)x0;
}

void cpu_boot_init(const void *fdt)
{
	int node = fdt ? fdt_path(fdt, "/psci") : -1;
	int len;
	const char *method = node >= 0 ? fdt_prop(fdt, node, "method", &len) : NULL;

	use_smc = method && method[0] == 's';
	if (!method)
		kprintf("psci: no /psci method in the DTB, trying hvc\n");
}

int cpu_boot(uint64_t mpidr, uintptr_t entry, uintptr_t ctx)
{
	long ret = psci_call(PSCI_CPU_ON_64, mpidr, entry, ctx);

	if (ret)
		kprintf("psci: CPU_ON %lx failed: %ld\n", (unsigned long)mpidr, ret);
	return ret ? -1 : 0;
}

void hw_power_off(void)
{
	psci_call(PSCI_SYSTEM_OFF, 0, 0, 0);
}

void hw_reset(void)
{
	psci_call(PSCI_SYSTEM_RESET, 0, 0, 0);
}
