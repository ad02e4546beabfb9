/*
 * tools/baretrace/input/tracefile.c: the .bt trace file (docs/wire.md section
 * 3): an 8-byte magic, then whole frames, each a u32 LE payload length
 * and the unescaped payload. Frames are written whole and flushed one at
 * a time, so a capture stopped at any point leaves a readable file.
 * Reading resynchronises after damage; decode/decode_file.c runs a whole
 * file through a decoder.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../../wire/wire.h"
#include "../base/util.h"

#include "tracefile.h"

/* "BTRACE", NUL, then the file format version. */
const uint8_t bt_file_magic[8] = { 'B', 'T', 'R', 'A', 'C', 'E', 0, 1 };

FILE *bt_file_create(const char *path)
{
	FILE *f = bt_out_open(path, "wb");	/* "-": standard output */

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

/*
 * "-" (standard input) or a pipe such as /dev/stdin: a trace is read
 * more than once (the first pass, report's depths, frames pulled by
 * offset), so a stream is copied once into an unlinked temporary file,
 * which every open then reads afresh with its own offset.
 */
static struct { const char *path; int fd; } spools[4];

static FILE *spooled(const char *path)
{
	struct stat st;
	char again[40];
	size_t i, n;

	if (strcmp(path, "-") && (stat(path, &st) || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
		return fopen(path, "rb");
	for (i = 0; i < 4 && spools[i].path && strcmp(spools[i].path, path); i++)
		;
	if (i == 4)
		bt_die(BT_EXIT_USAGE, "at most 4 traces from pipes at once");
	if (!spools[i].path) {
		FILE *in = strcmp(path, "-") ? fopen(path, "rb") : stdin, *tmp = tmpfile();
		static uint8_t buf[65536];

		if (!in)
			return NULL;
		if (!tmp)
			bt_die(BT_EXIT_INPUT, "cannot make a temporary file for %s: %s",
			       bt_file_name(path), strerror(errno));
		while ((n = fread(buf, 1, sizeof(buf), in)))
			if (fwrite(buf, 1, n, tmp) != n)
				bt_die(BT_EXIT_INPUT, "cannot copy %s to a temporary file: %s",
				       bt_file_name(path), strerror(errno));
		if (fflush(tmp))
			bt_die(BT_EXIT_INPUT, "cannot copy %s to a temporary file: %s",
			       bt_file_name(path), strerror(errno));
		spools[i].path = path;
		spools[i].fd = fileno(tmp);	/* kept open until exit */
	}
	snprintf(again, sizeof(again), "/proc/self/fd/%d", spools[i].fd);
	return fopen(again, "rb");
}

const char *bt_file_name(const char *path)
{
	return strcmp(path, "-") ? path : "standard input";
}

FILE *bt_file_reopen(const char *path)
{
	return spooled(path);
}

FILE *bt_file_open(const char *path)
{
	FILE *f = spooled(path);
	uint8_t m[8];
	size_t got;

	if (!f)
		bt_die(BT_EXIT_INPUT, "cannot open %s: %s", path, strerror(errno));
	got = fread(m, 1, 8, f);
	if (got < 7 || memcmp(m, bt_file_magic, 7))
		bt_die(BT_EXIT_INPUT, "%s is not a baretrace trace file (bad magic; "
		       "make one with 'baretrace capture')", bt_file_name(path));
	if (got < 8)
		bt_die(BT_EXIT_INPUT, "%s is cut short inside its header", bt_file_name(path));
	if (m[7] != bt_file_magic[7])
		bt_die(BT_EXIT_INPUT, "%s is trace file version %d; this baretrace reads "
		       "version %d", bt_file_name(path), m[7], bt_file_magic[7]);
	return f;
}

/*
 * Whether buf[0 .. avail) starts with a stored frame: a length that fits,
 * then a payload whose own length field and CRC check. The cheap checks
 * go first, so scanning a damaged stretch byte by byte stays fast.
 */
static size_t frame_at(const uint8_t *buf, size_t avail)
{
	struct wire_frame f;
	uint32_t want;
	uint64_t seq, body_len;
	int a, b;

	if (avail < 4)
		return 0;
	want = (uint32_t)buf[0] | (uint32_t)buf[1] << 8 | (uint32_t)buf[2] << 16 |
	       (uint32_t)buf[3] << 24;
	if (want < 7 || want > WIRE_MAX_PAYLOAD || want > avail - 4)
		return 0;
	a = wire_varint_get(buf + 6, want - 2, &seq);
	if (a < 0)
		return 0;
	b = wire_varint_get(buf + 6 + a, want - 2 - (size_t)a, &body_len);
	if (b < 0 || 2 + (uint64_t)a + (uint64_t)b + body_len + WIRE_CRC_SIZE != want)
		return 0;
	return wire_frame_parse(buf + 4, want, &f) == WIRE_DMG_NONE ? want : 0;
}

/* The slow way, after a frame that did not check: scans from the byte
 * after its start for the next one that does. */
static int resync(FILE *f, uint8_t *buf, size_t *len, uint64_t *skipped)
{
	/* Room for a whole frame after any skip within one window. */
	static uint8_t win[2 * (4 + WIRE_MAX_PAYLOAD)];
	size_t have = 0, at = 1, want = 0;

	for (;;) {
		have += fread(win + have, 1, sizeof(win) - have, f);
		for (; at + 4 <= have && at < sizeof(win) / 2; at++)
			if ((want = frame_at(win + at, have - at)))
				break;
		if (want) {
			memcpy(buf, win + at + 4, want);
			*len = want;
			*skipped += at;
			/* Put back what follows the frame. */
			return fseek(f, -(long)(have - at - 4 - want), SEEK_CUR) ? -1 : 1;
		}
		if (have < sizeof(win))
			return -1;	/* to the end: no whole frame */
		*skipped += at;		/* a window's first half held none */
		memmove(win, win + at, have - at);
		have -= at;
		at = 0;
	}
}

int bt_file_next(FILE *f, uint8_t *buf, size_t *len, uint64_t *skipped)
{
	long pos = ftell(f);
	uint8_t n[4];
	size_t got = fread(n, 1, 4, f);
	uint32_t want;
	struct wire_frame fr;

	if (got == 0)
		return 0;
	want = (uint32_t)n[0] | (uint32_t)n[1] << 8 | (uint32_t)n[2] << 16 |
	       (uint32_t)n[3] << 24;
	if (got == 4 && want <= WIRE_MAX_PAYLOAD && fread(buf, 1, want, f) == want &&
	    wire_frame_parse(buf, want, &fr) == WIRE_DMG_NONE) {
		*len = want;
		return 1;
	}
	if (pos < 0 || fseek(f, pos, SEEK_SET))
		return -1;
	return resync(f, buf, len, skipped);
}
