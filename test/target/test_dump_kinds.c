/*
 * test/target/test_dump_kinds.c: the console dump (trace/output/dump*.c)
 * prints a line for a record of every kind the wire has, and counts
 * exactly the records it prints (issue 39: a probe hit was counted and
 * not shown, "# trace dump: 11 records" over 6 lines).
 *
 * One record of each kind, and of each extension subtype, goes into this
 * CPU's ring (in stop mode, where loss records stand where they are, and
 * in overwrite mode, where they do not), the probe hits written by real
 * probes; the dump's lines are read back through its sink (dump.h) and
 * each record's text compared whole. Which kinds and subtypes exist is
 * asked of the wire itself: every kind its encoder takes, every subtype
 * its parser knows (wire_rec_encode, wire_ext_parse), so a kind or
 * subtype added to the wire with no record here fails the test until it
 * has one, and a record with no line of its own fails it too.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "irq.h"
#include "kprintf.h"
#include "ktest.h"
#include "ktime.h"
#include "mmu.h"
#include "output/dump.h"
#include "output/export.h"
#include "ring/ring.h"
#include "smp.h"
#include "tracecheck.h"
#include "tracers/retprobe.h"
#include "wire.h"

#include "probe_check.h"

extern const struct trace_format __bt_formats_start[];

static const struct trace_format fmt_kinds
__attribute__((used, section(".bt_formats"), aligned(8))) = { "dump kinds: %d\nthen %x" };

/* What the dump printed, line by line. */
#define LINES_MAX	48
static char lines[LINES_MAX][200];
static unsigned int nlines, lines_over;

static void collect(void *ctx, const char *text)
{
	(void)ctx;
	if (nlines < LINES_MAX)
		ksnprintf(lines[nlines++], sizeof(lines[0]), "%s", text);
	else
		lines_over++;
}

/* What each record written must show, in order, after its time stamp
 * (a loss record: the whole line). */
#define WANT_MAX	32
static struct want {
	char text[120];
	bool event;	/* counted: every record but a loss record */
	bool shown;	/* in this ring's mode */
} want[WANT_MAX];
static unsigned int nwant;
static enum ring_mode mode;
static uint64_t site;		/* pb_mt's patch site */
static uint64_t caller;		/* a return address in pb_add, as kinds 0 and 1 carry it */

static void expect_line(bool event, bool shown, const char *text)
{
	if (nwant < WANT_MAX) {
		want[nwant].event = event;
		want[nwant].shown = shown;
		ksnprintf(want[nwant++].text, sizeof(want[0].text), "%s", text);
	}
}

/* Writes r into this CPU's ring as the wire encodes it. */
static void write_rec(const struct wire_record *r)
{
	uint8_t b[96];
	struct wire_out o;
	uint8_t *p;

	wire_out_init(&o, b, sizeof(b));
	if (wire_rec_encode(&o, r) || o.len < 1)
		return;
	p = ring_reserve(r->kind, (unsigned int)o.len - 1);	/* its header: delta 0, one byte */
	if (p) {
		memcpy(p, b + 1, o.len - 1);
		ring_commit();
	}
}

static void write_ext(uint8_t subtype, const uint8_t *body, size_t len)
{
	write_rec(&(struct wire_record){ .kind = WIRE_REC_EXT, .subtype = subtype, .data = body,
				   .data_len = len });
}

/* One writer per record kind: writes its records, says their lines. */
static void w_func_caller(void)
{
	write_rec(&(struct wire_record){ .kind = WIRE_REC_FUNC_CALLER, .site = site, .caller = caller });
	expect_line(true, true, " pb_mt <-pb_add");
}

static void w_func(void)	/* the slot the kind 1 just before filled */
{
	write_rec(&(struct wire_record){ .kind = WIRE_REC_FUNC, .site = site });
	expect_line(true, true, " pb_mt <-pb_add");
}

static void w_exit(void)
{
	write_rec(&(struct wire_record){ .kind = WIRE_REC_EXIT, .site = site,
				   .duration = time_counter_hz() / 1000,
				   .flags = WIRE_EXIT_HAS_RETVAL, .retval = -7 });
	expect_line(true, true, " } pb_mt 1000.000 us = -7");
}

