/* kernel/shell/console_input.c: see console_input.h; the console's input. Built
 * without patch sites, as the console's output (console.c) is: the
 * receive interrupt runs inside whatever it interrupts. */
#include <stdbool.h>
#include <stdint.h>

#include <baretrace_events.h>
#include "barrier.h"
#include "console_input.h"
#include "hang.h"
#include "irq.h"
#include "percpu.h"
#include "ktime.h"
#include "rx_ring.h"
#include "uart.h"

#include "board.h"

/* Receive ring (rx_ring.h): filled only by the UART interrupt, emptied
 * only in thread context. 1024 entries hold several pasted lines while
 * a command runs; past that, input is lost and the ring marks where. */
#define RX_SIZE 1024
static uint16_t rx_slots[RX_SIZE];
static struct rx_ring rx = { .slot = rx_slots, .size = RX_SIZE };
static volatile bool rx_irq_on;

/*
 * The break key (kernel/report/hang.h): a BREAK on the line, or Ctrl-\ twice
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

/*
 * The host's requests (docs/serial-line.md): DLE (0x10), CAN (0x18),
 * then a letter, each within a second of the one before:
 *   'i', 'h'  the end request: interrupt (the user's Ctrl-C) or hang
 *             (the host's time limit); the run then ends with a report
 *             (kernel/report/run_end.c);
 *   'c'       the capture's mark: a host program that keeps the trace
 *             frames (baretrace capture) reads this console, so the
 *             shell may start them (console_captured()).
 * Bytes of a sequence that turns out to be something else go on to the
 * reader, in order. end_held: bytes of the sequence seen so far (0 to
 * 2), end_at the counter at the last; only the receive interrupt uses
 * them.
 */
#define END_LEAD	0x10	/* DLE */
#define END_CMD		0x18	/* CAN */
static unsigned int end_held;
static uint64_t end_at;

/* Set by the receive interrupt at the capture's mark, never cleared (a
 * capture that leaves is not announced): read by thread code through
 * console_captured(). Release/acquire: a command read after the mark
 * sees it set. */
static bool host_captures;

static void put_input(int c)
{
	trace_event(uart, receive, c);
	rx_ring_put(&rx, (unsigned char)c);
}

/* True if a host request took c (its bytes are held, or it is complete). */
static bool is_host_request(int c)
{
	static const uint8_t lead[2] = { END_LEAD, END_CMD };
	uint64_t now = counter_read();
	bool in_time = now - end_at < time_counter_hz();

	if (end_held && in_time && end_held < 2 && c == lead[end_held]) {
		end_held++;
		end_at = now;
		return true;
	}
	if (end_held == 2 && in_time && c == 'c') {
		end_held = 0;
		smp_store_release(&host_captures, true);
		return true;
	}
	if (end_held == 2 && in_time && (c == 'i' || c == 'h')) {
		end_held = 0;
		run_end_request(c == 'i' ? RUN_INTERRUPT : RUN_HANG);
		return true;	/* it came back: another report was running */
	}
	for (unsigned int i = 0; i < end_held; i++)
		put_input(lead[i]);	/* not a request: the reader's bytes */
	end_held = c == END_LEAD;
	end_at = now;
	return end_held != 0;
}

bool console_captured(void)
{
	return smp_load_acquire(&host_captures);
}

/* Here, not in shell.c, to add no patch site: this file has none. Set
 * and cleared by the shell's CPU, read on that CPU only (typed_cpu), so
 * they need no lock. */
static const char *typed;
static unsigned int typed_cpu;

void console_set_typed(const char *cmd)
{
	typed_cpu = cpu_id();
	typed = cmd;
}

const char *console_typed_command(void)
{
	return typed && cpu_id() == typed_cpu ? typed : NULL;
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
		if (c != UART_RX_BREAK && is_host_request(c))
			continue;
		put_input(c);
	}
}

void console_init_irq(void)
{
	irq_register(BOARD_UART_IRQ, console_rx_irq, NULL);
	smp_store_release(&rx_irq_on, true);
	uart_rx_irq_enable();
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
