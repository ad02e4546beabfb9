/*
 * tools/baretrace/capture/capture_con.c: the console side of `capture`.
 * The target's console text goes to stdout (and, with --log FILE, to
 * that file too: one writer, so the copy is in the order of stdout);
 * the capture's own lines go to stderr. With -o - the trace takes
 * stdout and the console text goes to stderr.
 *
 * A line of the capture never starts inside a console line, whether
 * stdout and stderr are one terminal, one pipe (2>&1) or two files: when
 * the console's last byte was not a newline, the capture ends that line
 * on stdout first (a '\n' the target did not send; the log gets it too)
 * and only then speaks. Console text that continues the line later
 * starts a new one. bt_warn() and bt_die() do the same through
 * bt_before_message, so a warning or an error cannot split a line
 * either.
 *
 * It also watches the text for the target's final line ("baretrace: exit
 * status N", kernel/report/run_end.c), anywhere in a line (text cut by a
 * frame rejoins here): a QEMU that exits after it exits with the
 * application's status (semihosting), which is no failure of QEMU.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../base/util.h"

#include "capture.h"

static FILE *log_file;
static const char *log_path;
static int mid_line;	/* the last console byte written was no '\n' */
static int status_shown;	/* capture.c's status line is on stderr's screen */
static const char final_words[] = "baretrace: exit status ";
static size_t final_match;	/* bytes of final_words matched so far */
static int final_seen;		/* the target printed its final line */

static FILE *con_out;	/* stdout, or stderr when the trace goes to stdout */

/* To stdout and the log; a log that fails is dropped with a warning. */
static void put(const void *p, size_t n)
{
	fwrite(p, 1, n, con_out);
	fflush(con_out);
	if (log_file && (fwrite(p, 1, n, log_file) != n || fflush(log_file))) {
		FILE *f = log_file;

		log_file = NULL;	/* before bt_warn, which comes back here */
		fclose(f);
		bt_warn("cannot write %s: %s; the console still goes to stdout", log_path,
			strerror(errno));
	}
}

void bt_con_open(const char *log, int to_stderr)
{
	con_out = to_stderr ? stderr : stdout;
	bt_before_message = bt_con_break;
	if (!log)
		return;
	log_file = fopen(log, "w");
	if (!log_file)
		bt_die(BT_EXIT_INPUT, "cannot write %s: %s", log, strerror(errno));
	log_path = log;
}

void bt_con_status_drawn(void)
{
	status_shown = 1;
}

void bt_con_clear_status(void)
{
	if (status_shown)
		fputs("\r\033[K", stderr);
	status_shown = 0;
}

void bt_con_text(const uint8_t *p, size_t n)
{
	if (!n)
		return;
	bt_con_clear_status();
	put(p, n);
	mid_line = p[n - 1] != '\n';
	for (size_t i = 0; i < n && !final_seen; i++) {
		if (p[i] != (uint8_t)final_words[final_match])
			final_match = p[i] == (uint8_t)final_words[0];
		else if (++final_match == sizeof(final_words) - 1)
			final_seen = 1;
	}
}

int bt_con_final_seen(void)
{
	return final_seen;
}

int bt_con_mid_line(void)
{
	return mid_line;
}

void bt_con_break(void)
{
	bt_con_clear_status();
	if (mid_line) {
		mid_line = 0;
		put("\n", 1);
	}
	fflush(stdout);
}

void bt_con_line(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	bt_con_break();
	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	put(line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
}

void bt_con_close(void)
{
	FILE *f = log_file;

	bt_before_message = NULL;
	if (!f)
		return;
	log_file = NULL;
	if (fclose(f))
		bt_warn("cannot write %s: %s", log_path, strerror(errno));
}