static void w_graph_entry(void)
{
	write_rec(&(struct wire_record){ .kind = WIRE_REC_GRAPH_ENTRY, .site = site, .depth = 2 });
	expect_line(true, true, "     pb_mt() {");
}

static void w_event(void)
{
	const struct tp_event *ev = tp_find("gdbhang:step");
	uint8_t b[16];
	size_t n = 0;
	unsigned int id = 0;

	while (id < tp_count() && tp_by_id(id) != ev)
		id++;
	n += wire_varint_put(b, wire_zigzag(3));
	n += wire_varint_put(b + n, 5);
	memcpy(b + n, "al\npa", 5);
	write_rec(&(struct wire_record){ .kind = WIRE_REC_EVENT, .id = id, .data = b, .data_len = n + 5 });
	expect_line(true, true, " gdbhang:step: i=3 name=al?pa");
}

static void w_printf(void)	/* the format's newline shows as '?' */
{
	uint8_t b[8];
	size_t n = wire_varint_put(b, wire_zigzag(42));

	n += wire_varint_put(b + n, wire_zigzag(255));
	write_rec(&(struct wire_record){ .kind = WIRE_REC_PRINTF, .count = 2, .data = b, .data_len = n,
				   .id = (uint64_t)(&fmt_kinds - __bt_formats_start) });
	expect_line(true, true, " dump kinds: 42?then ff");
}

static void w_lost(void)
{
	char text[40];

	write_rec(&(struct wire_record){ .kind = WIRE_REC_LOST, .count = 9 });
	ksnprintf(text, sizeof(text), "CPU:%u [LOST 9 EVENTS]", smp_cpu_id());
	expect_line(false, mode == RING_STOP, text);	/* overwrite: older than shown */
}

static uint32_t code_of(uintptr_t ret)	/* a return address as the wire has it */
{
	return (uint32_t)((ret - (uintptr_t)_text) / 4);
}

/* Extension subtypes (docs/wire.md 2.6), each body laid out by hand. */
static void x_args(void)
{
	uint8_t b[16];
	size_t n = wire_varint_put(b, site);

	b[n++] = 2;
	n += wire_varint_put(b + n, wire_zigzag(5));
	n += wire_varint_put(b + n, wire_zigzag(-1));
	write_ext(WIRE_EXT_ARGS, b, n);
	expect_line(true, true, " args of pb_mt: 0x5 0xffffffffffffffff");
	write_ext(WIRE_EXT_ARGS, b, 1);	/* cut short: malformed, still a line */
	expect_line(true, true, " malformed extension record of subtype 1 (length 1)");
}

static void x_stack(void)
{
	uint8_t b[16] = { 2 };
	size_t n = 1;

	n += wire_varint_put(b + n, code_of((uintptr_t)pb_add + 8));
	n += wire_varint_put(b + n, code_of((uintptr_t)pb_mt + 8));
	write_ext(WIRE_EXT_STACK, b, n);
	expect_line(true, true, " <stack trace>");
}

static void x_trigger(void)
{
	uint8_t b[16];
	size_t n = wire_varint_put(b, site);

	b[n++] = WIRE_TRIG_SNAPSHOT;
	write_ext(WIRE_EXT_TRIGGER, b, n);
	expect_line(true, true, " trigger snapshot on pb_mt");
}

static void x_outcome(void)
{
	uint8_t b[4] = { 0 /* RUN_EXIT */ };
	size_t n = 1 + wire_varint_put(b + 1, wire_zigzag(3));

	write_ext(WIRE_EXT_OUTCOME, b, n);
	expect_line(true, true, " ==== run ended: exit, status 3 ====");
}

/* Hits of real probes, planted by dump_kinds_every_kind (an instruction
 * probe 'dk' in pb_add, a return probe 'dr' on pb_mt), and of a number
 * no probe has. */
