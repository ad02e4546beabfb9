/* kernel/api/console_read.c: include/baretrace/console.h, the
 * application's reads from the console's receive ring
 * (kernel/shell/console_input.c fills it from the UART interrupt). */
#include <stddef.h>
#include <stdint.h>

#include <baretrace.h>

#include "barrier.h"
#include "console_input.h"

int bt_console_trygetc(void)
{
	return console_trygetc();
}

/* Idles until the next interrupt; a byte arrives only by one (the UART's
 * on CPU 0) and the tick bounds the wait on every CPU. With interrupts
 * masked no handler would run to wake it, so it spins instead. */
static void wait_a_little(void)
{
	if (bt_irqs_masked())
		cpu_relax();
	else
		wfi();
}

int bt_console_getc_timeout(uint64_t timeout_us)
{
	uint64_t start = time_counter();
	uint64_t ticks = (timeout_us * time_counter_hz() + 999999) / 1000000;
	int c;

	while ((c = console_trygetc()) < 0) {
		if (time_counter() - start >= ticks)
			return -1;
		wait_a_little();
	}
	return c;
}

size_t bt_console_read(void *buf, size_t len, uint64_t timeout_us)
{
	unsigned char *p = buf;
	size_t n = 0;
	int c;

	if (!len || (c = bt_console_getc_timeout(timeout_us)) < 0)
		return 0;
	p[n++] = (unsigned char)c;
	while (n < len && (c = console_trygetc()) >= 0)
		p[n++] = (unsigned char)c;
	return n;
}
