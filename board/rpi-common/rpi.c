/*
 * board/rpi-common/rpi.c: what board data cannot express on a Raspberry
 * Pi: routing UART0 to the header pins, and reset and power-off through
 * the PM watchdog (the Pi has no PSCI). Shared by board/rpi3 and
 * board/rpi4; addresses and sources are in rpi.h.
 */
#include <stdint.h>

#include "barrier.h"
#include "ktime.h"
#include "power.h"
#include "uart.h"

#include "board.h"

/* GPIO function select ([P] 6.1): three bits per pin, ten pins a register. */
#define GPFSEL(n)		(RPI_GPIO_BASE + 4 * (n))
#define GPIO_FSEL_ALT0		4

/* PM watchdog ([WD]). Every write carries the password in bits 31:24. */
#define PM_RSTC			(RPI_PM_BASE + 0x1c)
#define PM_RSTS			(RPI_PM_BASE + 0x20)
#define PM_WDOG			(RPI_PM_BASE + 0x24)
#define PM_PASSWORD		0x5a000000U
#define PM_VALUE_MASK		0x00ffffffU
#define PM_RSTC_WRCFG_MASK	0x00000030U
#define PM_RSTC_WRCFG_FULL	0x00000020U	/* full reset when WDOG expires */
#define PM_WDOG_TICKS		10		/* ~150 us at 65536 ticks/s */
/* RSTS bits 0, 2, ... 10 hold the boot partition for the firmware after a
 * watchdog reset; partition 63 (all six set) tells it to halt instead of
 * booting, the Pi's only "power off". QEMU's model shuts down on it. */
#define PM_RSTS_PARTITION_HALT	0x00000555U

static inline volatile uint32_t *reg32(uintptr_t addr)
{
	return (volatile uint32_t *)addr;
}

static void gpio_set_function(unsigned int pin, uint32_t fsel)
{
	volatile uint32_t *r = reg32(GPFSEL(pin / 10));
	unsigned int shift = 3 * (pin % 10);

	*r = (*r & ~(7U << shift)) | (fsel << shift);
}

/* drivers/pl011.c calls this before enabling the UART: whatever the
 * firmware left on GPIO 14/15 (the mini UART, with Bluetooth on the
 * PL011), the header pins now carry UART0. */
void board_uart_pins(void)
{
	gpio_set_function(RPI_UART_TX_GPIO, GPIO_FSEL_ALT0);
	gpio_set_function(RPI_UART_RX_GPIO, GPIO_FSEL_ALT0);
}

static void watchdog_fire(void)
{
	uint32_t rstc = *reg32(PM_RSTC) & PM_VALUE_MASK & ~PM_RSTC_WRCFG_MASK;

	*reg32(PM_WDOG) = PM_PASSWORD | PM_WDOG_TICKS;
	*reg32(PM_RSTC) = PM_PASSWORD | rstc | PM_RSTC_WRCFG_FULL;
	dsb_sy();
	time_delay_us(100000);	/* the reset takes ~150 us; 100 ms means it failed */
}

void hw_reset(void)
{
	watchdog_fire();
}

void hw_power_off(void)
{
	uint32_t rsts = *reg32(PM_RSTS) & PM_VALUE_MASK;

	*reg32(PM_RSTS) = PM_PASSWORD | rsts | PM_RSTS_PARTITION_HALT;
	watchdog_fire();
}
