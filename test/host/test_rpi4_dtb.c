/* sources: kernel/bootinfo/fdt.c */
/*
 * test/host/test_rpi4_dtb.c: every value board/rpi4/board.h hard-codes,
 * held against Debian's real Raspberry Pi 4 device tree (the arm64
 * kernel package's broadcom/bcm2711-rpi-4-b.dtb, fetched into build/debs
 * by tools/fetch-pi), read with the kernel's own FDT reader. Register
 * addresses are translated to the ARM's view through each bus's "ranges"
 * (devicetree specification v0.4 2.3.8), as a device tree consumer must:
 * the DTB names them by VideoCore bus address (0x7E201000), the board by
 * ARM physical address (0xFE201000).
 *
 * argv[1] (the virt DTB every host test gets) is not used; the Pi 4 DTB
 * is found under build/debs from the repository root (test/run.py runs
 * host tests there).
 */
#include <stdint.h>
#include <stdio.h>

#include "tap.h"
#include "rpi_dtb.h"

#include "../../board/rpi4/board.h"

#define CONFIG_TXT "board/rpi4/config.txt"

/* A GIC interrupt specifier <type number flags> as an interrupt ID: SPI
 * n is 32 + n, PPI n is 16 + n (GIC-400 binding, arm,gic.yaml). */
static long gic_id(const void *spec)
{
	uint32_t type = fdt_be32(spec), n = fdt_be32((const uint8_t *)spec + 4);

	return type == 0 ? 32 + (long)n : type == 1 ? 16 + (long)n : -1;
}

static const struct rpi_window mmio_windows[] = BOARD_MMIO_WINDOWS;
#define in_mmio_window(base, size) \
	rpi_in_windows(mmio_windows, sizeof(mmio_windows) / sizeof(mmio_windows[0]), base, size)

static void check_uart(int root)
{
	int len, ok;
	const char *path = fdt_prop(fdt, fdt_path(fdt, "/aliases"), "serial0", &len);
	int uart = path ? fdt_path(fdt, path) : -1;
	uint64_t base = uart >= 0 ? reg_cpu(uart, 0, &ok) : (ok = 0);

	tap_ok(uart >= 0 && fdt_prop_has_string(fdt, uart, "compatible", "arm,pl011") &&
		  ok && base == BOARD_UART_BASE && in_mmio_window(base, 0x1000),
		  "UART0 (serial0, arm,pl011) at CPU address %#llx after ranges = BOARD_UART_BASE %#lx, "
		  "inside BOARD_MMIO_WINDOWS", (unsigned long long)base, BOARD_UART_BASE);

	const void *irq = uart >= 0 ? fdt_prop(fdt, uart, "interrupts", &len) : NULL;
	long id = irq && len == 12 ? gic_id(irq) : -1;
	int gic = find_phandle(root, (uint32_t)cells_of(root, "interrupt-parent", 0));

	tap_ok(id == BOARD_UART_IRQ && gic >= 0 &&
		  fdt_prop_has_string(fdt, gic, "compatible", "arm,gic-400"),
		  "UART0's interrupt goes to the GIC-400 as ID %ld = BOARD_UART_IRQ %d", id,
		  BOARD_UART_IRQ);

	/* The DTB gives UART0's clock as a clock of the clock manager, whose
	 * rate the firmware sets from config.txt's init_uart_clock: the board
	 * value must be what baretrace's config.txt asks for. */
	const void *clk = uart >= 0 ? fdt_prop(fdt, uart, "clocks", &len) : NULL;
	int mgr = clk && len >= 8 ? find_phandle(root, fdt_be32(clk)) : -1;
	uint32_t clk_id = clk && len >= 8 ? fdt_be32((const uint8_t *)clk + 4) : 0;
	FILE *f = fopen(CONFIG_TXT, "r");
	char line[256];
	unsigned long hz = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "init_uart_clock=%lu", &hz) == 1)
			break;
	if (f)
		fclose(f);
	/* 19: BCM2835_CLOCK_UART in the clock manager binding's numbering
	 * (include/dt-bindings/clock/bcm2835.h). */
	tap_ok(mgr >= 0 && fdt_prop_has_string(fdt, mgr, "compatible", "brcm,bcm2711-cprman") &&
		  clk_id == 19 && hz == BOARD_UART_CLK_HZ,
		  "UART0's clock is the clock manager's UART clock, set by %s init_uart_clock=%lu "
		  "= BOARD_UART_CLK_HZ %u", CONFIG_TXT, hz, BOARD_UART_CLK_HZ);
}

