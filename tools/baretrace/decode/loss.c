/*
 * tools/baretrace/decode/loss.c: what a whole trace's books add up to,
 * read by every command's summary: the events it counts (bt_events),
 * events produced, decoded and lost per cause (books.c keeps the books
 * as the blocks arrive), and how the run ended (the outcome record or
 * the END frame, in kernel/report/outcome.h's words).
 */
#include <string.h>

#include "../../../wire/wire.h"
#include "../base/util.h"

#include "decode.h"
#include "outcome.h"	/* kernel/report: the outcomes' words and exit codes */
#include "units.h"

uint64_t bt_events(const struct bt_decoder *d)
{
	return d->records;
}

void bt_loss(const struct bt_decoder *d, struct bt_loss *l)
{
	memset(l, 0, sizeof(*l));
	l->totals = d->end.totals;
	l->balanced = 1;
	for (unsigned cpu = 0; cpu < BT_MAX_CPUS; cpu++) {
		const struct bt_cpu_books *c = &d->books[cpu];
		const struct wire_end_cpu *e = &d->end.end[cpu];

		l->decoded += c->decoded;
		l->holes_target += c->hole_target;
		l->holes_other += c->hole_other;
		if (!d->end.has[cpu]) {
			if (c->decoded && d->end.totals)
				l->balanced = 0;	/* events, but no totals */
			continue;
		}
		uint64_t target = e->overwritten + e->dropped + e->discarded;

		l->produced += e->produced;
		l->overwritten += e->overwritten;
		l->dropped += e->dropped;
		l->discarded += e->discarded;
		uint64_t wire = 0, missing = e->blocks > c->blocks ? e->blocks - c->blocks : 0;

		if (c->decoded + target > e->produced || c->blocks > e->blocks)
			l->balanced = 0;
		else
			wire = e->produced - c->decoded - target;
		l->wire += wire;
		l->blocks_missing += missing;
		/* Whose blocks: a CPU that lost events only one way says. */
		if (e->overwritten && !wire)
			l->blocks_target += missing;
		else if (!e->overwritten)
			l->blocks_wire += missing;
	}
	if (l->totals)
		l->lost = l->overwritten + l->dropped + l->discarded + l->wire;
	else
		l->lost = l->holes_target + l->holes_other;
}

void bt_loss_imbalance(FILE *f, const struct bt_decoder *d, const char *prefix)
{
	for (unsigned cpu = 0; d->end.totals && cpu < BT_MAX_CPUS; cpu++) {
		const struct bt_cpu_books *c = &d->books[cpu];
		const struct wire_end_cpu *e = &d->end.end[cpu];
		uint64_t target = e->overwritten + e->dropped + e->discarded;

		if (!d->end.has[cpu]) {
			if (c->decoded)
				fprintf(f, "%sthe books do not balance: CPU %u has %llu events but "
					"no end-of-stream totals\n", prefix, cpu,
					(unsigned long long)c->decoded);
			continue;
		}
		if (c->decoded + target > e->produced)
			fprintf(f, "%sthe books do not balance on CPU %u: %llu decoded + %llu lost "
				"on the target > %llu produced\n", prefix, cpu,
				(unsigned long long)c->decoded, (unsigned long long)target,
				(unsigned long long)e->produced);
		if (c->blocks > e->blocks)
			fprintf(f, "%sthe books do not balance on CPU %u: %llu blocks decoded > "
				"%llu opened\n", prefix, cpu, (unsigned long long)c->blocks,
				(unsigned long long)e->blocks);
	}
}

/*
 * "; 3 blocks missing: 2 overwritten on the target, 1 lost on the wire":
 * a block overwritten on the target was never sent; a frame lost on the
 * way was. Per CPU, the event totals tell which when only one of the two
 * lost events there; the rest may be either.
 */
static void blocks_where(FILE *f, const struct bt_loss *l)
{
	uint64_t either = l->blocks_missing - l->blocks_target - l->blocks_wire;
	const char *sep = "";

	fprintf(f, "; %llu block%s missing:", (unsigned long long)l->blocks_missing,
		bt_plural(l->blocks_missing));
	if (l->blocks_target) {
		fprintf(f, " %llu overwritten on the target", (unsigned long long)l->blocks_target);
		sep = ",";
	}
	if (l->blocks_wire) {
		fprintf(f, "%s %llu lost on the wire", sep, (unsigned long long)l->blocks_wire);
		sep = ",";
	}
	if (either)
		fprintf(f, "%s %llu overwritten on the target or lost on the wire", sep,
			(unsigned long long)either);
}

