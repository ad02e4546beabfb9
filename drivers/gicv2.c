/*
 * drivers/gicv2.c: Arm GICv2 (IHI 0048B) distributor and CPU interface;
 * QEMU virt's default and the Raspberry Pi 4's GIC-400.
 *
 * Everything is Group 0 and level-insensitive to us: SPIs are routed to
 * CPU 0, PPIs and SGIs are banked per CPU. Priorities are all equal, so
 * interrupts do not preempt each other (the handler runs with IRQs
 * masked anyway).
 */
#include <stdint.h>

#include "barrier.h"
#include "fdt_dev.h"
#include "irq.h"
#include "percpu.h"

#include "board.h"

#define GICD_CTLR		0x000
#define GICD_TYPER		0x004
#define GICD_ISENABLER(n)	(0x100 + 4 * (n))
#define GICD_ICENABLER(n)	(0x180 + 4 * (n))
#define GICD_ICPENDR(n)		(0x280 + 4 * (n))
#define GICD_IPRIORITYR(n)	(0x400 + 4 * (n))
#define GICD_ITARGETSR(n)	(0x800 + 4 * (n))
#define GICD_ICFGR(n)		(0xc00 + 4 * (n))
#define GICD_SGIR		0xf00

#define GICC_CTLR		0x000
#define GICC_PMR		0x004
#define GICC_IAR		0x00c
#define GICC_EOIR		0x010

#define PRIORITY		0xa0
#define SGIR_TARGET_OTHERS	(1U << 24)

/* board.h's bases until fdt_devices_init takes the DTB's (boot CPU,
 * before irqchip_init and any other CPU); read-only after. */
static uintptr_t gicd_base = BOARD_GICD_BASE, gicc_base = BOARD_GICC_BASE;
/* The GIC-400 (Pi 4) and QEMU virt's GICv2: reg = distributor, CPU
 * interface, ... */
const struct fdt_base irqchip_fdt_bases[] = {
	{ "gicd", { "arm,gic-400", "arm,cortex-a15-gic" }, 0, &gicd_base },
	{ "gicc", { "arm,gic-400", "arm,cortex-a15-gic" }, 1, &gicc_base },
};
const unsigned int irqchip_fdt_nbases = sizeof(irqchip_fdt_bases) / sizeof(irqchip_fdt_bases[0]);

/* GIC binding: <type number flags>, type 0 = SPI (ID 32 + number), 1 =
 * PPI (ID 16 + number). */
int irqchip_fdt_irq(unsigned int which, const uint32_t *cells, int ncells)
{
	(void)which;
	if (ncells < 2 || cells[0] > 1 || cells[1] >= (cells[0] ? 16U : 988U))
		return -1;
	return (int)((cells[0] ? 16 : 32) + cells[1]);
}

static inline volatile uint32_t *gicd(unsigned int off)
{
	return (volatile uint32_t *)(gicd_base + off);
}

static inline volatile uint32_t *gicc(unsigned int off)
{
	return (volatile uint32_t *)(gicc_base + off);
}

static unsigned int gic_lines;

void irqchip_init(void)
{
	gic_lines = 32 * ((*gicd(GICD_TYPER) & 0x1f) + 1);
	if (gic_lines > IRQ_MAX)
		gic_lines = IRQ_MAX;

	*gicd(GICD_CTLR) = 0;
	for (unsigned int i = 32; i < gic_lines; i += 32) {
		*gicd(GICD_ICENABLER(i / 32)) = ~0U;
		*gicd(GICD_ICPENDR(i / 32)) = ~0U;
	}
	for (unsigned int i = 32; i < gic_lines; i += 4) {
		*gicd(GICD_IPRIORITYR(i / 4)) = PRIORITY * 0x01010101U;
		*gicd(GICD_ITARGETSR(i / 4)) = 0x01010101U;	/* CPU interface 0 */
	}
	for (unsigned int i = 32; i < gic_lines; i += 16)
		*gicd(GICD_ICFGR(i / 16)) = 0;	/* level-sensitive */
	*gicd(GICD_CTLR) = 1;
}

void irqchip_init_cpu(void)
{
	/* ITARGETSR0..7 are banked and read back this CPU's own mask; a
	 * uniprocessor GIC makes them RAZ (IHI 0048B 4.3.12): interface 0. */
	unsigned int mask = *gicd(GICD_ITARGETSR(0)) & 0xff;

	this_cpu()->gic_mask = mask ? mask : 1;
	*gicd(GICD_ICENABLER(0)) = ~0U;
	for (unsigned int i = 0; i < 32; i += 4)
		*gicd(GICD_IPRIORITYR(i / 4)) = PRIORITY * 0x01010101U;
	*gicd(GICD_ISENABLER(0)) = 0xffff;	/* all SGIs */
	*gicc(GICC_PMR) = 0xf0;
	*gicc(GICC_CTLR) = 1;
}

void irqchip_enable(unsigned int irq)
{
	*gicd(GICD_ISENABLER(irq / 32)) = 1U << (irq % 32);
}

unsigned int irqchip_ack(void)
{
	/* IAR[12:10] holds an SGI's source CPU; EOIR wants it back. */
	unsigned int iar = *gicc(GICC_IAR);

	return IRQ_ID(iar) >= 1020 ? IRQ_SPURIOUS : iar;
}

void irqchip_eoi(unsigned int token)
{
	*gicc(GICC_EOIR) = token;
}

void irqchip_send_sgi(unsigned int sgi, unsigned int cpu)
{
	dsb_ishst();	/* the data the SGI announces is visible first */
	*gicd(GICD_SGIR) = (cpu_data(cpu)->gic_mask << 16) | sgi;
}

void irqchip_send_sgi_others(unsigned int sgi)
{
	dsb_ishst();
	*gicd(GICD_SGIR) = SGIR_TARGET_OTHERS | sgi;
}
