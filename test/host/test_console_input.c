/* sources: kernel/shell/line_edit.c */
/*
 * test/host/test_console_input.c: the console's receive ring and the
 * shell's line editor: input lost to a full ring drops the line it hit
 * (never splices two lines), an over-long line is dropped whole, and
 * escape sequences never eat the Enter after them.
 */
#include <stdlib.h>
#include <string.h>

#include "line_edit.h"
#include "rx_ring.h"
#include "tap.h"

static char echoed[4096];
static size_t echoed_n;

static void echo(const char *s, size_t n)
{
	if (echoed_n + n < sizeof(echoed)) {
		memcpy(echoed + echoed_n, s, n);
		echoed_n += n;
		echoed[echoed_n] = '\0';
	}
}

/* Feeds 'in' (bytes; 0xff stands for RX_LOST); returns the status of the
 * first finished line (LINE_MORE if none) and leaves the line in buf. */
static enum line_status feed(struct line_edit *le, const char *in, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)in[i] == 0xff ? RX_LOST : (unsigned char)in[i];
		enum line_status st = line_edit_feed(le, c);

		if (st != LINE_MORE)
			return st;
	}
	return LINE_MORE;
}

#define FEED(le, s) feed(le, s, sizeof(s) - 1)

static void test_escape(void)
{
	char buf[160];
	struct line_edit le;

	line_edit_init(&le, buf, sizeof(buf), echo);
	tap_eq_int(FEED(&le, "ab\x1b\r"), LINE_DONE, "ESC then Enter ends the line");
	tap_eq_str(buf, "ab", "ESC then Enter: the line is what was typed");
	tap_eq_int(FEED(&le, "x\x1b[Ay\x1b[1;5Cz\x1bOBw\n"), LINE_DONE,
		   "arrow keys (ESC [ A, ESC [ 1 ; 5 C, ESC O B) are swallowed");
	tap_eq_str(buf, "xyzw", "only the typed characters remain");
	tap_eq_int(FEED(&le, "q\x1b[\n"), LINE_DONE, "Enter inside ESC [ still ends the line");
	tap_eq_str(buf, "q", "... with the line typed before it");
	tap_eq_int(FEED(&le, "\x1bhelp\n"), LINE_DONE, "a lone ESC before a letter drops only the ESC");
	tap_eq_str(buf, "help", "... and keeps the letter");
}

static void test_length(void)
{
	char buf[160], in[400];
	struct line_edit le;

	line_edit_init(&le, buf, sizeof(buf), echo);
	memset(in, 'a', 159);
	in[159] = '\n';
	tap_eq_int(feed(&le, in, 160), LINE_DONE, "159 characters fit");
	tap_eq_int((long long)strlen(buf), 159, "... all of them");
	memset(in, 'b', 200);
	in[200] = '\n';
	tap_eq_int(feed(&le, in, 201), LINE_TOO_LONG, "200 characters: line too long, not cut");
	tap_eq_int((long long)strlen(buf), 0, "... and nothing of it is left to run");
	tap_eq_int(FEED(&le, "stats\n"), LINE_DONE, "the next line is whole again");
	tap_eq_str(buf, "stats", "... and is the next line");
	memset(in, 'c', 170);
	in[170] = 0x15;		/* Ctrl-U forgets the long line */
	memcpy(in + 171, "dump\n", 5);
	tap_eq_int(feed(&le, in, 176), LINE_DONE, "Ctrl-U after an over-long line starts afresh");
	tap_eq_str(buf, "dump", "... with what came after it");
	echoed_n = 0;
	tap_eq_int(FEED(&le, "ab\x7f\x7f\x7f" "c\n"), LINE_DONE, "backspace stops at the start");
	tap_eq_str(buf, "c", "... and erases what it should");
	tap_eq_str(echoed, "ab\b \b\b \bc\n", "the echo erases on screen as well");
	tap_eq_int(FEED(&le, "abc\x03"), LINE_CANCELLED, "Ctrl-C cancels");
	tap_eq_int(FEED(&le, "x\n"), LINE_DONE, "after Ctrl-C the editor is empty");
	tap_eq_str(buf, "x", "... and holds only the new line");
}

static void test_lost(void)
{
	char buf[160];
	struct line_edit le;

	line_edit_init(&le, buf, sizeof(buf), echo);
	/* "meta x 1\n" and "stats 056\n" with input lost from "x 1\nsta":
	 * without the mark the editor would run "meta ts 056". */
	tap_eq_int(FEED(&le, "meta \xffts 056\n"), LINE_OVERFLOW,
		   "a line with lost input is reported as an overflow");
	tap_eq_int((long long)strlen(buf), 0, "... and none of it runs");
	tap_eq_int(FEED(&le, "help\n"), LINE_DONE, "the line after the loss is whole");
	tap_eq_str(buf, "help", "... and runs as typed");
}

/* A ring of 16 filled with 40 bytes of short lines, no reader: lines
 * read back afterwards are only whole, original lines. */
static void test_ring(void)
{
	uint16_t slots[16];
	struct rx_ring r = { slots, 16, 0, 0, false, 0 };
	const char *in = "cmd 1\ncmd 2\ncmd 3\ncmd 4\ncmd 5\ncmd 6\ncmd 7\n";
	size_t len = strlen(in);
	char buf[160];
	struct line_edit le;
	int c, marks = 0, done = 0, bad = 0, bytes = 0;

	for (size_t i = 0; i < len; i++)
		rx_ring_put(&r, (unsigned char)in[i]);
	tap_eq_int(r.lost, (long long)len - 15, "bytes beyond size - 1 are counted as lost");
	line_edit_init(&le, buf, sizeof(buf), echo);
	while ((c = rx_ring_take(&r)) >= 0) {
		marks += c == RX_LOST;
		bytes += c != RX_LOST;
		enum line_status st = line_edit_feed(&le, c);

		if (st == LINE_DONE) {
			done++;
			bad += strlen(buf) != 5 || strncmp(buf, "cmd ", 4) || strstr(in, buf) == NULL;
		}
	}
	tap_eq_int(bytes, 15, "the ring keeps size - 1 bytes");
	tap_eq_int(marks, 1, "one mark for one stretch of lost input");
	tap_eq_int(done, 2, "the two lines stored whole come out");
	tap_eq_int(bad, 0, "... unchanged");
	/* the third line lost its end: it is not run, and it is not joined
	 * to anything that came later */
	tap_eq_int(FEED(&le, "cmd 8\n"), LINE_OVERFLOW, "the line cut by the loss is reported when it ends");
	/* The reader catches up: new input goes in again, after the mark. */
	for (const char *p = "cmd 9\n"; *p; p++)
		rx_ring_put(&r, (unsigned char)*p);
	while ((c = rx_ring_take(&r)) >= 0 && line_edit_feed(&le, c) == LINE_MORE)
		;
	tap_eq_str(buf, "cmd 9", "after the reader caught up, lines are whole again");
	/* Loss right as the ring fills with the mark slot free, twice. */
	for (int i = 0; i < 40; i++)
		rx_ring_put(&r, 'z');
	tap_eq_int((long long)(r.head - r.tail), 16, "a full ring is size - 1 bytes and one mark");
	for (int i = 0; i < 15; i++)
		rx_ring_take(&r);
	tap_eq_int(rx_ring_take(&r), RX_LOST, "the mark sits after the bytes that were kept");
	tap_eq_int(rx_ring_take(&r), -1, "and then the ring is empty");
}

int main(void)
{
	test_escape();
	test_length();
	test_lost();
	test_ring();
	return tap_done();
}