static void x_probe(void)
{
	static const uint32_t words[4] = { 1, 2, 0xdeadbeef, 4 };
	uint8_t b[16];
	size_t n = wire_varint_put(b, 1000000);

	pb_add(40, (uint64_t)-9, words);
	expect_line(true, true, " probe dk: a=40 b=-9 w=0xdeadbeef");
	pb_mt(5, 6);
	expect_line(true, true, " probe dr (return): sum=11");
	b[n++] = 2;		/* values */
	b[n++] = 1 << 1;	/* the second one's read faulted */
	n += wire_varint_put(b + n, wire_zigzag(5));
	n += wire_varint_put(b + n, 0);
	write_ext(WIRE_EXT_PROBE, b, n);
	expect_line(true, true, " probe #1000000: arg1=0x5 arg2=(fault)");
}

static void x_string(void)
{
	uint8_t b[16];
	size_t n = wire_varint_put(b, site);

	b[n++] = 1;
	b[n++] = WIRE_STR_CUT;
	b[n++] = 5;
	memcpy(b + n, "ab\ncd", 5);
	write_ext(WIRE_EXT_STRING, b, n + 5);
	expect_line(true, true, " string x1 of pb_mt: \"ab?cd\"...");
}

static void (*const ext_writers[])(void) = {
	[WIRE_EXT_ARGS] = x_args, [WIRE_EXT_STACK] = x_stack, [WIRE_EXT_TRIGGER] = x_trigger,
	[WIRE_EXT_OUTCOME] = x_outcome, [WIRE_EXT_PROBE] = x_probe,
	[WIRE_EXT_STRING] = x_string,
};

static unsigned int ext_missing;	/* subtypes the wire knows, with no writer */

static void w_ext(void)
{
	static const uint8_t one[1];

	for (unsigned int s = 0; s < 256; s++) {
		struct wire_record r = { .kind = WIRE_REC_EXT, .subtype = (uint8_t)s, .data = one,
					 .data_len = 1 };
		struct wire_ext x;

		if (!wire_ext_parse(&r, &x))
			continue;	/* a subtype the wire does not know */
		if (s < sizeof(ext_writers) / sizeof(ext_writers[0]) && ext_writers[s]) {
			ext_writers[s]();
		} else {
			kprintf("# extension subtype %u: the wire parses it, this test writes none\n", s);
			ext_missing++;
		}
	}
	write_ext(200, (const uint8_t *)"xyz", 3);
	expect_line(true, true, " extension record of subtype 200, unknown to this version (length 3)");
}

static void (*const kind_writers[])(void) = {
	[WIRE_REC_FUNC_CALLER] = w_func_caller, [WIRE_REC_FUNC] = w_func,
	[WIRE_REC_GRAPH_ENTRY] = w_graph_entry, [WIRE_REC_EXIT] = w_exit,
	[WIRE_REC_EVENT] = w_event, [WIRE_REC_PRINTF] = w_printf, [WIRE_REC_LOST] = w_lost,
	[WIRE_REC_EXT] = w_ext,
};

/* The text after "[CPU] S.UUUUUU:" (the record's time), or NULL. */
static const char *after_ts(const char *l)
{
	unsigned int i = 1, d;

	if (l[0] != '[')
		return NULL;
	for (d = 0; l[i] >= '0' && l[i] <= '9'; i++)
		d++;
	if (d != 3 || l[i++] != ']' || l[i++] != ' ')
		return NULL;
	for (d = 0; l[i] >= '0' && l[i] <= '9'; i++)
		d++;
	if (!d || l[i++] != '.')
		return NULL;
	for (d = 0; l[i] >= '0' && l[i] <= '9'; i++)
		d++;
	return d == 6 && l[i] == ':' ? l + i + 1 : NULL;
}

/* Writes every kind (a kind 0 right after the kind 1 that fills its
 * slot: 'kinds' orders them so) into a fresh ring of mode m, dumps it
 * and checks its lines. */
