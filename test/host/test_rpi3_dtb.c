/* sources: kernel/bootinfo/fdt.c */
/*
 * test/host/test_rpi3_dtb.c: the UART, the two interrupt controllers,
 * the CPUs' enable method and the crystal board/rpi3/board.h hard-codes,
 * held against Debian's real bcm2837-rpi-3-b.dtb (the device tree the
 * rpi-uboot stage boots with), read with the kernel's FDT reader and
 * translated through the buses' ranges. The kernel takes RAM, boot
 * arguments and its CPUs from that DTB at run time; these values it takes
 * from board.h, so they are checked here.
 *
 * argv[1] (the virt DTB every host test gets) is not used.
 */
#include <stdint.h>
#include <stdio.h>

#include "tap.h"
#include "rpi_dtb.h"

#include "../../board/rpi3/board.h"

static const struct rpi_window mmio_windows[] = BOARD_MMIO_WINDOWS;
#define in_mmio_window(base, size) \
	rpi_in_windows(mmio_windows, sizeof(mmio_windows) / sizeof(mmio_windows[0]), base, size)

int main(void)
{
	static const uint64_t mpidr[] = BOARD_CPU_MPIDRS, release[] = BOARD_SPIN_RELEASE_ADDRS;
	size_t size = 0;
	int ok, len;

	if (!rpi_dtb_load("bcm2837-rpi-3-b.dtb", &size)) {
		printf("not ok 1 - Debian's bcm2837-rpi-3-b.dtb under build/debs (tools/fetch-pi "
		       "fetches it; tools/setup runs it)\n");
		return 1;
	}
	tap_ok(fdt_check(fdt, size) == 0, "the kernel's FDT reader accepts the DTB");
	int root = fdt_path(fdt, "/"), soc = fdt_path(fdt, "/soc");

	tap_ok(fdt_prop_has_string(fdt, root, "compatible", "raspberrypi,3-model-b"),
	       "it is the Raspberry Pi 3 Model B's");
	uint64_t periph = soc >= 0 ? to_cpu(soc, 0x7e000000, &ok) : (ok = 0);

	tap_ok(ok && periph == BOARD_PERIPH_BASE, "bus address 0x7e000000 is CPU %#llx through "
	       "/soc ranges = BOARD_PERIPH_BASE %#lx", (unsigned long long)periph, BOARD_PERIPH_BASE);

	/* UART0: serial0, a PL011. */
	const char *path = fdt_prop(fdt, fdt_path(fdt, "/aliases"), "serial0", &len);
	int uart = path ? fdt_path(fdt, path) : -1;
	uint64_t base = uart >= 0 ? reg_cpu(uart, 0, &ok) : (ok = 0);

	tap_ok(uart >= 0 && fdt_prop_has_string(fdt, uart, "compatible", "arm,pl011") && ok &&
	       base == BOARD_UART_BASE && in_mmio_window(base, 0x1000),
	       "UART0 (serial0, arm,pl011) at CPU address %#llx after ranges = BOARD_UART_BASE "
	       "%#lx, inside BOARD_MMIO_WINDOWS", (unsigned long long)base, BOARD_UART_BASE);

	/* Its interrupt: <bank n> of the VideoCore controller, bank 1 holding
	 * GPU interrupts 0-31 and bank 2 32-63 (brcm,bcm2835-armctrl-ic
	 * binding); the board numbers GPU interrupt g as RPI_VC_IRQ(g). */
	int vc = find_phandle(root, (uint32_t)cells_of(root, "interrupt-parent", 0));
	const void *irq = uart >= 0 ? fdt_prop(fdt, uart, "interrupts", &len) : NULL;
	long gpu = irq && len == 8 && (fdt_be32(irq) == 1 || fdt_be32(irq) == 2) ?
		(long)(fdt_be32(irq) - 1) * 32 + fdt_be32((const uint8_t *)irq + 4) : -1;

	tap_ok(vc >= 0 && fdt_prop_has_string(fdt, vc, "compatible", "brcm,bcm2836-armctrl-ic") &&
	       gpu >= 0 && RPI_VC_IRQ(gpu) == BOARD_UART_IRQ,
	       "UART0's interrupt is GPU interrupt %ld of the VideoCore controller: "
	       "RPI_VC_IRQ(%ld) = BOARD_UART_IRQ %d", gpu, gpu, BOARD_UART_IRQ);

	uint64_t armctrl = vc >= 0 ? reg_cpu(vc, 0, &ok) : (ok = 0);

	tap_ok(ok && armctrl == BOARD_ARMCTRL_IC_BASE && in_mmio_window(armctrl, 0x200),
	       "VideoCore interrupt controller at %#llx after ranges = BOARD_ARMCTRL_IC_BASE %#lx",
	       (unsigned long long)armctrl, BOARD_ARMCTRL_IC_BASE);

	/* The local controller the VideoCore one reports to. */
	int vc_parent = vc >= 0 ? find_phandle(root, (uint32_t)cells_of(vc, "interrupt-parent", 0)) : -1;
	uint64_t local = vc_parent >= 0 ? reg_cpu(vc_parent, 0, &ok) : (ok = 0);

	tap_ok(vc_parent >= 0 && fdt_prop_has_string(fdt, vc_parent, "compatible",
						     "brcm,bcm2836-l1-intc") &&
	       ok && local == BOARD_LOCAL_INTC_BASE && in_mmio_window(local, 0x100),
	       "the VideoCore controller reports to the local controller (bcm2836-l1-intc) at "
	       "%#llx = BOARD_LOCAL_INTC_BASE %#lx", (unsigned long long)local,
	       BOARD_LOCAL_INTC_BASE);

	int osc = fdt_path(fdt, "/clocks/clk-osc");
	long hz = osc >= 0 ? (long)cells_of(osc, "clock-frequency", -1) : -1;

	tap_ok(hz == BOARD_TIMER_HZ_FALLBACK, "the crystal (/clocks/clk-osc) is %ld Hz = "
	       "BOARD_TIMER_HZ_FALLBACK %u", hz, BOARD_TIMER_HZ_FALLBACK);
	rpi_check_cpus(mpidr, release, sizeof(mpidr) / sizeof(mpidr[0]));
	return tap_done();
}
