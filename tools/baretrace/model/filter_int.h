/*
 * tools/baretrace/model/filter_int.h: what the filter stage's files share
 * (filter.c: verdicts; filter_queue.c: the queue of items that wait;
 * filter_stage.c: the decoder's side and the callbacks other than
 * records). Not for other users: model.h has the public side.
 */
#ifndef TOOLS_BARETRACE_MODEL_FILTER_INT_H
#define TOOLS_BARETRACE_MODEL_FILTER_INT_H

#include "../../../wire/wire.h"
#include "../base/util.h"
#include "../decode/decode.h"

#include "model.h"

enum { IT_REC, IT_HOLE, IT_BEGIN, IT_END, IT_PROFILE, IT_SECTION };
enum { V_WAIT, V_KEEP, V_DROP };

#define NO_ITEM		UINT64_MAX
#define FOLLOWERS	10	/* records that share one entry's fate: its
				 * arguments, their strings (up to 8), a stack trace */

struct item {
	uint64_t id;
	uint8_t type, verdict, prev, ctx;	/* ctx: an args record's own verdict */
	unsigned cpu;
	struct wire_record r;			/* its data owned */
	uint64_t n, ts;				/* hole: events; books' ts or base_ts */
	const char *cause;
	struct wire_frame f;			/* body owned (profile) */
	int section;
	unsigned nfollow;
	uint64_t follow[FOLLOWERS];
};

struct fframe {
	uint64_t site, depth;		/* depth rebased with -F */
	uint64_t item;			/* its entry, while it waits */
	uint8_t f, n, cond, time_ok;	/* matched -F, -N; kept but for duration */
};

struct fcpu {
	struct fframe st[BT_STACK_MAX];
	unsigned n, over;		/* open calls stored, and beyond */
	unsigned fopen, nopen;		/* open calls matching -F, -N */
	uint64_t fbase;			/* recorded depth of the outermost F */
	int last_entry;			/* the previous record was an entry */
	uint64_t last_site, last_item;
	uint8_t last_verdict;
	int have_pend;			/* an args record waits for its entry */
	uint64_t pend_site, pend_item;
};

struct bt_filter {
	const struct bt_visitor *inner;
	struct bt_visitor v;
	struct item *q;
	size_t head, len, cap;
	uint64_t next_id;
	struct fcpu *cpu[BT_MAX_CPUS];
	uint64_t left_out, profiles_left_out;
};

#define CONF	(&bt_filter_conf)
/* ---- filter_queue.c ------------------------------------------------------- */

/* The queued item with this id, or NULL (passed on already, or none). */
struct item *bt_fq_lookup(struct bt_filter *fi, uint64_t id);
/* Passes on the items at the head whose verdict is known. */
void bt_fq_drain(struct bt_decoder *d);
/* Passes it on now if nothing waits and its verdict is known, else
 * queues a copy. Sets and returns its id. */
uint64_t bt_fq_put(struct bt_decoder *d, struct item *it);
/* A waiting entry's fate is known: it and the records that follow it. */
void bt_fq_settle(struct bt_filter *fi, uint64_t id, uint8_t v);
/* A record that shares the fate of entry 'id' (still waiting). */
void bt_fq_follow(struct bt_filter *fi, uint64_t id, uint64_t follower);

/* ---- filter.c ----------------------------------------------------------- */

void bt_filter_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r);
/* Every waiting verdict decided as if the stream ended here; per-CPU
 * state starts again. */
void bt_filter_settle_all(struct bt_decoder *d);

/* ---- filter_check.c ----------------------------------------------------- */

/* Names the parts that matched nothing; -1 if one did and no event was
 * kept. */
int bt_filter_check(struct bt_decoder *d);

#endif /* TOOLS_BARETRACE_MODEL_FILTER_INT_H */
