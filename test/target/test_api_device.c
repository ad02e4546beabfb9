/* test/target/test_api_device.c: include/baretrace/device.h. The console
 * UART (a PL011 on every board) is found by its compatible, mapped into
 * the device window, and read through the API; each answer is compared
 * with what the kernel's own driver uses (its base, board.h's interrupt
 * ID) and with the registers read through the kernel's identity map. */
#include <stdint.h>

#include <baretrace.h>

#include "console_input.h"
#include "fdt_dev.h"
#include "ktest.h"
#include "mmu.h"

#include "board.h"

/* The arm,pl011 node at the kernel console's base: 0, or a BT_E*. */
static int find_console_uart(struct bt_device *d)
{
	uintptr_t kernel_base = *uart_fdt_base.base;
	int err;

	for (unsigned int i = 0; (err = bt_dev_find("arm,pl011", i, d)) == 0; i++)
		if (d->base == kernel_base)
			return 0;
	return err;
}

/* The attribute index and physical address a stage 1 EL1 read of va
 * translates to (AT S1E1R, PAR_EL1), or ~0 if it faults. */
static uint64_t translate(const volatile void *va, unsigned int *attr)
{
	uint64_t par;

	__asm__ volatile("at s1e1r, %1\n\tisb\n\tmrs %0, par_el1"
			 : "=r"(par) : "r"(va) : "memory");
	if (par & 1)
		return ~0ULL;
	*attr = (unsigned int)(par >> 56);
	return (par & 0x0000fffffffff000ULL) | ((uintptr_t)va & 0xfff);
}

KTEST(api_dev_finds_maps_and_reads_the_pl011)
{
	struct bt_device d;
	volatile uint8_t *regs = NULL;
	int err = find_console_uart(&d);

	if (err == BT_ENODTB)
		return ktest_skip(t, "no device tree (QEMU raspi3b boots without one)");
	if (!KT_EQ(t, err, 0))
		return;
	KT_EQ(t, d.irq, BOARD_UART_IRQ);	/* the console driver's ID */
	KT_EXPECT(t, d.size >= 0x48);	/* up to the interrupt registers */
	/* The PL011's block is 4 KiB with the ID words at its end (TRM 3.2);
	 * the Pi trees give reg a size of 0x200 (bcm283x.dtsi), so map the
	 * whole block. */
	if (!KT_EQ(t, bt_dev_map(d.base, 0x1000, &regs), 0))
		return;
	KT_EXPECT(t, (uintptr_t)regs >= DEVMAP_BASE &&
		     (uintptr_t)regs < DEVMAP_BASE + DEVMAP_SIZE);

	unsigned int attr = 0xff;

	KT_EQ(t, translate(regs + 0xfe0, &attr), d.base + 0xfe0);
	KT_EQ(t, attr, 0x04);	/* MAIR encoding of Device-nGnRE */

	/* PrimeCell identification (PL011 TRM 3.3.13-3.3.14): peripheral
	 * ID 0x?41011, cell ID 0xB105F00D. The same words through the
	 * kernel's own mapping of the console. */
	const volatile uint32_t *kernel = (const volatile uint32_t *)*uart_fdt_base.base;

	for (unsigned int off = 0xfe0; off < 0x1000; off += 4)
		KT_EQ(t, bt_read32(regs + off), kernel[off / 4]);
	KT_EQ(t, bt_read32(regs + 0xfe0) & 0xff, 0x11);
	KT_EQ(t, bt_read32_relaxed(regs + 0xfe4) & 0xff, 0x10);
	KT_EQ(t, bt_read32(regs + 0xff0) & 0xff, 0x0d);
	KT_EQ(t, bt_read32(regs + 0xffc) & 0xff, 0xb1);
}

static int ram_word;

KTEST(api_dev_map_refuses_ram_and_bad_ranges)
{
	volatile uint8_t *va = (volatile uint8_t *)1;
	struct bt_device d;

	KT_EQ(t, bt_dev_map((uintptr_t)&ram_word, 4, &va), BT_ERAM);
	KT_EQ(t, bt_dev_map((uintptr_t)bt_dev_map, 4, &va), BT_ERAM);	/* image text */
	KT_EQ(t, bt_dev_map(0x1000, 0, &va), BT_EINVAL);
	KT_EQ(t, bt_dev_map(UINT64_MAX - 10, 100, &va), BT_EINVAL);
	KT_EQ(t, bt_dev_map(1ULL << 56, 4096, &va), BT_ERANGE);
	KT_EQ(t, (uintptr_t)va, 1);	/* untouched by every refusal */
	int err = bt_dev_find("baretrace,no-such-device", 0, &d);

	KT_EXPECT(t, err == BT_ENODEV || err == BT_ENODTB);
	KT_EQ(t, bt_dev_find(NULL, 0, &d), BT_EINVAL);
	for (int e = BT_EINVAL; e >= BT_ERANGE; e--)
		KT_EXPECT(t, bt_strerror(e)[0] != 'u');	/* not "unknown error" */
}

static volatile unsigned int irq_hits, irq_seen, irq_cpu;

static void count_irq(unsigned int irq, void *arg)
{
	(void)arg;
	irq_seen = irq;
	irq_cpu = smp_cpu_id();
	irq_hits++;
}

/* The UART's interrupt ID from the DTB goes to irq_register and fires:
 * set pending by software through the GIC distributor (GICD_ISPENDRn,
 * GICv2 architecture spec 4.3.7), itself found and mapped by the API.
 * The console's handler is put back afterwards. */
KTEST(api_dev_irq_from_dtb_reaches_irq_register)
{
	struct bt_device uart, gic;
	volatile uint8_t *gicd;

	if (find_console_uart(&uart))
		return ktest_skip(t, "no console PL011 in the device tree");
	if (bt_dev_find("arm,gic-400", 0, &gic) && bt_dev_find("arm,cortex-a15-gic", 0, &gic))
		return ktest_skip(t, "no GIC: this interrupt controller cannot pend by software");
	if (!KT_EQ(t, bt_dev_map(gic.base, 0x1000, &gicd), 0) || !KT_EXPECT(t, uart.irq >= 32))
		return;
	irq_hits = 0;
	KT_EQ(t, irq_register((unsigned int)uart.irq, count_irq, NULL), 0);
	bt_write32(1U << (uart.irq % 32), gicd + 0x200 + 4 * (uart.irq / 32));
	for (int i = 0; i < 100 && !irq_hits; i++)
		time_wait_tick(time_ticks(), 100000);
	console_init_irq();
	KT_EQ(t, irq_hits, 1);
	KT_EQ(t, irq_seen, uart.irq);
	KT_EQ(t, irq_cpu, 0);
}
