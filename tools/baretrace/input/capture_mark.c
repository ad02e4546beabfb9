/*
 * tools/baretrace/input/capture_mark.c: the capture's mark. A baretrace
 * shell refuses the commands that would start trace frames on a console
 * nothing captures (trace/control/console_gate.c), so a capture tells
 * the target it is there: DLE, CAN, 'c' (docs/serial-line.md), which the
 * target's receive interrupt takes out of the input.
 *
 * It goes out whenever a console line begins with the shell's prompt
 * ("bt> ") or the kernel's "baretrace: " (its first line, and later
 * ones), never before: U-Boot, which may run first, would take the
 * bytes as keys and stop its autoboot. So every command typed or sent
 * by --exec at a prompt reaches the target after a mark (queued bytes go
 * out in order), a capture started after the boot announces itself at
 * the next prompt, and a reset board hears it again when it boots. A
 * mark that comes while keys wait for the target's first console text
 * goes before them.
 */
#include <string.h>

#include "../bt.h"
#include "capture.h"

static const char *const heads[] = { BT_SHELL_PROMPT, "baretrace: " };

void bt_cap_mark_init(struct bt_cap_mark *m)
{
	memset(m, 0, sizeof(*m));
}

static int head_matches(const struct bt_cap_mark *m, int whole)
{
	for (size_t i = 0; i < sizeof(heads) / sizeof(heads[0]); i++) {
		size_t l = strlen(heads[i]);

		if ((whole ? m->len == l : m->len <= l) && !memcmp(m->head, heads[i], m->len))
			return 1;
	}
	return 0;
}

void bt_cap_mark_text(struct bt_cap_mark *m, struct bt_keys *k, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint8_t c = p[i];

		if (c == '\n') {
			m->len = 0;
			m->done = 0;
			continue;
		}
		if (m->done || (c == '\r' && !m->len))
			continue;
		m->head[m->len++] = (char)c;
		if (head_matches(m, 1)) {
			bt_keys_mark(k);
			m->done = 1;
		} else if (!head_matches(m, 0) || m->len == sizeof(m->head)) {
			m->done = 1;	/* some other line */
		}
	}
}
