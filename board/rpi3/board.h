/*
 * board/rpi3/board.h: Raspberry Pi 3 Model B (BCM2837, four Cortex-A53),
 * and QEMU's raspi3b model of it, the Pi family's runnable stand-in: it
 * shares every Pi source with board/rpi4 and differs in the interrupt
 * controller (no GIC) and the peripheral base.
 *
 * Sources:
 *  [P]     BCM2835 ARM Peripherals (Broadcom, 2012) 1.2.3: bus address
 *          0x7Ennnnnn is ARM physical 0x3Fnnnnnn on the BCM2836/7.
 *  [QA7]   BCM2836 ARM-local peripherals (QA7 rev 3.4, Raspberry Pi):
 *          core timer, local interrupt routing and mailbox registers at
 *          0x40000000; the core timer runs from the 19.2 MHz crystal.
 *  [DT]    Linux arch/arm/boot/dts/bcm2837.dtsi: soc ranges
 *          <0x7e000000 0x3f000000 0x1000000> and
 *          <0x40000000 0x40000000 0x00001000>; local_intc reg
 *          <0x40000000 0x100>; cpus cpu-release-addr 0xd8/0xe0/0xe8/0xf0.
 *  [QEMU]  QEMU 7.2 hw/arm/raspi.c and bcm2836.c, checked by booting:
 *          raspi3b enters at EL2, loads an Image with text_offset 0 at
 *          0x200000, parks CPUs 1-3 in a stub polling 0xd8 + 8 * n, passes
 *          no DTB (x0 = 0x100) unless given -dtb, has 1 GiB of RAM, and
 *          sets CNTFRQ_EL0 to 62.5 MHz.
 * Shared Pi facts (UART0, watchdog, interrupt numbering, spin table):
 * board/rpi-common/rpi.h.
 */
#ifndef BOARD_H
#define BOARD_H

#define BOARD_NAME		"rpi3"

/* [P] 1.2.3, [DT] soc ranges: peripherals at 0x3F000000. */
#define BOARD_PERIPH_BASE	0x3f000000UL

#include "../rpi-common/rpi.h"	/* UART0 0x3F201000, IRQ 153, RAM, spin table */

/* Device windows: the peripherals 0x3F000000-0x3FFFFFFF and the
 * ARM-local block at 0x40000000 ([DT] soc ranges; one 2 MiB block). */
#define BOARD_MMIO_WINDOWS	{ { 0x3f000000UL, 0x01000000UL }, \
				  { 0x40000000UL, 0x00200000UL } }

/* [QA7] and [DT] local_intc: the BCM2836 local interrupt controller;
 * [P] 7.5 and [DT] bcm2837.dtsi &intc reg <0x7e00b200 0x200>: the
 * VideoCore interrupt controller behind its "GPU interrupt" input. */
#define BOARD_LOCAL_INTC_BASE	0x40000000UL
#define BOARD_ARMCTRL_IC_BASE	RPI_PERIPH(0x00b200UL)

/* Generic timer: the real board's firmware sets CNTFRQ_EL0 to the
 * 19.2 MHz crystal ([QA7]), QEMU to 62.5 MHz; the register is read
 * and this used only if it reads zero. */
#define BOARD_TIMER_HZ_FALLBACK	19200000U

#endif /* BOARD_H */
