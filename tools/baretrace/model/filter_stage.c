/*
 * tools/baretrace/model/filter_stage.c: the filter stage's side towards
 * the decoder (decode.h's struct bt_dec_stage) and the callbacks other
 * than records: --cpu applies to holes, blocks and profile dumps; the
 * other filters cannot apply to a profile dump's sums, so with them it is
 * left out (and counted); order is kept through the queue.
 */
#include <stdlib.h>

#include "../../../wire/wire.h"
#include "../base/util.h"
#include "../decode/decode.h"

#include "filter_int.h"
#include "model.h"

/* ---- the other callbacks: --cpu applies, order is kept -------------------- */

static int cpu_off(unsigned cpu)
{
	return CONF->have_cpu && !CONF->cpu[cpu];
}

static void on_hole(struct bt_decoder *d, unsigned cpu, uint64_t events, const char *cause)
{
	struct item it = { .type = IT_HOLE, .verdict = V_KEEP, .cpu = cpu, .n = events,
			   .cause = cause, .ts = d->books[cpu].ts };

	if (!cpu_off(cpu))
		bt_fq_put(d, &it);
}

static void on_block_begin(struct bt_decoder *d, const struct wire_frame *f, uint64_t base_ts)
{
	struct item it = { .type = IT_BEGIN, .verdict = V_KEEP, .cpu = f->cpu, .ts = base_ts,
			   .f = { f->type, f->cpu, f->seq, NULL, 0 } };

	if (!cpu_off(f->cpu))
		bt_fq_put(d, &it);
}

static void on_block_end(struct bt_decoder *d, const struct wire_frame *f)
{
	struct item it = { .type = IT_END, .verdict = V_KEEP, .cpu = f->cpu,
			   .f = { f->type, f->cpu, f->seq, NULL, 0 } };

	if (!cpu_off(f->cpu))
		bt_fq_put(d, &it);
}

static void on_profile(struct bt_decoder *d, const struct wire_frame *f)
{
	struct item it = { .type = IT_PROFILE, .verdict = V_KEEP, .cpu = f->cpu, .f = *f };

	if (cpu_off(f->cpu))
		return;
	if (CONF->nfunc || CONF->nnotrace || CONF->have_depth || CONF->have_from ||
	    CONF->have_to || CONF->have_min) {
		d->filter->profiles_left_out++;
		return;
	}
	bt_fq_put(d, &it);
}

static void on_section(struct bt_decoder *d, int prev)
{
	struct item it = { .type = IT_SECTION, .verdict = V_KEEP, .section = prev };

	bt_filter_settle_all(d);		/* the other boot's calls never return */
	bt_fq_put(d, &it);
}

/* ---- the decoder's side ----------------------------------------------------- */

static void attach(struct bt_decoder *d)
{
	struct bt_filter *fi;

	if (!d->v || !d->v->record)
		return;
	fi = bt_alloc(sizeof(*fi));
	fi->inner = d->v;
	/* Only what the command listens to: bt_decode_file looks. */
	fi->v.record = bt_filter_record;
	fi->v.hole = d->v->hole ? on_hole : NULL;
	fi->v.block_begin = d->v->block_begin ? on_block_begin : NULL;
	fi->v.block_end = d->v->block_end ? on_block_end : NULL;
	fi->v.profile = d->v->profile ? on_profile : NULL;
	fi->v.section = d->v->section ? on_section : NULL;
	d->filter = fi;
	d->v = &fi->v;
}

static void finish(struct bt_decoder *d)
{
	bt_filter_settle_all(d);
}

static void release(struct bt_decoder *d)
{
	struct bt_filter *fi = d->filter;

	if (!fi)
		return;
	for (size_t i = fi->head; i < fi->len; i++) {
		free((void *)fi->q[i].r.data);
		free((void *)fi->q[i].f.body);
	}
	for (unsigned c = 0; c < BT_MAX_CPUS; c++)
		free(fi->cpu[c]);
	free(fi->q);
	d->v = fi->inner;
	free(fi);
	d->filter = NULL;
}

static void summary(FILE *f, const struct bt_decoder *d, const char *prefix)
{
	const struct bt_filter *fi = d->filter;

	fprintf(f, "%s%llu event%s left out by the filter (%s)\n", prefix,
		(unsigned long long)fi->left_out, bt_plural(fi->left_out), bt_filter_conf.desc);
	if (fi->profiles_left_out)
		fprintf(f, "%s%llu profile dump%s left out: they hold sums, only --cpu applies "
			"to them\n", prefix, (unsigned long long)fi->profiles_left_out,
			bt_plural(fi->profiles_left_out));
}

const struct bt_dec_stage bt_filter_stage = { attach, finish, release, summary, bt_filter_check };
