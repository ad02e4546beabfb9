/*
 * tools/baretrace/decode/clock.c: what the trace's clock counted, noted by
 * the capture in the trace file (docs/wire.md 2.13, frame type 11). The
 * target cannot tell: its counter reads the same whether QEMU's virtual
 * clock follows the host's time or counts instructions (-icount). The
 * capture can, when it started QEMU itself (--qemu): the note says which,
 * with -icount's shift, so stats --diff knows its figures are exact
 * instruction counts (output/stats/stats_diff.c). A capture from a serial line
 * notes a board's own counter; a file without a note (older captures,
 * --file) says nothing, and its clock is "not known".
 *
 * The note holds nothing of the host (no time, no path): two captures of
 * one exact run write byte-identical files.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../wire/wire.h"

#include "decode.h"

enum { KEY_CLOCK = 1, KEY_SHIFT = 2, KEY_SLEEP_OFF = 3, KEY_ADAPTIVE = 4 };

/* -icount's value: "4", "shift=4,sleep=off", "shift=auto,align=on", ... */
static void read_icount(struct bt_clock *k, const char *v)
{
	char buf[128], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", v);
	for (char *w = strtok_r(buf, ",", &save); w; w = strtok_r(NULL, ",", &save)) {
		const char *s = !strncmp(w, "shift=", 6) ? w + 6 : strchr(w, '=') ? NULL : w;
		char *end;

		if (s && !strcmp(s, "auto"))
			k->adaptive = 1;
		else if (s) {
			unsigned long n = strtoul(s, &end, 10);

			if (*s && !*end && n <= 10) {
				k->shift = (unsigned)n;
				k->have_shift = 1;
			}
		} else if (!strcmp(w, "sleep=off"))
			k->sleep_off = 1;
		else if (!strncmp(w, "align=on", 8))
			k->adaptive = 1;
	}
}

void bt_clock_of_capture(struct bt_clock *k, char *const *qemu_argv, int serial)
{
	memset(k, 0, sizeof(*k));
	if (serial)
		k->kind = BT_CLOCK_BOARD;
	if (!qemu_argv)
		return;
	k->kind = BT_CLOCK_HOST;
	for (size_t i = 0; qemu_argv[i]; i++) {
		const char *a = qemu_argv[i];

		if (!strncmp(a, "--", 2))
			a++;
		if (!strcmp(a, "-icount") && qemu_argv[i + 1]) {
			k->kind = BT_CLOCK_ICOUNT;
			read_icount(k, qemu_argv[++i]);
		} else if (!strncmp(a, "-icount=", 8)) {
			k->kind = BT_CLOCK_ICOUNT;
			read_icount(k, a + 8);
		}
	}
}

size_t bt_clock_note(const struct bt_clock *k, uint8_t *out, size_t cap)
{
	uint8_t body[4 * 2 * WIRE_VARINT_MAX], *p = body;
	const uint64_t items[][2] = {
		{ KEY_CLOCK, k->kind }, { KEY_SHIFT, k->shift },
		{ KEY_SLEEP_OFF, (uint64_t)k->sleep_off }, { KEY_ADAPTIVE, (uint64_t)k->adaptive },
	};

	if (!k->kind)
		return 0;
	for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		if (i == 1 && !k->have_shift)
			continue;
		p += wire_varint_put(p, items[i][0]);
		p += wire_varint_put(p, items[i][1]);
	}
	return wire_frame_build(out, cap, WIRE_FRAME_CLOCK, 0, 0, body, (size_t)(p - body));
}

void bt_clock_read(struct bt_clock *k, const struct wire_frame *f)
{
	size_t at = 0;

	memset(k, 0, sizeof(*k));
	while (at < f->body_len) {
		uint64_t key, v;
		int a = wire_varint_get(f->body + at, f->body_len - at, &key), b;

		if (a < 0 || (b = wire_varint_get(f->body + at + a, f->body_len - at - a, &v)) < 0)
			break;	/* malformed: what was read stands */
		at += (size_t)(a + b);
		if (key == KEY_CLOCK && v <= BT_CLOCK_BOARD)
			k->kind = (int)v;
		else if (key == KEY_SHIFT && v <= 10) {
			k->shift = (unsigned)v;
			k->have_shift = 1;
		} else if (key == KEY_SLEEP_OFF)
			k->sleep_off = v != 0;
		else if (key == KEY_ADAPTIVE)
			k->adaptive = v != 0;
	}
}

int bt_clock_exact(const struct bt_clock *k)
{
	return k->kind == BT_CLOCK_ICOUNT && k->have_shift && k->sleep_off && !k->adaptive;
}

const char *bt_clock_say(const struct bt_clock *k, char *buf, size_t n)
{
	if (bt_clock_exact(k))
		snprintf(buf, n, "exact: instructions, QEMU -icount shift=%u,sleep=off", k->shift);
	else if (k->kind == BT_CLOCK_ICOUNT)
		snprintf(buf, n, "QEMU -icount without a fixed shift and sleep=off: not exact");
	else if (k->kind == BT_CLOCK_HOST)
		snprintf(buf, n, "host time: QEMU without -icount");
	else if (k->kind == BT_CLOCK_BOARD)
		snprintf(buf, n, "the board's counter, captured from a serial line");
	else
		snprintf(buf, n, "clock not recorded");
	return buf;
}
