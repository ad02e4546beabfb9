/*
 * tools/baretrace/capture/capture_keys.c: the capture's way back to the
 * target. Keystrokes (or, when stdin is no terminal, whatever stdin
 * holds) and --exec commands are queued here and written to the target
 * as fast as it takes them, never blocking the capture: the fd toward
 * the target is non-blocking, and stdin is read only while the queue has
 * room, so a slow target slows the sender, not the capture.
 *
 * A QEMU we start gets nothing before it has printed: its UART drops
 * what arrives before the guest sets it up (QEMU's PL011 empties its
 * FIFO when the guest turns the FIFO on), so keys wait in the queue for
 * the first console text (capture.c lifts 'hold').
 *
 * A terminal on stdin is set raw, so every key goes to the target as
 * typed, but for two: Ctrl-] leaves, and Ctrl-C asks the target to end
 * the run (the end request, as SIGINT does: capture.c). The terminal is put back on
 * every way out: the end of the capture, a signal (handlers only set a
 * flag, the capture then returns normally), and exit() from an error
 * (atexit).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "../base/util.h"

#include "capture.h"
#include "outcome.h"

static struct termios saved;
static int saved_valid;

void bt_keys_restore(void)
{
	if (!saved_valid)
		return;
	saved_valid = 0;
	tcsetattr(STDIN_FILENO, TCSADRAIN, &saved);
}

/* Raw input, but output still turns '\n' into "\r\n" (our own messages). */
static int set_raw(void)
{
	struct termios t;
	static int registered;

	if (tcgetattr(STDIN_FILENO, &saved))
		return -1;
	t = saved;
	cfmakeraw(&t);
	t.c_oflag |= OPOST;
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (!registered++)
		atexit(bt_keys_restore);
	saved_valid = 1;
	if (tcsetattr(STDIN_FILENO, TCSADRAIN, &t)) {
		saved_valid = 0;
		return -1;
	}
	return 0;
}

void bt_keys_init(struct bt_keys *k, int out)
{
	memset(k, 0, sizeof(*k));
	k->out = out;
	k->in = -1;
}

void bt_keys_listen(struct bt_keys *k)
{
	if (k->out < 0 || k->listened++)
		return;
	if (isatty(STDIN_FILENO)) {
		pid_t fg = tcgetpgrp(STDIN_FILENO);

		/* A background job must not touch its terminal (SIGTTIN/TTOU). */
		if (fg >= 0 && fg != getpgrp())
			return;
		if (set_raw()) {
			bt_warn("cannot set the terminal raw (%s): keys are not forwarded",
				strerror(errno));
			return;
		}
		k->tty = 1;
		bt_con_break();
		fprintf(stderr, "baretrace capture: keys go to the target; Ctrl-] leaves\n");
	}
	k->in = STDIN_FILENO;
}

void bt_keys_read(struct bt_keys *k)
{
	ssize_t n;

	if (k->in < 0 || k->len == sizeof(k->buf))
		return;
	n = read(k->in, k->buf + k->len, sizeof(k->buf) - k->len);
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {		/* end of stdin: the capture goes on */
		k->in = -1;
		return;
	}
	if (k->tty) {
		uint8_t *leave = memchr(k->buf + k->len, BT_KEY_LEAVE, (size_t)n), *intr;

		if (leave) {
			n = leave - (k->buf + k->len);
			k->leave = 1;
			k->in = -1;
		}
		/* Ctrl-C: taken out, counted; the bytes after it close up. */
		while ((intr = memchr(k->buf + k->len, BT_KEY_INTR, (size_t)n))) {
			uint8_t *end = k->buf + k->len + n;

			memmove(intr, intr + 1, (size_t)(end - intr - 1));
			n--;
			k->interrupt++;
		}
	}
	k->len += (size_t)n;
}

int bt_keys_end_request(struct bt_keys *k, char reason)
{
	const uint8_t req[3] = { 0x10, 0x18, (uint8_t)reason };

	k->in = -1;
	k->hold = 0;	/* a target not heard from yet gets it anyway */
	k->ending = 1;	/* no mark may come between its bytes */
	if (k->out < 0)
		return -1;
	if (sizeof(k->buf) - k->len < sizeof(req))
		k->len = 0;	/* keys not yet taken matter less than the end */
	return bt_keys_queue(k, req, sizeof(req));
}

int bt_keys_queue(struct bt_keys *k, const void *p, size_t n)
{
	if (k->out < 0 || n > sizeof(k->buf) - k->len)
		return -1;
	memcpy(k->buf + k->len, p, n);
	k->len += n;
	return 0;
}

void bt_keys_flush(struct bt_keys *k)
{
	if (k->len && k->out >= 0 && !k->hold)
		bt_cap_mark_flush(k);
	while (k->len && k->out >= 0 && !k->hold) {
		ssize_t n = write(k->out, k->buf, k->len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return;		/* the target is busy: poll says when */
		if (n < 0) {		/* QEMU has gone, the port was unplugged */
			k->len = 0;
			k->out = k->in = -1;
			return;
		}
		memmove(k->buf, k->buf + n, k->len - (size_t)n);
		k->len -= (size_t)n;
	}
}

/* The target did not end the run: the final line is the host's. */
void bt_end_by_host(char reason, int no_answer, double wait_s)
{
	unsigned outcome = reason == 'h' ? RUN_HANG : RUN_INTERRUPT;

	bt_con_break();
	if (no_answer)
		fprintf(stderr, "baretrace capture: no end-of-stream frame within %g s of the end "
			"request: the run is ended here (QEMU stopped); the status is the host's\n",
			wait_s);
	else
		fprintf(stderr, "baretrace capture: interrupted again: the run is ended here "
			"(QEMU stopped); the status is the host's\n");
	bt_con_line("baretrace: exit status %d (%s)\n", run_outcome_code(outcome, 0),
		    run_outcome_name(outcome));
}
