/*
 * board/rpi4/board.h: Raspberry Pi 4 Model B (BCM2711, four Cortex-A72).
 *
 * Sources:
 *  [P2711] BCM2711 ARM Peripherals (Raspberry Pi Ltd, 2020), address map
 *          chapter: in Low Peripheral mode (the default) bus address
 *          0x7Enn_nnnn is ARM address 0x0_FEnn_nnnn and the ARM-local
 *          block is at 0x0_FF80_0000; interrupts chapter: the GIC-400
 *          sits at ARM-local + 0x4_0000 (0x0_FF84_0000).
 *  [DT]    Linux arch/arm/boot/dts/bcm2711.dtsi: soc ranges
 *          <0x7e000000 0x0 0xfe000000 0x01800000> and
 *          <0x40000000 0x0 0xff800000 0x00800000>; gicv2 reg
 *          <0x40041000 0x1000> (distributor), <0x40042000 0x2000> (CPU
 *          interface); cpus cpu-release-addr 0xd8/0xe0/0xe8/0xf0; timer
 *          PPIs 13, 14, 11, 10; &clk_osc clock-frequency = <54000000>;
 *          &uart0 interrupts = <GIC_SPI 121>.
 *  [CFG]   Raspberry Pi config.txt documentation: arm_peri_high=0 (the
 *          default) keeps Low Peripheral mode; enable_gic=1 routes
 *          interrupts through the GIC-400; arm_64bit=1 boots kernel8.img
 *          through the firmware's armstub8, which enters the kernel at EL2
 *          and parks CPUs 1-3 on the spin table above.
 * Shared Pi facts (UART0, watchdog, interrupt numbering, spin table):
 * board/rpi-common/rpi.h.
 */
#ifndef BOARD_H
#define BOARD_H

#define BOARD_NAME		"rpi4"

/* [P2711] address map, [DT] soc ranges: peripherals at 0xFE000000. */
#define BOARD_PERIPH_BASE	0xfe000000UL

#include "../rpi-common/rpi.h"	/* UART0 0xFE201000, IRQ 153, RAM, spin table */

/* Device windows (2 MiB granules): the VideoCore peripherals
 * 0xFE000000-0xFF7FFFFF and the ARM-local block with the GIC-400,
 * 0xFF800000-0xFFFFFFFF ([DT] soc ranges). */
#define BOARD_MMIO_WINDOWS	{ { 0xfe000000UL, 0x02000000UL } }

/* GIC-400: [DT] gicv2 reg 0x40041000/0x40042000 through the ARM-local
 * range 0x40000000 -> 0xFF800000; [P2711] interrupts chapter. */
#define BOARD_GICD_BASE		0xff841000UL
#define BOARD_GICC_BASE		0xff842000UL

/* Generic timer: the firmware's armstub programs CNTFRQ_EL0 with the
 * 54 MHz crystal ([DT] clk_osc); drivers/gtimer.c reads the register and
 * uses this only if it reads zero. */
#define BOARD_TIMER_HZ_FALLBACK	54000000U

#endif /* BOARD_H */
