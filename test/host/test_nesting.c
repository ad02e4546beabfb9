/* sources: wire/wire.c wire/wire_syms.c wire/wire_escape.c wire/wire_read.c wire/wire_frames.c wire/wire_stream.c tools/baretrace/model/callstack.c tools/baretrace/model/flame.c tools/baretrace/output/render/render_ext.c tools/baretrace/decode/decode.c tools/baretrace/decode/decode_file.c tools/baretrace/decode/loss.c tools/baretrace/decode/units.c tools/baretrace/decode/clock.c tools/baretrace/decode/books.c tools/baretrace/decode/prev.c tools/baretrace/decode/meta.c tools/baretrace/decode/symtab.c tools/baretrace/output/render/render.c wire/wire_fmt.c tools/baretrace/input/tracefile.c tools/baretrace/base/util.c kernel/lib/nearest.c */
/*
 * test/host/test_nesting.c: calls nested by containment
 * (tools/baretrace/model/callstack.c) and merged by path (flame.c): exits with
 * no entries (docs/wire.md 2.7) claim the calls inside their span,
 * earlier siblings stay out, a callee that seems to start a few ticks
 * early widens its caller, an outermost call is final at once, arguments
 * stay with their frame, a flood of callerless calls is handed on and
 * counted, and the tree keeps every path with its calls and times.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../tools/baretrace/decode/decode.h"
#include "../../tools/baretrace/model/flame.h"
#include "../../tools/baretrace/model/model.h"
#include "../../wire/wire.h"

#include "tap.h"

static struct wire_record ex(uint64_t site, uint64_t start, uint64_t end)
{
	return (struct wire_record){ .kind = WIRE_REC_EXIT, .site = site, .ts = end,
				     .duration = end - start };
}

static struct wire_record en(uint64_t site, uint64_t depth, uint64_t ts)
{
	return (struct wire_record){ .kind = WIRE_REC_GRAPH_ENTRY, .site = site, .depth = depth,
				     .ts = ts };
}

static void test_threshold(void)
{
	static struct bt_stacks ss;
	struct bt_exit x;
	struct wire_record r;

	r = ex(1, 10, 20);
	bt_stack_exit(&ss, 0, &r, &x);
	tap_ok(!x.matched && x.nkids == 0 && x.self && x.depth == 0, "threshold: a leaf waits");
	x.self->tag = 100;
	r = ex(2, 30, 40);
	bt_stack_exit(&ss, 0, &r, &x);
	x.self->tag = 101;
	r = ex(3, 5, 50);
	bt_stack_exit(&ss, 0, &r, &x);
	tap_ok(x.nkids == 2 && x.kids[0].tag == 100 && x.kids[1].tag == 101 &&
	       x.child_ticks == 20 && x.start == 5 && x.end == 50,
	       "threshold: a caller claims the two calls inside its span");
	r = ex(4, 50, 60);
	bt_stack_exit(&ss, 0, &r, &x);
	tap_ok(x.nkids == 0 && x.start == 50, "threshold: a call ending at its start is a sibling");
	r = ex(5, 60, 60);
	bt_stack_exit(&ss, 0, &r, &x);
	tap_ok(x.nkids == 0, "threshold: a zero-length call at a sibling's end is no caller");
	r = ex(6, 98, 150);		/* recorded a little late: seems to start early */
	bt_stack_exit(&ss, 1, &r, &x);
	r = ex(7, 100, 200);
	bt_stack_exit(&ss, 1, &r, &x);
	tap_ok(x.nkids == 1 && x.start == 98 && x.child_ticks == 52,
	       "threshold: a callee starting 2 ticks early is claimed, the caller widened");
	tap_eq_int((long long)bt_stack_of(&ss, 1)->ndone, 1, "threshold: CPUs are apart");
	bt_stacks_free(&ss);
}

static void test_with_entries(void)
{
	static struct bt_stacks ss;
	struct bt_stack *s = bt_stack_of(&ss, 0);
	struct bt_exit x;
	struct wire_record r;
	struct wire_ext a = { .subtype = WIRE_EXT_ARGS, .site = 2, .count = 2 };
	uint8_t vals[] = { 0x02, 0x03 };	/* 1, -2 */

	a.values = vals;
	a.end = vals + sizeof(vals);
	bt_stack_enter(s, 1, 0, 100);
	bt_stack_enter(s, 2, 1, 110);
	tap_ok(bt_stack_args(s, &a) && s->f[1].nargs == 2 && s->f[1].args[0] == 1 &&
	       s->f[1].args[1] == -2, "entries: arguments stay with their frame");
	tap_ok(!bt_stack_args(s, &a), "entries: only the first arguments record of a call");
	r = ex(2, 110, 150);
	bt_stack_exit(&ss, 0, &r, &x);
	tap_ok(x.matched && x.depth == 1 && x.self && x.frame->nargs == 2,
	       "entries: a matched exit with a caller open waits for it");
	tap_eq_int(bt_stack_holding(s, x.self), 1, "entries: the open caller holds it");
	r = ex(1, 100, 300);
	bt_stack_exit(&ss, 0, &r, &x);
	tap_ok(x.matched && x.depth == 0 && !x.self && x.nkids == 1 && x.child_ticks == 40,
	       "entries: the outermost call claims it and is final");
	bt_stacks_free(&ss);
}

