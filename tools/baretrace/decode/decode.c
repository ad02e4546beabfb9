/*
 * tools/baretrace/decode/decode.c: checked frames, in stream order, to records.
 *
 * Keeps what the stream says about itself (metadata, symbol dumps), the
 * per-CPU sequence numbers that reveal missing frames, each block's
 * first event number for the books (books.c: holes), and up to
 * BT_MAX_PENDING data frames that arrived before any metadata. Records
 * go to the command's visitor one at a time, so memory does not grow
 * with the length of the trace.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../wire/wire.h"
#include "../base/util.h"

#include "decode.h"
#include "symtab.h"

/* Commands that show string arguments (report) set it: the others never
 * see subtype-6 records, as if they were of a later version. */
int bt_decode_strings;

#define MAX_WARNINGS	10	/* per kind of complaint, then quiet */

const struct bt_dec_stage *bt_dec_stage;

void bt_dec_init(struct bt_decoder *d, const struct bt_visitor *v, void *user)
{
	memset(d, 0, sizeof(*d));
	d->v = v;
	d->user = user;
	bt_symtab_init(&d->syms);
	if (bt_dec_stage)	/* host-side filters, if any (model/filter.c) */
		bt_dec_stage->attach(d);
}

static int event_types(void *ctx, uint64_t id, const uint8_t **types)
{
	const struct bt_schema *s = bt_meta_schema(&((struct bt_decoder *)ctx)->meta, id);

	if (!s)
		return -1;
	*types = s->types;
	return (int)s->nfields;
}

/*
 * Data frames count per CPU from 0; a jump forward means blocks that
 * never arrived (overwritten on the target or lost on the way). The
 * events they held are found as a hole by their numbers (books.c).
 */
static void check_data_seq(struct bt_decoder *d, const struct wire_frame *f)
{
	unsigned cpu = f->cpu;

	if (d->have_seq[cpu] && f->seq > d->next_seq[cpu]) {
		d->seq_gaps++;
		d->frames_lost += f->seq - d->next_seq[cpu];
	}
	/* A step back is a new boot (or a replay): resynchronise silently. */
	if (d->have_seq[cpu] && f->seq < d->next_seq[cpu])
		bt_books_restart(d, cpu);
	d->have_seq[cpu] = 1;
	d->next_seq[cpu] = f->seq + 1;
}

/* Profile dumps count per CPU, apart from data; a gap there loses some
 * functions' figures of that CPU, no events. */
static void check_profile_seq(struct bt_decoder *d, const struct wire_frame *f)
{
	unsigned cpu = f->cpu;

	if (d->have_prof_seq[cpu] && f->seq > d->next_prof_seq[cpu])
		d->seq_gaps++;
	d->have_prof_seq[cpu] = 1;
	d->next_prof_seq[cpu] = f->seq + 1;
}

/* Other frame types count per type; a gap there loses no events. */
static void check_type_seq(struct bt_decoder *d, const struct wire_frame *f)
{
	unsigned t = f->type & 15;

	if (d->have_type_seq[t] && f->seq > d->next_type_seq[t])
		d->seq_gaps++;
	if (d->have_type_seq[t] && f->seq < d->next_type_seq[t] && t == WIRE_FRAME_META) {
		memset(d->have_seq, 0, sizeof(d->have_seq));	/* target restarted */
		memset(d->have_prof_seq, 0, sizeof(d->have_prof_seq));
		bt_books_new_boot(d);
	}
	d->have_type_seq[t] = 1;
	d->next_type_seq[t] = f->seq + 1;
}

/*
 * A data block, of this boot or (type 6) of the previous one, whose
 * events have their own books (prev.c) and are not this boot's: not
 * counted in d->records, nor in the sequence numbers or the times.
 */
