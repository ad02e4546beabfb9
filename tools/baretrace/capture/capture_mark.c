/*
 * tools/baretrace/capture/capture_mark.c: the capture's mark. A baretrace
 * shell refuses the commands that would start trace frames on a console
 * nothing captures (trace/control/console_gate.c), so the capture tells
 * the target it is there: DLE, CAN, 'c' (docs/serial-line.md), which the
 * target's receive interrupt takes out of the input.
 *
 * The mark goes with input only, so a run nobody types into gets no
 * byte it did not get before (an -icount run stays the same run): it
 * goes out before the first bytes sent after each line that begins with
 * the shell's prompt ("bt> ") or the kernel's "baretrace: ", so every
 * command typed, piped or sent by --exec at a prompt reaches the target
 * after a mark, and a capture started after the boot (or a board that
 * was reset) announces itself with the next command. Never while the
 * last such line was U-Boot's ("U-Boot "), or before the kernel's first
 * line: U-Boot would take the bytes as keys. Bytes that went out before
 * the kernel's first line (piped stdin waits in the target's input until
 * the shell reads it) get their mark at that line.
 */
#include <string.h>

#include "capture.h"

static const uint8_t mark[3] = { 0x10, 0x18, 'c' };
static const struct { const char *head; int kernel; } heads[] = {
	{ BT_SHELL_PROMPT, 1 }, { "baretrace: ", 1 }, { "U-Boot ", 0 },
};
#define N_HEADS	(sizeof(heads) / sizeof(heads[0]))

void bt_cap_mark_init(struct bt_cap_mark *m)
{
	memset(m, 0, sizeof(*m));
}

/* The head the line begins with (its index), -1 while it may still
 * become one, -2 when it cannot. */
static int head_of(const struct bt_cap_mark *m)
{
	int maybe = 0;

	for (size_t i = 0; i < N_HEADS; i++) {
		size_t l = strlen(heads[i].head);

		if (m->len <= l && !memcmp(m->head, heads[i].head, m->len)) {
			if (m->len == l)
				return (int)i;
			maybe = 1;
		}
	}
	return maybe ? -1 : -2;
}

/* Puts the mark before the queued bytes: none of them went out yet. */
static void prepend(struct bt_keys *k)
{
	if (k->ending || sizeof(k->buf) - k->len < sizeof(mark))
		return;
	memmove(k->buf + sizeof(mark), k->buf, k->len);
	memcpy(k->buf, mark, sizeof(mark));
	k->len += sizeof(mark);
	k->marked = 1;
}

static void seen(struct bt_keys *k, int kernel)
{
	k->kernel = kernel;
	k->marked = 0;
	if (kernel && k->unmarked && k->out >= 0) {
		k->unmarked = 0;
		prepend(k);
	}
}

void bt_cap_mark_text(struct bt_cap_mark *m, struct bt_keys *k, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t c = p[i];
		int h;

		if (c == '\n') {
			m->len = 0;
			m->done = 0;
			continue;
		}
		if (m->done || (c == '\r' && !m->len))
			continue;
		m->head[m->len++] = (char)c;
		h = head_of(m);
		if (h >= 0)
			seen(k, heads[h].kernel);
		if (h != -1 || m->len == sizeof(m->head))
			m->done = 1;
	}
}

void bt_cap_mark_flush(struct bt_keys *k)
{
	if (!k->kernel)
		k->unmarked = 1;
	else if (!k->marked)
		prepend(k);
}
