/*
 * board/rpi-common/rpi.h: what the Raspberry Pi 3 (BCM2837) and 4
 * (BCM2711) share. A Pi board.h defines BOARD_PERIPH_BASE (where the ARM
 * sees the VideoCore peripherals at bus address 0x7E000000) and includes
 * this file; everything here is an offset from that base or a fact both
 * boards' firmware guarantees.
 *
 * Sources:
 *  [P]   BCM2835 ARM Peripherals (Broadcom, 2012), which the BCM2837 and
 *        BCM2711 peripheral manuals repeat for these blocks: GPIO ch. 6,
 *        interrupt controller ch. 7.5, UART ch. 13.
 *  [DT]  the upstream device trees, arch/arm/boot/dts/bcm283x.dtsi,
 *        bcm2837.dtsi and bcm2711.dtsi in Linux (read, not copied).
 *  [WD]  the power-management watchdog is not in [P]; its registers are
 *        described on elinux.org "BCM2835 registers" (PM block) and
 *        modelled at the same offsets by QEMU 7.2 hw/misc/bcm2835_powermgt.c.
 */
#ifndef BOARD_RPI_H
#define BOARD_RPI_H

/* Bus address 0x7Ezz_zzzz is ARM physical BOARD_PERIPH_BASE + 0zz_zzzz. */
#define RPI_PERIPH(bus_off)	(BOARD_PERIPH_BASE + (bus_off))

/* PM block: watchdog and reset control. [DT] watchdog@7e100000;
 * [WD] RSTC +0x1c, RSTS +0x20, WDOG +0x24, writes carry password 0x5a. */
#define RPI_PM_BASE		RPI_PERIPH(0x100000UL)

/* GPIO function select, [P] 6.1: GPFSEL1 at 0x7E200004 holds GPIO 10-19. */
#define RPI_GPIO_BASE		RPI_PERIPH(0x200000UL)

/* UART0 is a PL011: [P] 13.4 and [DT] serial@7e201000. The firmware
 * clocks it at 48 MHz (config.txt init_uart_clock, set explicitly by the
 * config.txt baretrace writes); it reaches the header on GPIO 14 (TXD0)
 * and 15 (RXD0) in alternate function 0 ([P] 6.2). */
#define BOARD_UART_BASE		RPI_PERIPH(0x201000UL)
#define BOARD_UART_CLK_HZ	48000000U
#define BOARD_UART_BAUD		115200U
#define RPI_UART_TX_GPIO	14
#define RPI_UART_RX_GPIO	15

/* Interrupt numbers. A VideoCore peripheral interrupt n (0-63, [P] 7.5
 * table "ARM peripherals interrupts": UART0 is 57) is GIC SPI 64 + n on
 * the BCM2711 ([DT] bcm2711.dtsi: system timer = SPI 64, uart0 = SPI 121),
 * that is interrupt ID 96 + n. The BCM2837 driver (bcm2836_intc.c) uses
 * the same IDs, so both boards number every interrupt alike. */
#define RPI_VC_IRQ(n)		(96 + (n))
#define BOARD_UART_IRQ		RPI_VC_IRQ(57)
/* EL1 virtual timer: GIC PPI 11 = ID 27 on the BCM2711 ([DT] bcm2711.dtsi
 * timer, third entry); the BCM2837 driver maps its CNTV source to 27. */
#define BOARD_TIMER_IRQ		27

/* RAM used when there is no DTB: the first bank the firmware reports
 * with the default gpu_mem (76 MiB for the VideoCore at the top of the
 * first GiB), which also stays clear of QEMU raspi3b's 64 MiB of video
 * RAM at 0x3C000000. The firmware's DTB says the real size. */
#define BOARD_RAM_BASE		0x0UL
#define BOARD_RAM_SIZE		0x3b400000UL

/* Secondary CPUs: the firmware's stub (armstub8 on the Pi 4, QEMU's
 * smpboot code on raspi3b) parks cores 1-3 polling a 64-bit release
 * address each, [DT] cpu-release-addr of cpu@0..3 in bcm2837.dtsi and
 * bcm2711.dtsi. Index = MPIDR Aff0; a DTB's own values take precedence. */
#define BOARD_SPIN_RELEASE_ADDRS	{ 0xd8, 0xe0, 0xe8, 0xf0 }
/* CPUs to start when there is no DTB ([DT] /cpus reg 0-3, one cluster). */
#define BOARD_CPU_MPIDRS		{ 0x0, 0x1, 0x2, 0x3 }

#endif /* BOARD_RPI_H */
