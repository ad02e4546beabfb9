/*
 * test/target/test_dump_kinds.c: the console dump (trace/output/dump*.c)
 * prints a line for a record of every kind the wire has, and counts
 * exactly the records it prints (issue 39: a probe hit was counted and
 * not shown, "# trace dump: 11 records" over 6 lines).
 *
 * One record of each kind, and of each extension subtype
 * (dump_kinds_write.c, which asks the wire which exist), goes into this
 * CPU's ring, in stop mode, where loss records stand where they are, and
 * in overwrite mode, where they do not; the probe hits are written by
 * real probes planted here. The dump's lines are read back through its
 * sink (dump.h) and each record's text compared whole.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "kprintf.h"
#include "ktest.h"
#include "output/dump.h"
#include "output/export.h"
#include "ring/ring.h"
#include "smp.h"
#include "tracecheck.h"
#include "tracers/retprobe.h"

#include "dump_kinds.h"
#include "probe_check.h"

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

/* Writes every kind into a fresh ring of mode m, dumps it and checks
 * its lines. */
static void dump_every_kind(struct ktest_ctx *t, enum ring_mode m)
{
	unsigned int cpu = smp_cpu_id(), events = 0, records = 0, at = 0;
	unsigned long n;
	char tail[40];

	nlines = lines_over = 0;
	export_hold();
	KT_EQ(t, ring_setup(4 * RING_BLOCK_SIZE, m), 0);
	KT_EQ(t, dk_write_every_kind(m, (uint64_t)site_of("pb_mt")), 0);
	n = trace_dump_ring_to(cpu, ring_of(cpu), &(struct dump_sink){ collect, NULL });
	export_release();

	KT_EQ(t, lines_over, 0);
	for (unsigned int i = 0; i < dk_nwant; i++)
		events += dk_want[i].event;
	for (unsigned int i = 0; i < nlines; i++)
		records += after_ts(lines[i]) != NULL;
	/* The count is the lines that open with a time stamp, and every
	 * record but the loss record. */
	ksnprintf(tail, sizeof(tail), "# cpu %u: %lu records", cpu, n);
	KT_EXPECT(t, nlines > 0 && !strcmp(lines[nlines - 1], tail));
	KT_EQ(t, records, n);
	KT_EQ(t, n, events);
	/* Each record's own line, in order. */
	for (unsigned int i = 0; i < dk_nwant; i++) {
		unsigned int j = at;

		for (; j < nlines; j++) {
			const char *s = dk_want[i].event ? after_ts(lines[j]) : lines[j];

			if (s && !strcmp(s, dk_want[i].text))
				break;
		}
		if (j < nlines && dk_want[i].shown) {
			at = j + 1;
		} else if (dk_want[i].shown || j < nlines) {
			kprintf("# %s line '%s'\n", dk_want[i].shown ? "no" : "unexpected",
				dk_want[i].text);
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
