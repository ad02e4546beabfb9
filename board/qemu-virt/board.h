/*
 * board/qemu-virt/board.h: QEMU's arm64 'virt' machine.
 *
 * Addresses come from QEMU 7.2 hw/arm/virt.c (base_memmap and a15irqmap),
 * which is also what the DTB QEMU generates reports. Generic code reads
 * these names only; nothing outside board/ knows which board this is.
 */
#ifndef BOARD_H
#define BOARD_H

#define BOARD_NAME		"qemu-virt"

/* RAM: virt.c VIRT_MEM at 1 GiB; the size is whatever -m says, so the
 * kernel reads /memory from the DTB and uses this only as a fallback. */
#define BOARD_RAM_BASE		0x40000000UL
#define BOARD_RAM_SIZE		0x20000000UL	/* 512 MiB, the default run */

/* Device windows mapped as Device-nGnRE (2 MiB granules). virt.c:
 * VIRT_GIC_DIST 0x08000000, VIRT_GIC_CPU 0x08010000, VIRT_UART 0x09000000,
 * VIRT_RTC/FW_CFG/GPIO up to 0x09040000. */
#define BOARD_MMIO_WINDOWS	{ { 0x08000000UL, 0x02000000UL } }

/* PL011 UART0. Clock: the DTB's apb-pclk is a fixed 24 MHz clock. */
#define BOARD_UART_BASE		0x09000000UL
#define BOARD_UART_CLK_HZ	24000000U
#define BOARD_UART_BAUD		115200U
#define BOARD_UART_IRQ		33	/* a15irqmap VIRT_UART = SPI 1 */

/* GICv2 (virt's default gic-version=2). */
#define BOARD_GICD_BASE		0x08000000UL
#define BOARD_GICC_BASE		0x08010000UL

/* Generic timer: CNTFRQ_EL0 is valid on QEMU (62.5 MHz in 7.2); this is
 * only used if the register reads zero. EL1 virtual timer PPI: INTID 27. */
#define BOARD_TIMER_HZ_FALLBACK	62500000U
#define BOARD_TIMER_IRQ		27

/* CPUs (MPIDR affinities) if the DTB has no /cpus: QEMU always writes
 * /cpus for virt, so this only keeps the boot CPU (affinity 0). */
#define BOARD_CPU_MPIDRS	{ 0x0 }

#endif /* BOARD_H */