static void check_gic_timer(int root)
{
	int gic = find_compatible(root, "arm,gic-400"), ok1, ok2;
	uint64_t d = gic >= 0 ? reg_cpu(gic, 0, &ok1) : (ok1 = 0);
	uint64_t c = gic >= 0 ? reg_cpu(gic, 1, &ok2) : (ok2 = 0);

	tap_ok(ok1 && d == BOARD_GICD_BASE && in_mmio_window(d, 0x1000),
		  "GIC-400 distributor (reg 0) at %#llx after ranges = BOARD_GICD_BASE %#lx",
		  (unsigned long long)d, BOARD_GICD_BASE);
	tap_ok(ok2 && c == BOARD_GICC_BASE && in_mmio_window(c, 0x2000),
		  "GIC-400 CPU interface (reg 1) at %#llx after ranges = BOARD_GICC_BASE %#lx",
		  (unsigned long long)c, BOARD_GICC_BASE);

	/* arm,armv8-timer interrupts: secure, non-secure physical, virtual,
	 * hypervisor; baretrace runs on the EL1 virtual timer (the third). */
	int timer = find_compatible(root, "arm,armv8-timer"), len;
	const void *irq = timer >= 0 ? fdt_prop(fdt, timer, "interrupts", &len) : NULL;
	long id = irq && len >= 36 ? gic_id((const uint8_t *)irq + 24) : -1;

	tap_ok(id == BOARD_TIMER_IRQ, "virtual timer interrupt (3rd of arm,armv8-timer) is "
		  "ID %ld = BOARD_TIMER_IRQ %d", id, BOARD_TIMER_IRQ);
	int osc = fdt_path(fdt, "/clocks/clk-osc");
	long hz = osc >= 0 ? (long)cells_of(osc, "clock-frequency", -1) : -1;

	tap_ok(hz == BOARD_TIMER_HZ_FALLBACK, "the crystal (/clocks/clk-osc) is %ld Hz = "
		  "BOARD_TIMER_HZ_FALLBACK %u", hz, BOARD_TIMER_HZ_FALLBACK);
}

static void check_cpus(void)
{
	static const uint64_t mpidr[] = BOARD_CPU_MPIDRS, release[] = BOARD_SPIN_RELEASE_ADDRS;

	rpi_check_cpus(mpidr, release, sizeof(mpidr) / sizeof(mpidr[0]));
}

static void check_memory(int root)
{
	/* The firmware fills /memory's reg at boot (the file has zeros);
	 * what the DTB fixes is where the bank starts (its unit address) and
	 * that the first GiB is RAM every Pi 4 has: the soc bus's dma-ranges
	 * map bus 0xC0000000 onto CPU 0 for 1 GiB. BOARD_RAM_* (used without
	 * a DTB) must lie there and clear of every translated device range. */
	int mem = fdt_path(fdt, "/memory@0"), soc = fdt_path(fdt, "/soc"), len;
	const void *dma = soc >= 0 ? fdt_prop(fdt, soc, "dma-ranges", &len) : NULL;
	uint64_t end = BOARD_RAM_BASE + BOARD_RAM_SIZE, dma_cpu = 1, dma_size = 0;

	if (dma && len == 16) {	/* <child(1) parent(2) size(1)> */
		dma_cpu = cells_at(dma, 1, 2);
		dma_size = cells_at(dma, 3, 1);
	}
	tap_ok(mem >= 0 && BOARD_RAM_BASE == 0 && dma_cpu == BOARD_RAM_BASE &&
		  end <= dma_cpu + dma_size,
		  "RAM %#lx+%#lx: /memory@0, inside the first GiB the soc dma-ranges map "
		  "(%#llx+%#llx)", BOARD_RAM_BASE, BOARD_RAM_SIZE,
		  (unsigned long long)dma_cpu, (unsigned long long)dma_size);

	const void *r = soc >= 0 ? fdt_prop(fdt, soc, "ranges", &len) : NULL;
	int clear = r != NULL;

	for (int i = 0; r && i + 4 <= len / 4; i += 4)	/* <child(1) parent(2) size(1)> */
		if (cells_at(r, i + 1, 2) < end)
			clear = 0;
	tap_ok(clear, "RAM ends at %#llx, below every device range of /soc",
		  (unsigned long long)end);
	(void)root;
}

int main(void)
{
	size_t size = 0;

	if (!rpi_dtb_load("bcm2711-rpi-4-b.dtb", &size)) {
		printf("not ok 1 - Debian's bcm2711-rpi-4-b.dtb under build/debs (tools/fetch-pi "
		       "fetches it; tools/setup runs it)\n");
		return 1;
	}
	tap_ok(fdt_check(fdt, size) == 0, "the kernel's FDT reader accepts the DTB");
	int root = fdt_path(fdt, "/");

	tap_ok(fdt_prop_has_string(fdt, root, "compatible", "raspberrypi,4-model-b"),
		  "it is the Raspberry Pi 4 Model B's");

	int ok, soc = fdt_path(fdt, "/soc");
	uint64_t periph = soc >= 0 ? to_cpu(soc, 0x7e000000, &ok) : (ok = 0);

	tap_ok(ok && periph == BOARD_PERIPH_BASE, "bus address 0x7e000000 is CPU %#llx "
		  "through /soc ranges = BOARD_PERIPH_BASE %#lx", (unsigned long long)periph,
		  BOARD_PERIPH_BASE);
	check_uart(root);
	check_gic_timer(root);
	check_cpus();
	check_memory(root);
	return tap_done();
}