static unsigned spilled, spilled_open;

static void on_spill(void *ctx, unsigned cpu, const struct bt_done *d, unsigned open)
{
	(void)ctx;
	(void)cpu;
	(void)d;
	spilled++;
	spilled_open += open;
}

static void test_spill(void)
{
	static struct bt_stacks ss;
	struct bt_exit x;
	struct wire_record r;

	ss.spill = on_spill;
	for (uint64_t i = 0; i <= BT_DONE_MAX; i++) {
		r = ex(1, 10 + 10 * i, 15 + 10 * i);
		bt_stack_exit(&ss, 0, &r, &x);
	}
	tap_ok(spilled == BT_DONE_MAX / 2 && spilled_open == 0 &&
	       bt_stack_of(&ss, 0)->ndone == BT_DONE_MAX / 2 + 1,
	       "spill: past the limit the older half is handed on");
	r = ex(2, 0, 20 + 10 * BT_DONE_MAX);
	bt_stack_exit(&ss, 0, &r, &x);
	tap_ok(x.nkids == BT_DONE_MAX / 2 + 1 && bt_stack_of(&ss, 0)->misnested == 1,
	       "spill: a caller of calls handed on is counted as misnested");
	bt_stacks_free(&ss);
}

/* The child of 'parent' named 'name', or 0. */
static uint32_t child(const struct bt_flame *fl, uint32_t parent, const char *name)
{
	for (uint32_t c = fl->n[parent].child; c; c = fl->n[c].next)
		if (!strcmp(fl->n[c].name, name))
			return c;
	return 0;
}

static void test_flame(void)
{
	static struct bt_decoder d;
	static struct bt_flame fl;
	static const struct wire_record recs[] = {
		/* CPU 0: exits only. b(a) twice, then c; a appears under both b's */
		{ .kind = WIRE_REC_EXIT, .site = 1, .ts = 20, .duration = 10 },
		{ .kind = WIRE_REC_EXIT, .site = 2, .ts = 30, .duration = 30 },
		{ .kind = WIRE_REC_EXIT, .site = 1, .ts = 45, .duration = 5 },
		{ .kind = WIRE_REC_EXIT, .site = 2, .ts = 50, .duration = 15 },
		{ .kind = WIRE_REC_EXIT, .site = 3, .ts = 60, .duration = 5 },
	};
	struct wire_record r;
	uint32_t b, a, m;

	bt_dec_init(&d, NULL, NULL);
	bt_flame_init(&fl, &d, 0);
	for (size_t i = 0; i < sizeof(recs) / sizeof(recs[0]); i++)
		bt_flame_record(&fl, 0, &recs[i]);
	/* CPU 1: main (depth 0) entered, never returns; its callee does. */
	r = en(0, 0, 100);
	bt_flame_record(&fl, 1, &r);
	r = en(1, 1, 110);
	bt_flame_record(&fl, 1, &r);
	r = ex(1, 110, 130);
	bt_flame_record(&fl, 1, &r);
	bt_flame_finish(&fl);
	b = child(&fl, BT_FLAME_GRAPH, "site#2");
	a = b ? child(&fl, b, "site#1") : 0;
	tap_ok(b && fl.n[b].calls == 2 && fl.n[b].ticks == 45 && fl.n[b].self == 30,
	       "flame: two calls of one caller merge: calls, time and self add up");
	tap_ok(a && fl.n[a].calls == 2 && fl.n[a].ticks == 15 && fl.n[a].value == 15,
	       "flame: their callees merge under them");
	m = child(&fl, BT_FLAME_GRAPH, "site#0");
	tap_ok(m && fl.n[m].calls == 0 && fl.n[m].value == 20 && child(&fl, m, "site#1"),
	       "flame: a call still running at the end holds its callees, as wide as they");
	tap_ok(child(&fl, BT_FLAME_GRAPH, "site#3") && fl.n[BT_FLAME_GRAPH].value == 45 + 5 + 20,
	       "flame: the root is as wide as everything");
	bt_flame_free(&fl);
	bt_flame_init(&fl, &d, 1);
	bt_flame_record(&fl, 3, &recs[0]);
	bt_flame_finish(&fl);
	m = child(&fl, BT_FLAME_GRAPH, "CPU 3");
	tap_ok(m && child(&fl, m, "site#1") && fl.n[m].value == 10,
	       "flame: per CPU, stacks start at a CPU frame");
	bt_flame_free(&fl);
	bt_dec_free(&d);
}

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	test_threshold();
	test_with_entries();
	test_spill();
	test_flame();
	return tap_done();
}
