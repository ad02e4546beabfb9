/*
 * board/rpi-common/bcm2836_intc.c: the interrupt controller interface
 * (kernel/cpu/irq.h) on the BCM2837, which has no GIC: the Raspberry Pi 3 and
 * QEMU raspi3b. Built without patch sites: it runs on every interrupt.
 *
 * Two controllers in series:
 *  - the ARM-local one at BOARD_LOCAL_INTC_BASE ([QA7]) gives each core
 *    an IRQ source register fed by that core's generic-timer outputs,
 *    four 32-bit mailboxes, and (on one chosen core) the "GPU" input;
 *  - the VideoCore one at BOARD_ARMCTRL_IC_BASE ([P] 7.5) ORs its 64
 *    peripheral interrupts into that GPU input.
 *
 * Interrupt IDs keep the meaning they have on a GIC, so kernel/ and
 * drivers/gtimer.c need not know which controller is there:
 *   0-15           SGIs: bit n of the target core's mailbox 0
 *   26, 27, 29, 30 hypervisor, virtual, secure and non-secure physical
 *                  timer (their GIC PPI numbers)
 *   96-159         VideoCore peripheral interrupt n is 96 + n, as the
 *                  BCM2711's GIC numbers it (RPI_VC_IRQ); all to core 0
 * Ack takes mailboxes first, then timers, then the VideoCore. It clears a
 * mailbox bit as it returns it, so an SGI sent while its handler runs is
 * taken again; timers and peripherals are levels their handlers clear,
 * so EOI has nothing to do.
 */
#include <stdint.h>

#include "barrier.h"
#include "fdt_dev.h"
#include "irq.h"
#include "percpu.h"

#include "board.h"

/* ARM-local registers ([QA7] register map; QEMU 7.2 bcm2836_control.c). */
#define LOCAL_GPU_ROUTE		0x0c		/* bits 1:0 IRQ core, 3:2 FIQ core */
#define LOCAL_TIMER_CTL(c)	(0x40 + 4 * (c))	/* bit n: timer source n to IRQ */
#define LOCAL_MBOX_CTL(c)	(0x50 + 4 * (c))	/* bit n: mailbox n to IRQ */
#define LOCAL_IRQ_SRC(c)	(0x60 + 4 * (c))
#define LOCAL_MBOX_SET(c, n)	(0x80 + 16 * (c) + 4 * (n))	/* write 1s to set */
#define LOCAL_MBOX_CLR(c, n)	(0xc0 + 16 * (c) + 4 * (n))	/* read; write 1s to clear */
#define LOCAL_CORES		4

/* IRQ source bits: 0-3 the timers (CNTPS, CNTPNS, CNTHP, CNTV), 4-7 the
 * mailboxes, 8 the GPU input. */
#define SRC_TIMERS		0x00fU
#define SRC_MBOX0		(1U << 4)
#define SRC_GPU			(1U << 8)

/* VideoCore interrupt controller, offsets from 0x7E00B200 ([P] 7.5). */
#define IC_PENDING(bank)	(0x04 + 4 * (bank))	/* bank 0: IRQs 0-31, 1: 32-63 */
#define IC_ENABLE(bank)		(0x10 + 4 * (bank))	/* write 1s to enable */
#define IC_DISABLE(bank)	(0x1c + 4 * (bank))	/* write 1s to disable */

#define SGI_COUNT		16
#define VC_IRQS			64

/* Timer source bit -> interrupt ID. */
static const uint8_t timer_ids[4] = { 29, 30, 26, 27 };

/* Enabled VideoCore interrupts: written by irqchip_enable on CPU 0 before
 * the interrupt can fire, read by irqchip_ack on CPU 0 (their core). */
static uint32_t vc_enabled[2];

/* board.h's bases until fdt_devices_init takes the DTB's (boot CPU,
 * before irqchip_init and any other CPU); read-only after. */
static uintptr_t local_base = BOARD_LOCAL_INTC_BASE, vc_base = BOARD_ARMCTRL_IC_BASE;
const struct fdt_base irqchip_fdt_bases[] = {
	{ "local-intc", { "brcm,bcm2836-l1-intc" }, 0, &local_base },
	{ "armctrl-ic", { "brcm,bcm2836-armctrl-ic" }, 0, &vc_base },
};
const unsigned int irqchip_fdt_nbases = sizeof(irqchip_fdt_bases) / sizeof(irqchip_fdt_bases[0]);

