/* sources: kernel/shell/line_edit.c */
/*
 * test/fuzz/fuzz_line_edit.c: console input as arbitrary bytes (0xff
 * stands for RX_LOST, input the receive ring dropped) through the
 * shell's line editor.
 *
 * Besides sanitizer findings it checks the promises line_edit.h makes:
 * a finished line fits the buffer and holds only printable characters,
 * and no line that lost input is ever handed out as whole (a loss is
 * forgotten only by the end of a line, Ctrl-C or Ctrl-U).
 */
#include <stdint.h>
#include <string.h>

#include "fuzz.h"
#include "line_edit.h"
#include "rx_ring.h"

static void echo(const char *s, size_t n)
{
	must(s != NULL && n > 0 && n <= 3);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char buf[32];
	struct line_edit le;
	int lost = 0;

	line_edit_init(&le, buf, sizeof(buf), echo);
	for (size_t i = 0; i < size; i++) {
		int c = data[i] == 0xff ? RX_LOST : data[i];
		enum line_status st = line_edit_feed(&le, c);

		lost |= c == RX_LOST;
		if (c == 0x15 && st == LINE_MORE)
			lost = 0;	/* Ctrl-U: the damaged text is gone */
		must(le.n < sizeof(buf));
		if (st == LINE_MORE)
			continue;
		size_t n = strnlen(buf, sizeof(buf));

		must(n < sizeof(buf));
		for (size_t k = 0; k < n; k++)
			must(buf[k] >= ' ' && buf[k] < 0x7f);
		must(st != LINE_DONE || !lost);
		must(st != LINE_OVERFLOW || lost);
		lost = 0;
	}
	return 0;
}
