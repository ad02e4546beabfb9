/* kernel/console/console.c: see console.h; the console's output. Its input (the
 * receive interrupt, the break key, the readers) is console_input.c, a
 * layer up. Built without patch sites: it is on the path from the tracer
 * to the UART. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "barrier.h"
#include "console.h"
#include "kprintf.h"
#include "spinlock.h"
#include "uart.h"

/* console_lock serialises the UART transmitter between CPUs. */
static struct spinlock console_lock = SPINLOCK_INIT;
static bool panic_mode;

void console_init(void)
{
	uart_init();
	/* A reset can cut the previous boot's output inside a binary frame
	 * (STX ... never ended), and a reader would take this boot's first
	 * lines for the rest of it. End it here: outside a frame, readers
	 * drop a lone ETX (0x03; docs/wire.md 1). */
	uart_putc(0x03);
}

/* Text to the UART: '\n' as "\r\n", frame delimiters as '?'. The caller
 * holds console_lock (or is in panic mode) with interrupts masked. */
static void put_text(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\n')
			uart_putc('\r');
		if (c == 0x02 || c == 0x03 || c == 0x10)
			c = '?';	/* frame delimiters never appear in text */
		uart_putc(c);
	}
}

/* 'locked' is !panic_mode read once by the caller, so lock and unlock
 * agree even if panic mode starts in between. */
static unsigned long console_lock_out(bool locked)
{
	unsigned long flags = irq_save();

	if (locked)
		spin_lock(&console_lock);
	return flags;
}

static void console_unlock_out(unsigned long flags, bool locked)
{
	if (locked)
		spin_unlock(&console_lock);
	irq_restore(flags);
}

void console_write(const char *s, size_t n)
{
	bool locked = !panic_mode;
	unsigned long flags = console_lock_out(locked);

	put_text(s, n);
	console_unlock_out(flags, locked);
}

void console_write_raw(const void *p, size_t n)
{
	unsigned long flags = irq_save();
	bool locked = !panic_mode;

	if (locked)
		spin_lock(&console_lock);
	uart_write(p, n);
	if (locked)
		spin_unlock(&console_lock);
	irq_restore(flags);
}

void console_panic_mode(void)
{
	panic_mode = true;
}

void kprintf(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < (int)sizeof(buf)) {
		console_write(buf, (size_t)n);
		return;
	}
	/* Longer than buf: format again in pieces, each written as it
	 * fills, all under the lock so the line stays whole and unmixed. */
	bool locked = !panic_mode;
	unsigned long flags = console_lock_out(locked);

	va_start(ap, fmt);
	kvformat_chunks(buf, sizeof(buf), put_text, fmt, ap);
	va_end(ap);
	console_unlock_out(flags, locked);
}
