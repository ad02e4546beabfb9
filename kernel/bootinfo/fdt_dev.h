/*
 * kernel/bootinfo/fdt_dev.h: what the kernel takes from the DTB at boot beyond
 * RAM and boot arguments: the console UART's and the interrupt
 * controller's MMIO bases, and which CPUs the board's CPU-boot driver
 * may start (their enable-method).
 *
 * board.h gives every default; a DTB value replaces it only when it lies
 * inside the board's MMIO windows (BOARD_MMIO_WINDOWS, the only device
 * memory mapped), and every choice is said on the console.
 */
#ifndef KERNEL_FDT_DEV_H
#define KERNEL_FDT_DEV_H

#include <stdint.h>

/* A driver's MMIO base the DTB may replace. */
struct fdt_base {
	const char *what;		/* console name: "uart0", "gicd" */
	const char *compat[3];		/* node compatibles, NULL-ended */
	int reg;			/* entry of the node's reg */
	uintptr_t *base;		/* the driver's base, board.h's value */
};

/* Defined by the board's drivers (pl011.c; gicv2.c or bcm2836_intc.c;
 * spintable.c or psci.c). The bases are written only by
 * fdt_devices_init, on the boot CPU before irq_init and before any other
 * CPU runs; read-only after. */
extern const struct fdt_base uart_fdt_base;
extern const struct fdt_base irqchip_fdt_bases[];
extern const unsigned int irqchip_fdt_nbases;
extern const char cpu_boot_method[];	/* the enable-method cpu_boot does */

/* Takes the UART's and the interrupt controller's bases from the DTB
 * (after console_init: a new UART base is switched to and initialised;
 * before irq_init). */
void fdt_devices_init(const void *fdt);
/* The DTB fdt_devices_init was given (checked), or NULL. It stays in
 * place: the heap is laid out around it (kernel/libc/heap.c). */
const void *fdt_boot_blob(void);
/* Defined by the board's interrupt controller driver: the interrupt ID
 * for the 'ncells' cells (host order) of an interrupts specifier whose
 * interrupt parent is the node matched by irqchip_fdt_bases[which]; -1
 * if the driver has no ID for it. */
int irqchip_fdt_irq(unsigned int which, const uint32_t *cells, int ncells);
/* Says, once, which enable-method the DTB's CPUs carry and which of them
 * will not be started. */
void fdt_cpus_report(const void *fdt);
/* True if the cpu node's enable-method is cpu_boot_method, or absent. */
int fdt_cpu_startable(const void *fdt, int node);

#endif /* KERNEL_FDT_DEV_H */
