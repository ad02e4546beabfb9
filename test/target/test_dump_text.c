/*
 * test/target/test_dump_text.c: the console dump's words for records that
 * carry values (trace/output/dump_text.c, issue 25): a trace_printf
 * message formatted from its recorded arguments as C's printf (and the
 * host tool) would, a tracepoint's fields as name=value, durations in
 * microseconds. Records are made here, as the ring holds them.
 */
#include <stdint.h>
#include <string.h>

#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "ktest.h"
#include "ktime.h"
#include "output/dump_text.h"
#include "wire.h"

extern const struct trace_format __bt_formats_start[];

static const struct trace_format fmt_mix
__attribute__((used, section(".bt_formats"), aligned(8))) = {
	"a=%d b=%5u c=%-4x| d=%08X e=%#x f=%o g=%#o h=%c i=%p j=%+d k=%.3d "
	"l=%% m=%q o=%06d p=%-6d| q=%ld n=%d"
};

static uint8_t tail[128];
static char out[256];

/* A kind-5 record of format f with n arguments. */
static struct wire_record printf_record(const struct trace_format *f, const int64_t *args,
					unsigned int n)
{
	size_t len = 0;

	for (unsigned int i = 0; i < n; i++)
		len += wire_varint_put(tail + len, wire_zigzag(args[i]));
	return (struct wire_record){ .kind = WIRE_REC_PRINTF, .id = (uint64_t)(f -
			__bt_formats_start), .count = n, .data = tail, .data_len = len };
}

KTEST(dump_formats_trace_printf_as_printf_does)
{
	const int64_t args[] = { -42, 7, 0xab, 0xbeef, 0xbeef, 8, 8, 'q', 0x1000, 5, 7,
				 -42, -42, -5000000000LL };
	struct wire_record r = printf_record(&fmt_mix, args, sizeof(args) / sizeof(args[0]));

	dump_text_printf(out, sizeof(out), &r);
	/* n has no argument left: '?'; %q is no conversion: as written. */
	KT_STREQ(t, out, "a=-42 b=    7 c=ab  | d=0000BEEF e=0xbeef f=10 g=010 h=q i=0x1000 "
		 "j=+5 k=007 l=% m=%q o=-00042 p=-42   | q=-5000000000 n=?");
	/* Cut at the buffer's end, still a string. */
	dump_text_printf(out, 8, &r);
	KT_STREQ(t, out, "a=-42 b");
	/* A format this image does not have: its number and the values. */
	r.id = 1000000;
	dump_text_printf(out, sizeof(out), &r);
	KT_EXPECT(t, !strncmp(out, "format#1000000 -42 7 171 ", 25));
}

KTEST(dump_names_tracepoint_fields)
{
	const struct tp_event *ev = tp_find("gdbhang:step");
	size_t len;

	KT_EXPECT(t, ev != NULL);
	if (!ev)
		return;
	len = wire_varint_put(tail, wire_zigzag(3));
	len += wire_varint_put(tail + len, 5);
	memcpy(tail + len, "al\npa", 5);	/* a control byte prints as '?' */
	len += 5;
	struct wire_record r = { .kind = WIRE_REC_EVENT, .id = 0, .data = tail,
				 .data_len = len };

	dump_text_event(out, sizeof(out), ev, &r);
	KT_STREQ(t, out, "gdbhang:step: i=3 name=al?pa");
	/* A record cut short: the missing value is '?'. */
	r.data_len = 1;
	dump_text_event(out, sizeof(out), ev, &r);
	KT_STREQ(t, out, "gdbhang:step: i=3 name=?");
}

KTEST(dump_durations_are_microseconds)
{
	uint64_t hz = time_counter_hz();

	dump_text_duration(out, sizeof(out), hz);
	KT_STREQ(t, out, "1000000.000 us");
	dump_text_duration(out, sizeof(out), hz / 1000);
	KT_STREQ(t, out, "1000.000 us");
	dump_text_duration(out, sizeof(out), hz * 1000000);	/* no overflow */
	KT_STREQ(t, out, "1000000000000.000 us");
	dump_text_duration(out, sizeof(out), 0);
	KT_STREQ(t, out, "0.000 us");
}