static void decode_data(struct bt_decoder *d, const struct wire_frame *f)
{
	struct wire_record r;
	int rc;
	uint64_t n = 0, events = 0;
	int prev = f->type == WIRE_FRAME_PREV;
	int consecutive = d->have_seq[f->cpu] && f->seq == d->next_seq[f->cpu];

	if (prev) {
		d->prev.blocks++;
	} else {
		check_data_seq(d, f);
		d->data_frames++;
		d->cpus_seen[f->cpu] = 1;
	}
	if (wire_rec_begin(&d->it, f->body, f->body_len, event_types, d)) {
		if (d->bad_blocks++ < MAX_WARNINGS && !d->quiet)
			bt_warn("CPU %u %sblock %llu has no base timestamp and first event "
				"number; skipped", f->cpu, prev ? "previous boot's " : "",
				(unsigned long long)f->seq);
		if (!prev)
			d->books[f->cpu].end_unknown = 1;
		return;
	}
	/* The records' layout is the stream's version's (a version 2 or 3
	 * file names its kind-0 sites; 4 names caller slots). */
	if (d->meta.version)
		d->it.version = (unsigned)d->meta.version;
	if (d->v && d->v->block_begin)
		d->v->block_begin(d, f, d->it.ts);
	if (prev) {
		bt_prev_block(d, f->cpu, d->it.first_event);
	} else {
		d->books[f->cpu].ts = d->it.ts;
		bt_books_block(d, f->cpu, d->it.first_event, consecutive, f->seq);
	}
	while ((rc = wire_rec_next(&d->it, &r)) == WIRE_REC_OK) {
		struct wire_ext x;
		int parsed;

		n++;
		/* Kind 6 is informational (wire.md 2.8): holes place losses. */
		if (r.kind == WIRE_REC_LOST)
			continue;
		events++;
		parsed = r.kind == WIRE_REC_EXT ? wire_ext_parse(&r, &x) : 1;
		if (parsed > 0 && r.kind == WIRE_REC_EXT && x.subtype == WIRE_EXT_STRING &&
		    !bt_decode_strings)
			continue;	/* a string the command does not show: not an error */
		if (parsed <= 0) {
			/* Unknown subtypes are skipped; known ones that do not
			 * parse are skipped and counted. */
			if (r.subtype >= WIRE_EXT_ARGS && r.subtype <= WIRE_EXT_STRING &&
			    d->bad_exts++ < MAX_WARNINGS && !d->quiet)
				bt_warn("CPU %u block %llu: extension record %llu (subtype %u) is "
					"malformed; skipped", f->cpu, (unsigned long long)f->seq,
					(unsigned long long)n, r.subtype);
			continue;
		}
		if (prev) {
			if (d->v && d->v->record)
				d->v->record(d, f->cpu, &r);
			continue;
		}
		if (r.kind == WIRE_REC_EXT && x.subtype == WIRE_EXT_OUTCOME && !d->mark.seen)
			d->mark = (struct bt_mark){ 1, f->cpu, x.outcome, r.ts, x.status };
		d->records++;
		if (!d->have_ts || r.ts < d->first_ts)
			d->first_ts = r.ts;
		if (!d->have_ts || r.ts > d->last_ts)
			d->last_ts = r.ts;
		d->have_ts = 1;
		if (d->v && d->v->record)
			d->v->record(d, f->cpu, &r);
	}
	if (rc < 0 && d->bad_blocks++ < MAX_WARNINGS && !d->quiet)
		bt_warn("CPU %u block %llu: record %llu is %s; rest of the block skipped",
			f->cpu, (unsigned long long)f->seq, (unsigned long long)n + 1,
			rc == WIRE_REC_EEVENT ? "a tracepoint with no schema in the metadata"
					      : "malformed");
	if (prev) {
		bt_prev_block_end(d, f->cpu, events);
	} else {
		d->events += events;
		d->books[f->cpu].ts = d->it.ts;
		bt_books_block_end(d, f->cpu, events, rc < 0);
	}
	if (d->v && d->v->block_end)
		d->v->block_end(d, f);
}

