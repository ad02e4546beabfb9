/*
 * tools/baretrace/capture/capture_sum.c: the summary `baretrace capture`
 * prints as it stops (capture.c): what arrived, and where every event
 * the target produced went.
 */
#include <stdio.h>

#include "../decode/decode.h"

#include "capture.h"

/*
 * Two lines that scripts parse (keep the wording; a count of one is
 * singular, "1 frame", "1 event"): what arrived, and,
 * when the END frame carried totals, where every produced event went.
 * Frames and wire bytes are counted as the target's "trace: ..." line
 * counts them (the frames it sent before its end-of-stream frame); the
 * end-of-stream frame and the console text are named apart.
 */
void bt_capture_summary(const struct capture *c, double secs, const char *why, int signalled)
{
	struct bt_loss l;
	uint64_t text = c->dec.text_bytes;
	uint64_t frame_bytes = c->wire_bytes - text - c->end_bytes - c->dec.stray_bytes;

	bt_loss(&c->bd, &l);
	bt_con_break();
	uint64_t frames = c->dec.frames - (c->ended != 0);

	frame_bytes -= c->dec.lone_etx;	/* the console's ETX at each boot: not a stray */
	fprintf(stderr, "baretrace capture: %llu frame%s, %llu damaged, %llu sequence gap%s, "
		"%llu event%s, %llu lost, %llu wire bytes in %.1f s -> %s%s; besides: ",
		(unsigned long long)frames, bt_plural(frames),
		(unsigned long long)c->dec.damaged, (unsigned long long)c->bd.seq_gaps,
		bt_plural(c->bd.seq_gaps), (unsigned long long)c->bd.events,
		bt_plural(c->bd.events), (unsigned long long)l.lost,
		(unsigned long long)frame_bytes, secs, c->path,
		c->ended ? "" : why ? why : signalled ? " (interrupted)" :
		" (no end-of-stream frame)");
	if (c->ended)
		fprintf(stderr, "the end-of-stream frame (%llu bytes), ",
			(unsigned long long)c->end_bytes);
	fprintf(stderr, "%llu bytes of console text", (unsigned long long)text);
	if (c->dec.lone_etx)
		fprintf(stderr, ", %llu boot marker%s (the ETX the console sends as it starts)",
			(unsigned long long)c->dec.lone_etx, bt_plural(c->dec.lone_etx));
	if (c->dec.stray_bytes)
		fprintf(stderr, ", %llu stray DLE byte%s outside a frame",
			(unsigned long long)c->dec.stray_bytes, bt_plural(c->dec.stray_bytes));
	fputc('\n', stderr);
	if (!l.totals) {
		if (c->ended && c->bd.end.empty_end)
			fprintf(stderr, "baretrace capture: the end-of-stream frame has no totals "
				"(version 1): events after the last frame are not accounted for\n");
		return;
	}
	uint64_t target = l.overwritten + l.dropped + l.discarded;

	fprintf(stderr, "baretrace capture: target produced %llu event%s: %llu decoded + %llu lost "
		"on the target (%llu overwritten, %llu stop mode, %llu discarded) + %lld lost on "
		"the wire\n", (unsigned long long)l.produced, bt_plural(l.produced),
		(unsigned long long)l.decoded,
		(unsigned long long)target, (unsigned long long)l.overwritten,
		(unsigned long long)l.dropped, (unsigned long long)l.discarded,
		(long long)(l.produced - l.decoded - target));
	bt_loss_imbalance(stderr, &c->bd, "baretrace capture: ");
}

