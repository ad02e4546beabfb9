/*
 * test/target/dump_kinds_write.c: a record of every kind and extension
 * subtype the wire has, written into this CPU's ring, each with the line
 * the console dump must print for it (test_dump_kinds.c reads the dump
 * back). Which kinds and subtypes exist is asked of the wire itself:
 * every kind its encoder takes, every subtype its parser knows
 * (wire_rec_encode, wire_ext_parse); one with no writer here is counted
 * missing, so adding one to the wire fails the test until it is here.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "irq.h"
#include "kprintf.h"
#include "ktime.h"
#include "mmu.h"
#include "ring/ring.h"
#include "smp.h"
#include "wire.h"

#include "dump_kinds.h"
#include "probe_check.h"

extern const struct trace_format __bt_formats_start[];

static const struct trace_format fmt_kinds
__attribute__((used, section(".bt_formats"), aligned(8))) = { "dump kinds: %d\nthen %x" };

struct dk_want dk_want[DK_WANT_MAX];
unsigned int dk_nwant;
static enum ring_mode mode;
static uint64_t site;		/* pb_mt's patch site */
static uint64_t caller;		/* a return address in pb_add, as kinds 0 and 1 carry it */

static void expect_line(bool event, bool shown, const char *text)
{
	if (dk_nwant < DK_WANT_MAX) {
		dk_want[dk_nwant].event = event;
		dk_want[dk_nwant].shown = shown;
		ksnprintf(dk_want[dk_nwant++].text, sizeof(dk_want[0].text), "%s", text);
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
	/* Its header: delta 0, one byte, of the kind the wire gives it
	 * (version 5 writes lost events as kind 7, wire.md 2.1). */
	p = ring_reserve(b[0] >> 5, (unsigned int)o.len - 1);
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
	expect_line(true, true, "     } pb_mt 1000.000 us = -7");	/* as its entry's depth 2 */
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

uint32_t dk_code_of(uintptr_t ret)
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

	n += wire_varint_put(b + n, dk_code_of((uintptr_t)pb_add + 8));
	n += wire_varint_put(b + n, dk_code_of((uintptr_t)pb_mt + 8));
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

/* Hits of real probes, planted by test_dump_kinds.c (an instruction
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

static unsigned int missing;	/* kinds and subtypes the wire knows, with no writer */

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
			missing++;
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

static bool wire_encodes(unsigned int kind)
{
	uint8_t b[32];
	struct wire_out o;

	wire_out_init(&o, b, sizeof(b));
	return !wire_rec_encode(&o, &(struct wire_record){ .kind = kind });
}

unsigned int dk_write_every_kind(enum ring_mode m, uint64_t pb_mt_site)
{
	/* A kind 0 right after the kind 1 that fills its slot. */
	static const unsigned int order[] = { 1, 0, 3, 2, 4, 5, 6, 7 };
	const unsigned int nk = sizeof(kind_writers) / sizeof(kind_writers[0]);
	unsigned long flags;

	mode = m;
	site = pb_mt_site;
	caller = dk_code_of((uintptr_t)pb_add + 8);
	dk_nwant = missing = 0;
	for (unsigned int k = 0; k < 256; k++)
		if (wire_encodes(k) && (k >= nk || !kind_writers[k])) {
			kprintf("# record kind %u: the wire encodes it, this test writes none\n", k);
			missing++;
		}
	flags = irq_save();	/* no tick closes the block between kinds 1 and 0 */
	for (unsigned int i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		kind_writers[order[i]]();
	if (m == RING_OVERWRITE) {	/* last: the rest of its block cannot be read */
		write_rec(&(struct wire_record){ .kind = WIRE_REC_EVENT, .id = tp_count() + 7 });
		expect_line(false, true, "");
		ksnprintf(dk_want[dk_nwant - 1].text, sizeof(dk_want[0].text), "CPU:%u [the rest "
			  "of a block is not shown: a tracepoint this image has no schema for]",
			  smp_cpu_id());
	}
	irq_restore(flags);
	return missing;
}