static void flush_pending(struct bt_decoder *d)
{
	struct wire_frame f;

	for (size_t i = 0; i < d->npending; i++) {
		if (!wire_frame_parse(d->pending[i].payload, d->pending[i].len, &f))
			decode_data(d, &f);
		free(d->pending[i].payload);
	}
	d->npending = 0;
}

static int take_meta(struct bt_decoder *d, const struct wire_frame *f)
{
	if (bt_meta_parse(&d->meta, f->body, f->body_len) && !d->quiet)
		bt_warn("metadata frame %llu is malformed; used what parsed",
			(unsigned long long)f->seq);
	if (d->meta.version < WIRE_VERSION_OLDEST || d->meta.version > WIRE_VERSION) {
		if (d->quiet)
			return -1;
		fflush(stdout);
		fprintf(stderr, "baretrace: trace stream format version %llu is not supported "
			"(this baretrace reads versions %d to %d)\n",
			(unsigned long long)d->meta.version, WIRE_VERSION_OLDEST, WIRE_VERSION);
		return -1;
	}
	if (d->elf_path && d->meta.have_hash && d->meta.image_hash != d->elf_hash) {
		if (d->quiet)	/* a first pass: the printing pass says it */
			return -1;
		fflush(stdout);
		/* Another board's image, another app, or the same one
		 * rebuilt: say which, by name. */
		if (d->meta.board && d->elf_board && strcmp(d->meta.board, d->elf_board))
			fprintf(stderr, "baretrace: %s does not match this trace: it is an image "
				"for board %s, the trace is from board %s (pass build/%s/"
				"baretrace.elf, or the ELF of the image that ran there)\n",
				d->elf_path, d->elf_board, d->meta.board, d->meta.board);
		else if (d->meta.app && d->elf_app && strcmp(d->meta.app, d->elf_app))
			fprintf(stderr, "baretrace: %s does not match this trace: the trace is "
				"from app %s; %s is app %s (image hash 0x%08x in the trace, "
				"0x%08x in the ELF)\n", d->elf_path, d->meta.app, d->elf_path,
				d->elf_app, d->meta.image_hash, d->elf_hash);
		else
			fprintf(stderr, "baretrace: %s does not match this trace%s%s%s: image "
				"hash 0x%08x in the trace, 0x%08x in the ELF's .bt_tables (was "
				"the image rebuilt after the capture?)\n", d->elf_path,
				!d->meta.app ? "" : d->elf_app ? " (both are app " :
				" (the trace is from app ", d->meta.app ? d->meta.app : "",
				d->meta.app ? ")" : "", d->meta.image_hash, d->elf_hash);
		return -1;
	}
	return 0;
}

/* A profile dump goes to the command whole, or not at all if malformed. */
static void take_profile(struct bt_decoder *d, const struct wire_frame *f)
{
	struct wire_profile_iter it;
	struct wire_profile_entry e;
	int rc = wire_profile_begin(&it, f->body, f->body_len);

	while (!rc && (rc = wire_profile_next(&it, &e)) == WIRE_REC_OK)
		;
	if (rc < 0) {
		if (d->bad_profiles++ < MAX_WARNINGS && !d->quiet)
			bt_warn("CPU %u profile dump %llu is malformed; skipped", f->cpu,
				(unsigned long long)f->seq);
		return;
	}
	d->profile_frames++;
	d->cpus_seen[f->cpu] = 1;
	if (d->v && d->v->profile)
		d->v->profile(d, f);
}

