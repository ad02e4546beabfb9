/*
 * kernel/report/power.h: leaving the machine. power_exit() and power_reset()
 * are in <baretrace.h>; the hardware side is the board's.
 */
#ifndef KERNEL_POWER_H
#define KERNEL_POWER_H

#include <baretrace.h>

#define EXIT_STATUS_CRASH	3	/* status reported after a crash */

/* Board side (drivers/psci.c or a board's own). Return only on failure. */
void hw_power_off(void);
void hw_reset(void);

#endif /* KERNEL_POWER_H */