void bt_loss_print(FILE *f, const struct bt_decoder *d, const char *prefix,
		   uint64_t damaged_frames)
{
	struct bt_loss l;

	if (d->filter)		/* left out on purpose, not lost */
		bt_dec_stage->summary(f, d, prefix);
	bt_loss(d, &l);
	if (l.totals) {
		if (l.lost) {
			fprintf(f, "%s%llu of %llu events lost (%.0f %%): on the target %llu ring "
				"overwritten, %llu ring full (stop mode), %llu discarded; %llu lost "
				"on the wire", prefix, (unsigned long long)l.lost,
				(unsigned long long)l.produced,
				l.produced ? 100.0 * (double)l.lost / (double)l.produced : 0.0,
				(unsigned long long)l.overwritten, (unsigned long long)l.dropped,
				(unsigned long long)l.discarded, (unsigned long long)l.wire);
			if (damaged_frames)
				fprintf(f, " (%llu damaged frame%s)", (unsigned long long)damaged_frames,
					bt_plural(damaged_frames));
			if (l.blocks_missing)
				blocks_where(f, &l);
			fputc('\n', f);
		}
		bt_loss_imbalance(f, d, prefix);
		return;
	}
	if (l.lost)
		fprintf(f, "%s%llu event%s lost in holes: %llu on the target (ring full or "
			"discarded), %llu ring overwritten or frames lost\n", prefix,
			(unsigned long long)l.lost, bt_plural(l.lost), (unsigned long long)l.holes_target,
			(unsigned long long)l.holes_other);
	if (!d->ends)
		fprintf(f, "%sthe trace is cut short: no end-of-stream frame (the capture "
			"stopped early or the file was truncated): events after the last frame "
			"are not accounted for\n", prefix);
	else if (d->end.empty_end)
		fprintf(f, "%sno end-of-stream frame with totals: events after the last frame "
			"are not accounted for\n", prefix);
}

int bt_outcome(const struct bt_decoder *d, unsigned *outcome, int64_t *status)
{
	if (d->mark.seen) {
		*outcome = d->mark.outcome;
		*status = d->mark.status;
		return 1;
	}
	if (d->run.known) {
		*outcome = d->run.outcome;
		*status = d->run.status;
		return 1;
	}
	return 0;
}

const char *bt_outcome_word(unsigned outcome, char *buf, size_t n)
{
	const char *w = run_outcome_name(outcome);

	if (w)
		return w;
	snprintf(buf, n, "outcome %u", outcome);
	return buf;
}

void bt_outcome_text(unsigned outcome, int64_t status, char *buf, size_t n)
{
	char wb[24];

	if (outcome == RUN_EXIT)
		snprintf(buf, n, "exit status %lld (main() returned %lld)",
			 (long long)run_outcome_code(outcome, (int)status), (long long)status);
	else
		snprintf(buf, n, "%s (exit status %d)", bt_outcome_word(outcome, wb, sizeof(wb)),
			 run_outcome_code(outcome, (int)status));
}

void bt_outcome_mark(unsigned outcome, int64_t status, char *buf, size_t n)
{
	char wb[24];

	if (outcome == RUN_EXIT)
		snprintf(buf, n, "run ended: exit, status %lld", (long long)status);
	else
		snprintf(buf, n, "run ended: %s", bt_outcome_word(outcome, wb, sizeof(wb)));
}

void bt_outcome_print(FILE *f, const struct bt_decoder *d, const char *prefix)
{
	unsigned outcome;
	int64_t status;
	char text[96], ts[40];

	/* No END frame: bt_loss_print says the trace is cut short. An END
	 * frame without the outcome (an older target): nothing to say. */
	if (!d->ends || !bt_outcome(d, &outcome, &status))
		return;
	bt_outcome_text(outcome, status, text, sizeof(text));
	fprintf(f, "%sthe run%s%s ended: %s", prefix, d->meta.app ? " of app " : "",
		d->meta.app ? d->meta.app : "", text);
	if (d->mark.seen) {
		bt_fmt_seconds(ts, sizeof(ts), d->mark.ts, bt_freq(d));
		fprintf(f, ", on CPU %u at %s", d->mark.cpu, ts);
	}
	fputc('\n', f);
}
