/*
 * tools/baretrace/tracefile.c: the .bt trace file (docs/wire.md section
 * 3): an 8-byte magic, then whole frames, each a u32 LE payload length
 * and the unescaped payload. Frames are written whole and flushed one at
 * a time, so a capture stopped at any point leaves a readable file.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bt.h"

/* "BTRACE", NUL, then the file format version. */
const uint8_t bt_file_magic[8] = { 'B', 'T', 'R', 'A', 'C', 'E', 0, 1 };

FILE *bt_file_create(const char *path)
{
	FILE *f = fopen(path, "wb");

	if (!f)
		bt_die(BT_EXIT_INPUT, "cannot create %s: %s", path, strerror(errno));
	if (fwrite(bt_file_magic, 1, 8, f) != 8 || fflush(f))
		bt_die(BT_EXIT_INPUT, "cannot write %s: %s", path, strerror(errno));
	return f;
}

int bt_file_write(FILE *f, const uint8_t *payload, size_t len)
{
	uint8_t n[4] = { (uint8_t)len, (uint8_t)(len >> 8), (uint8_t)(len >> 16),
			 (uint8_t)(len >> 24) };

	if (fwrite(n, 1, 4, f) != 4 || fwrite(payload, 1, len, f) != len)
		return -1;
	return fflush(f) ? -1 : 0;
}

FILE *bt_file_open(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t m[8];
	size_t got;

	if (!f)
		bt_die(BT_EXIT_INPUT, "cannot open %s: %s", path, strerror(errno));
	got = fread(m, 1, 8, f);
	if (got < 7 || memcmp(m, bt_file_magic, 7))
		bt_die(BT_EXIT_INPUT, "%s is not a baretrace trace file (bad magic; "
		       "make one with 'baretrace capture')", path);
	if (got < 8)
		bt_die(BT_EXIT_INPUT, "%s is cut short inside its header", path);
	if (m[7] != bt_file_magic[7])
		bt_die(BT_EXIT_INPUT, "%s is trace file version %d; this baretrace reads "
		       "version %d", path, m[7], bt_file_magic[7]);
	return f;
}

int bt_file_next(FILE *f, uint8_t *buf, size_t *len)
{
	uint8_t n[4];
	size_t got = fread(n, 1, 4, f);
	uint32_t want;

	if (got == 0)
		return 0;
	if (got < 4)
		return -1;
	want = (uint32_t)n[0] | (uint32_t)n[1] << 8 | (uint32_t)n[2] << 16 |
	       (uint32_t)n[3] << 24;
	if (want > WIRE_MAX_PAYLOAD || fread(buf, 1, want, f) != want)
		return -1;
	*len = want;
	return 1;
}