static void dump_every_kind(struct ktest_ctx *t, enum ring_mode m)
{
	static const unsigned int order[] = { 1, 0, 3, 2, 4, 5, 6, 7 };
	unsigned int cpu = smp_cpu_id(), kinds = 0, events = 0, records = 0, at = 0;
	unsigned long n, flags;
	char tail[40];

	mode = m;
	nwant = nlines = lines_over = ext_missing = 0;
	/* Every kind the wire's encoder takes has its writer here. */
	for (unsigned int k = 0; k < 256; k++) {
		uint8_t b[32];
		struct wire_out o;

		wire_out_init(&o, b, sizeof(b));
		if (wire_rec_encode(&o, &(struct wire_record){ .kind = k }))
			continue;
		kinds++;
		if (k >= sizeof(kind_writers) / sizeof(kind_writers[0]) || !kind_writers[k])
			kprintf("# record kind %u: the wire encodes it, this test writes none\n", k);
	}
	KT_EQ(t, kinds, sizeof(order) / sizeof(order[0]));
	export_hold();
	KT_EQ(t, ring_setup(4 * RING_BLOCK_SIZE, m), 0);
	flags = irq_save();	/* no tick closes the block between kinds 1 and 0 */
	for (unsigned int i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (order[i] < sizeof(kind_writers) / sizeof(kind_writers[0]) &&
		    kind_writers[order[i]])
			kind_writers[order[i]]();
	if (m == RING_OVERWRITE) {	/* last: the rest of its block cannot be read */
		write_rec(&(struct wire_record){ .kind = WIRE_REC_EVENT, .id = tp_count() + 7 });
		expect_line(false, true, "");
		ksnprintf(want[nwant - 1].text, sizeof(want[0].text), "CPU:%u [the rest of a "
			  "block is not shown: a tracepoint this image has no schema for]", cpu);
	}
	irq_restore(flags);
	n = trace_dump_ring_to(cpu, ring_of(cpu), &(struct dump_sink){ collect, NULL });
	export_release();

	KT_EQ(t, ext_missing, 0);
	KT_EQ(t, lines_over, 0);
	for (unsigned int i = 0; i < nwant; i++)
		events += want[i].event;
	for (unsigned int i = 0; i < nlines; i++)
		records += after_ts(lines[i]) != NULL;
	/* The count is the lines that open with a time stamp, and every
	 * record but the loss record. */
	ksnprintf(tail, sizeof(tail), "# cpu %u: %lu records", cpu, n);
	KT_EXPECT(t, nlines > 0 && !strcmp(lines[nlines - 1], tail));
	KT_EQ(t, records, n);
	KT_EQ(t, n, events);
	/* Each record's own line, in order. */
	for (unsigned int i = 0; i < nwant; i++) {
		unsigned int j = at;

		for (; j < nlines; j++) {
			const char *s = want[i].event ? after_ts(lines[j]) : lines[j];

			if (s && !strcmp(s, want[i].text))
				break;
		}
		if (j < nlines && want[i].shown) {
			at = j + 1;
		} else if (want[i].shown || j < nlines) {
			kprintf("# %s line '%s'\n", want[i].shown ? "no" : "unexpected", want[i].text);
			KT_EXPECT(t, false);
		}
	}
	/* A stack trace's frames follow it, one line each. */
	for (unsigned int i = 0; i + 2 < nlines; i++)
		if (after_ts(lines[i]) && !strcmp(after_ts(lines[i]), " <stack trace>")) {
			KT_STREQ(t, lines[i + 1], " => pb_add");
			KT_STREQ(t, lines[i + 2], " => pb_mt");
		}
	if (t->failures)
		for (unsigned int i = 0; i < nlines; i++)
			kprintf("#   %s\n", lines[i]);
}

KTEST(dump_kinds_every_record_is_a_line_and_counted)
{
	char text[160];
	const char *why;

	site = (uint64_t)site_of("pb_mt");
	caller = code_of((uintptr_t)pb_add + 8);
	pbt_spec(text, sizeof(text), "dk", "pb_add", (uintptr_t)pb_add, pb_add_at,
		 "a=x2:u8,b=x3:s32,w=+8(x5):x32");
	KT_EQ(t, pbt_plant(text, &why), 0);
	struct probe_spec s;

	KT_EQ(t, probe_spec_parse("dr=pb_mt%return,sum=$retval:u64", &s, &why), 0);
	KT_EQ(t, retprobe_plant(&s, &why), 0);
	dump_every_kind(t, RING_STOP);
	dump_every_kind(t, RING_OVERWRITE);
	KT_EQ(t, probe_remove("dk", &why), 0);
	KT_EQ(t, retprobe_remove("dr", &why), 0);
	check_reset();
}
