/* test/target/dump_kinds.h: the records of every kind that
 * dump_kinds_write.c writes and the lines test_dump_kinds.c expects of
 * the console dump for them. */
#ifndef TEST_DUMP_KINDS_H
#define TEST_DUMP_KINDS_H

#include <stdbool.h>
#include <stdint.h>

#include "ring/ring.h"

/* What each record written must show, in order, after its time stamp
 * (a note, such as a loss record's: the whole line). */
#define DK_WANT_MAX	32
struct dk_want {
	char text[120];
	bool event;	/* counted: every record but a loss record or a note */
	bool shown;	/* in this ring's mode */
};
extern struct dk_want dk_want[DK_WANT_MAX];
extern unsigned int dk_nwant;

/* Writes a record of every kind and subtype into this CPU's ring (of
 * mode m: in overwrite mode the loss record is not shown, and a last
 * record no reader can decode ends the block), naming pb_mt's site and a
 * return address in pb_add; the probe hits come from probes 'dk'
 * (pb_add_at: a=x2:u8, b=x3:s32, w=+8(x5):x32) and 'dr' (pb_mt%return,
 * sum=$retval:u64), planted by the caller. Fills dk_want; returns how
 * many kinds and subtypes the wire has that no writer here covers. */
unsigned int dk_write_every_kind(enum ring_mode m, uint64_t pb_mt_site);
/* A return address as kinds 0, 1 and stack frames carry it. */
uint32_t dk_code_of(uintptr_t ret);

#endif /* TEST_DUMP_KINDS_H */
