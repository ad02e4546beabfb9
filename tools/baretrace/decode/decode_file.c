/*
 * tools/baretrace/decode/decode_file.c: a whole .bt file through a
 * decoder: input/tracefile.c's frames, in file order, into bt_dec_frame;
 * what the file itself got wrong (damage, a missing end) said once.
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../../wire/wire.h"
#include "../base/util.h"
#include "../input/tracefile.h"

#include "decode.h"

/* Reads the file once quietly for its end-of-stream totals and how many
 * events it decodes, so that holes met before the END frame get their
 * cause (books.c). */
static void first_pass(struct bt_decoder *d, const char *path)
{
	struct bt_decoder *p = bt_alloc(sizeof(*p));

	bt_dec_init(p, NULL, NULL);
	p->quiet = 1;
	bt_decode_file(p, path);
	d->pre = bt_alloc(sizeof(*d->pre));
	*d->pre = p->end;
	bt_dec_free(p);
	free(p);
}

int bt_decode_file(struct bt_decoder *d, const char *path)
{
	static uint8_t buf[WIRE_MAX_PAYLOAD];
	FILE *f;
	size_t len;
	int rc;

	if (d->v && d->v->hole && !d->pre)
		first_pass(d, path);
	f = bt_file_open(path);
	/* Only the printing pass warns: a quiet pass over the same file
	 * (report's depths, the first pass) would say it all again. */
	while ((rc = bt_file_next(f, buf, &len, &d->skipped_bytes)) == 1) {
		if (d->frame_hook && d->frame_hook(d, ftell(f), buf, len))
			continue;
		if (bt_dec_frame(d, buf, len) < 0) {
			fclose(f);
			return BT_EXIT_INPUT;
		}
	}
	fclose(f);
	if (!d->frames && (rc < 0 || d->skipped_bytes)) {
		if (!d->quiet)
			bt_error("%s: no whole frame could be read: the file is damaged",
				 bt_file_name(path));
		return BT_EXIT_INPUT;
	}
	if (rc < 0 && d->ends && !d->quiet)
		bt_warn("%s: the last frame is cut short (capture interrupted?); ignored", path);
	if (d->skipped_bytes && !d->quiet)
		bt_warn("%s: %llu bytes that held no frame whose length and CRC check were "
			"skipped; reading resumed at the next good frame", path,
			(unsigned long long)d->skipped_bytes);
	if (d->bad_frames && !d->quiet)
		bt_warn("%s: %llu frames failed their CRC and were skipped", path,
			(unsigned long long)d->bad_frames);
	bt_dec_finish(d);
	/* Not an error: what it holds is read, and said to be partial. */
	if (!d->ends && !d->quiet)
		bt_warn("%s is cut short: it has no end-of-stream frame (the capture stopped "
			"early or the file was truncated)%s; %llu event%s decoded", path,
			rc < 0 ? " and its last frame is cut off (ignored)" : "",
			(unsigned long long)bt_events(d), bt_plural(bt_events(d)));
	if (d->filter && bt_dec_stage->check(d))
		return BT_EXIT_INPUT;
	return 0;
}