/* Device-tree specifiers ([DT] bcm2836-armctrl-ic binding): on the
 * armctrl-ic <bank n>, bank 1 = VideoCore interrupts 0-31 and bank 2 =
 * 32-63 (bank 0, the ARM basic interrupts, has no ID here); on the
 * local-intc <n flags>, n = 0-3 the timer sources (timer_ids). */
int irqchip_fdt_irq(unsigned int which, const uint32_t *cells, int ncells)
{
	if (which == 0)
		return ncells >= 1 && cells[0] < 4 ? timer_ids[cells[0]] : -1;
	if (ncells < 2 || cells[0] < 1 || cells[0] > 2 || cells[1] >= 32)
		return -1;
	return (int)RPI_VC_IRQ((cells[0] - 1) * 32 + cells[1]);
}

static inline volatile uint32_t *local(unsigned int off)
{
	return (volatile uint32_t *)(local_base + off);
}

static inline volatile uint32_t *vc(unsigned int off)
{
	return (volatile uint32_t *)(vc_base + off);
}

static inline unsigned int this_core(void)
{
	return read_sysreg(mpidr_el1) & 0xff;
}

void irqchip_init(void)
{
	*vc(IC_DISABLE(0)) = ~0U;
	*vc(IC_DISABLE(1)) = ~0U;
	*local(LOCAL_GPU_ROUTE) = 0;	/* GPU IRQ and FIQ to core 0 */
}

void irqchip_init_cpu(void)
{
	unsigned int core = this_core();

	*local(LOCAL_TIMER_CTL(core)) = 0;
	*local(LOCAL_MBOX_CLR(core, 0)) = ~0U;	/* nothing sent before we came */
	*local(LOCAL_MBOX_CTL(core)) = 1;	/* mailbox 0 = SGIs, as IRQ */
}

void irqchip_enable(unsigned int irq)
{
	if (irq < SGI_COUNT)
		return;		/* always on once the core is up */
	for (unsigned int bit = 0; bit < 4; bit++)
		if (irq == timer_ids[bit]) {
			/* Per core, like a GIC PPI: each CPU enables its own. */
			volatile uint32_t *ctl = local(LOCAL_TIMER_CTL(this_core()));

			*ctl |= 1U << bit;
			return;
		}
	if (irq >= RPI_VC_IRQ(0) && irq < RPI_VC_IRQ(VC_IRQS)) {
		unsigned int n = irq - RPI_VC_IRQ(0);

		vc_enabled[n / 32] |= 1U << (n % 32);
		*vc(IC_ENABLE(n / 32)) = 1U << (n % 32);
	}
}

unsigned int irqchip_ack(void)
{
	unsigned int core = this_core();
	uint32_t src = *local(LOCAL_IRQ_SRC(core));

	if (src & SRC_MBOX0) {
		uint32_t sgis = *local(LOCAL_MBOX_CLR(core, 0)) & ((1U << SGI_COUNT) - 1);

		if (sgis) {
			unsigned int sgi = (unsigned int)__builtin_ctz(sgis);

			*local(LOCAL_MBOX_CLR(core, 0)) = 1U << sgi;
			return sgi;
		}
	}
	if (src & SRC_TIMERS)
		return timer_ids[__builtin_ctz(src & SRC_TIMERS)];
	if (src & SRC_GPU) {
		for (unsigned int bank = 0; bank < 2; bank++) {
			uint32_t p = *vc(IC_PENDING(bank)) & vc_enabled[bank];

			if (p)
				return RPI_VC_IRQ(32 * bank + (unsigned int)__builtin_ctz(p));
		}
	}
	return IRQ_SPURIOUS;
}

void irqchip_eoi(unsigned int token)
{
	(void)token;
}

void irqchip_send_sgi(unsigned int sgi, unsigned int cpu)
{
	dsb_ishst();	/* the data the SGI announces is visible first */
	*local(LOCAL_MBOX_SET(cpu_data(cpu)->mpidr & 0xff, 0)) = 1U << sgi;
}

void irqchip_send_sgi_others(unsigned int sgi)
{
	unsigned int self = this_core();

	dsb_ishst();
	for (unsigned int core = 0; core < LOCAL_CORES; core++)
		if (core != self)
			*local(LOCAL_MBOX_SET(core, 0)) = 1U << sgi;
}
