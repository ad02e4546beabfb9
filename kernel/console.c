/* kernel/console.c: see console.h. Built without patch sites: it is on
 * the path from the tracer to the UART. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include <baretrace_events.h>
#include "console.h"
#include "irq.h"
#include "kprintf.h"
#include "spinlock.h"
#include "uart.h"

#include "board.h"

/* console_lock serialises the UART transmitter between CPUs. */
static struct spinlock console_lock = SPINLOCK_INIT;
static bool panic_mode;

/* Receive ring: written only by the UART interrupt (rx_head), read only
 * in thread context (rx_tail); power-of-two size, indices wrap. */
#define RX_SIZE 256
static char rx_buf[RX_SIZE];
static volatile uint32_t rx_head, rx_tail;
/* Set once the receive interrupt feeds rx_buf: from then on only the
 * interrupt reads the UART, or a poll could take a byte ahead of those
 * the interrupt is moving into the ring and swap their order. */
static volatile bool rx_irq_on;

void console_init(void)
{
	uart_init();
}

static void console_rx_irq(unsigned int irq, void *arg)
{
	int c;

	(void)irq;
	(void)arg;
	while ((c = uart_getc()) >= 0) {
		uint32_t head = rx_head;

		trace_event(uart, receive, c);
		if (head - rx_tail < RX_SIZE) {
			rx_buf[head % RX_SIZE] = (char)c;
			smp_store_release(&rx_head, head + 1);
		}
	}
}

void console_init_irq(void)
{
	irq_register(BOARD_UART_IRQ, console_rx_irq, NULL);
	smp_store_release(&rx_irq_on, true);
	uart_rx_irq_enable();
}

void console_write(const char *s, size_t n)
{
	unsigned long flags = irq_save();
	bool locked = !panic_mode;

	if (locked)
		spin_lock(&console_lock);
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\n')
			uart_putc('\r');
		if (c == 0x02 || c == 0x03 || c == 0x10)
			c = '?';	/* frame delimiters never appear in text */
		uart_putc(c);
	}
	if (locked)
		spin_unlock(&console_lock);
	irq_restore(flags);
}

void console_write_raw(const void *p, size_t n)
{
	const char *b = p;
	unsigned long flags = irq_save();
	bool locked = !panic_mode;

	if (locked)
		spin_lock(&console_lock);
	for (size_t i = 0; i < n; i++)
		uart_putc(b[i]);
	if (locked)
		spin_unlock(&console_lock);
	irq_restore(flags);
}

void console_panic_mode(void)
{
	panic_mode = true;
}

int console_trygetc(void)
{
	uint32_t tail = rx_tail;

	if (smp_load_acquire(&rx_head) == tail) {
		/* Before the receive interrupt is on, poll the UART itself. */
		return smp_load_acquire(&rx_irq_on) ? -1 : uart_getc();
	}
	int c = (unsigned char)rx_buf[tail % RX_SIZE];

	rx_tail = tail + 1;
	return c;
}

int console_getc(void)
{
	int c;

	while ((c = console_trygetc()) < 0)
		wfi();
	return c;
}

void kprintf(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf))
		n = sizeof(buf) - 1;
	console_write(buf, (size_t)n);
}
