/* kernel/console.c: see console.h. Built without patch sites: it is on
 * the path from the tracer to the UART. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include <baretrace_events.h>
#include "console.h"
#include "hang.h"
#include "irq.h"
#include "kprintf.h"
#include "ktime.h"
#include "rx_ring.h"
#include "spinlock.h"
#include "uart.h"

#include "board.h"

/* console_lock serialises the UART transmitter between CPUs. */
static struct spinlock console_lock = SPINLOCK_INIT;
static bool panic_mode;

/* Receive ring (rx_ring.h): filled only by the UART interrupt, emptied
 * only in thread context. 1024 entries hold several pasted lines while
 * a command runs; past that, input is lost and the ring marks where. */
#define RX_SIZE 1024
static uint16_t rx_slots[RX_SIZE];
static struct rx_ring rx = { .slot = rx_slots, .size = RX_SIZE };
static volatile bool rx_irq_on;

void console_init(void)
{
	uart_init();
	/* A reset can cut the previous boot's output inside a binary frame
	 * (STX ... never ended), and a reader would take this boot's first
	 * lines for the rest of it. End it here: outside a frame, readers
	 * drop a lone ETX (0x03; docs/wire.md 1). */
	uart_putc(0x03);
}

/*
 * The break key (kernel/hang.h): a BREAK on the line, or Ctrl-\ twice
 * within a second with nothing between them, so that any terminal (and
 * QEMU's stdio, where a BREAK is Ctrl-A b) can send it. The first Ctrl-\
 * goes on to the reader like any byte; the second, the break key, does
 * not. Handled here, in the receive interrupt, so it works while
 * thread code spins with interrupts on. quit_at: counter at the first
 * Ctrl-\ of a pair, 0 = none; only the receive interrupt uses it.
 */
#define BREAK_CHAR	0x1c	/* Ctrl-\ */
static uint64_t quit_at;

static bool is_break_key(int c)
{
	if (c == UART_RX_BREAK)
		return true;
	if (c != BREAK_CHAR) {
		quit_at = 0;
		return false;
	}
	uint64_t now = counter_read();

	if (quit_at && now - quit_at < time_counter_hz()) {
		quit_at = 0;
		return true;
	}
	quit_at = now;
	return false;
}

static void console_rx_irq(unsigned int irq, void *arg)
{
	int c;

	(void)irq;
	(void)arg;
	while ((c = uart_getc()) >= 0) {
		if (is_break_key(c)) {
			hang_break();
			continue;
		}
		trace_event(uart, receive, c);
		rx_ring_put(&rx, (unsigned char)c);
	}
}

void console_init_irq(void)
{
	irq_register(BOARD_UART_IRQ, console_rx_irq, NULL);
	smp_store_release(&rx_irq_on, true);
	uart_rx_irq_enable();
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

/* The next input: a byte, RX_LOST or -1. */
static int next_input(void)
{
	int c = rx_ring_take(&rx);

	/* Before the receive interrupt is on, poll the UART itself. */
	if (c < 0 && !smp_load_acquire(&rx_irq_on)) {
		c = uart_getc();
		if (c == UART_RX_BREAK)
			c = -1;	/* no report before interrupts are on */
	}
	return c;
}

int console_trygetc(void)
{
	int c;

	while ((c = next_input()) == RX_LOST)
		;	/* byte readers (newlib's read) skip the marks */
	return c;
}

int console_getc(void)
{
	int c;

	while ((c = console_trygetc()) < 0)
		wfi();
	return c;
}

int console_get_input(void)
{
	int c;

	while ((c = next_input()) < 0)
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
