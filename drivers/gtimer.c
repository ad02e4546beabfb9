/*
 * drivers/gtimer.c: the Arm generic timer, EL1 virtual timer (CNTV_*).
 * The virtual timer is used because its registers are never trapped at
 * EL1, whichever level the kernel was entered at (head.S sets CNTVOFF=0).
 */
#include <stdint.h>

#include "barrier.h"
#include "ktime.h"

#include "board.h"

#define CNTV_CTL_ENABLE	(1 << 0)

uint64_t timer_read_hz(void)
{
	uint64_t hz = read_sysreg(cntfrq_el0);

	return hz ? hz : BOARD_TIMER_HZ_FALLBACK;
}

void timer_start(uint64_t interval)
{
	write_sysreg(cntv_tval_el0, interval);
	write_sysreg(cntv_ctl_el0, CNTV_CTL_ENABLE);
	isb();
}

void timer_rearm(uint64_t interval)
{
	/* Relative to now: a late tick delays the next, never bunches. */
	write_sysreg(cntv_tval_el0, interval);
	isb();
}

unsigned int timer_irq(void)
{
	return BOARD_TIMER_IRQ;
}
