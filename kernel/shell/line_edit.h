/*
 * kernel/shell/line_edit.h: the shell's line editor (pure; also built into the
 * host unit tests and a fuzz target).
 *
 * Fed one input at a time: a byte, or RX_LOST (kernel/shell/rx_ring.h) where
 * the receive ring dropped input. Printable bytes are kept and echoed;
 * backspace/DEL erases one, Ctrl-U the whole line, Ctrl-C cancels it.
 * Escape sequences (ESC [ ... final, ESC O x) are swallowed; a control
 * byte inside one, or anything but '[' or 'O' after a lone ESC, ends the
 * sequence and is then handled as itself, so ESC Enter still ends the
 * line. A line is never run in part: one that lost input or grew past
 * the buffer is reported and dropped whole at its end.
 */
#ifndef KERNEL_LINE_EDIT_H
#define KERNEL_LINE_EDIT_H

#include <stdbool.h>
#include <stddef.h>

enum line_status {
	LINE_MORE,		/* keep feeding */
	LINE_DONE,		/* buf holds a whole line, NUL-terminated */
	LINE_CANCELLED,		/* Ctrl-C */
	LINE_OVERFLOW,		/* input was lost inside this line: dropped */
	LINE_TOO_LONG,		/* longer than cap - 1 characters: dropped */
};

struct line_edit {
	char *buf;
	size_t cap;		/* bytes of buf, the NUL included */
	size_t n;
	unsigned char esc;	/* 0, after ESC, inside ESC [, after ESC O */
	bool lost, too_long;
	/* Where echo goes (the console; a buffer in tests). */
	void (*echo)(const char *s, size_t n);
};

void line_edit_init(struct line_edit *le, char *buf, size_t cap,
		    void (*echo)(const char *s, size_t n));
/* One input: a byte (0-255) or RX_LOST. After anything but LINE_MORE
 * the editor is empty again, ready for the next line. */
enum line_status line_edit_feed(struct line_edit *le, int c);

#endif /* KERNEL_LINE_EDIT_H */
