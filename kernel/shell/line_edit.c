/* kernel/shell/line_edit.c: see line_edit.h. */
#include "line_edit.h"
#include "rx_ring.h"

enum { ESC_NONE, ESC_START, ESC_CSI, ESC_SS3 };

void line_edit_init(struct line_edit *le, char *buf, size_t cap,
		    void (*echo)(const char *s, size_t n))
{
	le->buf = buf;
	le->cap = cap;
	le->echo = echo;
	le->n = 0;
	le->esc = ESC_NONE;
	le->lost = le->too_long = false;
	buf[0] = '\0';
}

static enum line_status finish(struct line_edit *le, enum line_status st)
{
	le->buf[st == LINE_DONE ? le->n : 0] = '\0';
	le->n = 0;
	le->esc = ESC_NONE;
	le->lost = le->too_long = false;
	return st;
}

/* True if c belongs to the escape sequence under way (and is eaten). */
static bool in_escape(struct line_edit *le, int c)
{
	switch (le->esc) {
	case ESC_START:
		le->esc = c == '[' ? ESC_CSI : c == 'O' ? ESC_SS3 : ESC_NONE;
		return le->esc != ESC_NONE;
	case ESC_CSI:		/* parameters and intermediates, then a final */
		if (c >= 0x20 && c <= 0x3f)
			return true;
		le->esc = ESC_NONE;
		return c >= 0x40 && c <= 0x7e;
	case ESC_SS3:		/* one final byte */
		le->esc = ESC_NONE;
		return c >= 0x40 && c <= 0x7e;
	}
	return false;
}

enum line_status line_edit_feed(struct line_edit *le, int c)
{
	if (c == RX_LOST) {
		le->lost = true;
		le->esc = ESC_NONE;
		return LINE_MORE;
	}
	if (le->esc != ESC_NONE && in_escape(le, c))
		return LINE_MORE;
	if (c == '\r' || c == '\n') {
		le->echo("\n", 1);
		return finish(le, le->lost ? LINE_OVERFLOW :
				  le->too_long ? LINE_TOO_LONG : LINE_DONE);
	}
	if (c == 0x03) {			/* Ctrl-C */
		le->echo("^C\n", 3);
		return finish(le, LINE_CANCELLED);
	}
	if (c == 0x15) {			/* Ctrl-U: everything typed goes */
		for (; le->n; le->n--)
			le->echo("\b \b", 3);
		le->lost = le->too_long = false;
	} else if (c == 0x7f || c == '\b') {
		if (le->n && !le->too_long) {
			le->n--;
			le->echo("\b \b", 3);
		}
	} else if (c == 0x1b) {
		le->esc = ESC_START;
	} else if (c >= ' ' && c < 0x7f) {
		if (le->n + 1 < le->cap) {
			char ch = (char)c;

			le->buf[le->n++] = ch;
			le->echo(&ch, 1);
		} else {
			le->too_long = true;	/* reported at the end of the line */
		}
	}
	return LINE_MORE;
}