int bt_dec_frame(struct bt_decoder *d, const uint8_t *payload, size_t len)
{
	struct wire_frame f;

	if (wire_frame_parse(payload, len, &f)) {
		d->bad_frames++;
		return 0;
	}
	d->frames++;
	if (f.type == WIRE_FRAME_PROFILE)
		check_profile_seq(d, &f);
	else if (f.type != WIRE_FRAME_DATA && f.type != WIRE_FRAME_PREV)
		check_type_seq(d, &f);
	if (d->prev.active && (f.type == WIRE_FRAME_DATA || f.type == WIRE_FRAME_PROFILE ||
			       f.type == WIRE_FRAME_END)) {
		d->prev.active = 0;	/* back to this boot's frames */
		if (d->v && d->v->section)
			d->v->section(d, 0);
	}
	switch (f.type) {
	case WIRE_FRAME_PREV_INFO:
		if (!d->want_prev)
			break;
		if (bt_prev_info(d, &f)) {
			if (!d->quiet)
				bt_warn("previous boot summary frame is malformed; skipped");
			break;
		}
		d->prev.active = 1;
		if (d->v && d->v->section)
			d->v->section(d, 1);
		break;
	case WIRE_FRAME_PREV:
		/* Sent right after the metadata and the summary. */
		if (!d->want_prev || !d->meta.seen || !d->prev.seen)
			d->prev.skipped++;
		else
			decode_data(d, &f);
		break;
	case WIRE_FRAME_META:
		return take_meta(d, &f);
	case WIRE_FRAME_SYMS:
		if (bt_symtab_add_dump(&d->syms, f.body, f.body_len,
				       d->meta.version ? (unsigned)d->meta.version : WIRE_VERSION) &&
		    !d->quiet)
			bt_warn("symbol dump frame %llu is malformed", (unsigned long long)f.seq);
		break;
	case WIRE_FRAME_DATA:
		/* Frames kept for want of metadata wait one step more, for the
		 * symbol dumps the target sends right after its metadata. */
		if (d->meta.seen) {
			flush_pending(d);
			decode_data(d, &f);
		} else if (d->npending < BT_MAX_PENDING) {
			d->pending[d->npending].payload = bt_alloc(len);
			memcpy(d->pending[d->npending].payload, payload, len);
			d->pending[d->npending++].len = len;
		} else {
			d->pending_dropped++;
		}
		break;
	case WIRE_FRAME_PROFILE:
		take_profile(d, &f);
		break;
	case WIRE_FRAME_END:
		if (d->meta.seen)
			flush_pending(d);
		d->ends++;
		bt_books_end(d, &f);
		break;
	case WIRE_FRAME_COVERAGE:
	case WIRE_FRAME_PREV_COVERAGE:
		d->coverage_frames++;
		if (d->v && d->v->coverage)
			d->v->coverage(d, &f);
		break;
	case WIRE_FRAME_CLOCK:
		bt_clock_read(&d->clock, &f);
		break;
	case WIRE_FRAME_HIST:
		d->hist_frames++;
		if (d->v && d->v->hist)
			d->v->hist(d, &f);
		break;
	default:
		break;	/* a frame type from a newer target: skipped */
	}
	return 0;
}

void bt_dec_finish(struct bt_decoder *d)
{
	if (d->npending && !d->meta.seen && !d->quiet)
		bt_warn("no metadata in the trace: times are raw counter ticks and "
			"tracepoints cannot be decoded");
	if (d->pending_dropped && !d->quiet)
		bt_warn("%llu data frames before any metadata were dropped (at most %d are kept)",
			(unsigned long long)d->pending_dropped, BT_MAX_PENDING);
	flush_pending(d);
	if (d->filter)		/* records it held back */
		bt_dec_stage->finish(d);
	if (d->elf_path && d->meta.seen && !d->meta.have_hash && !d->quiet)
		bt_warn("the trace carries no image hash: cannot check that %s matches",
			d->elf_path);
}

void bt_dec_free(struct bt_decoder *d)
{
	for (size_t i = 0; i < d->npending; i++)
		free(d->pending[i].payload);
	d->npending = 0;
	if (d->filter)
		bt_dec_stage->release(d);
	bt_meta_free(&d->meta);
	bt_symtab_free(&d->syms);
	free(d->elf_app);
	d->elf_app = NULL;
	free(d->elf_board);
	d->elf_board = NULL;
	free(d->pre);
	d->pre = NULL;
}
