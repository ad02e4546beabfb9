/* kernel/report/persist.c: see persist.h. */
#include <stdint.h>

#include "kprintf.h"
#include "outcome.h"
#include "persist.h"

#define PERSIST_ALIGN	(2UL << 20)
/* The kernel's note, at the start of the region's last page. */
#define NOTE_BYTES	4096UL
#define NOTE_MAGIC	0x6274656e64656421ULL	/* "btended!" */

struct persist_note {
	uint64_t magic;
	uint64_t outcome;	/* enum run_outcome */
	uint64_t check;		/* magic ^ outcome: RAM left from before is not a note */
};

/* Set once by heap_init on the boot CPU, read-only after. */
static struct mem_region region;
static struct persist_note *note;
static unsigned int prev_outcome = RUN_OUTCOMES;
static uintptr_t region_bytes;

void persist_reserve(uintptr_t lo, uintptr_t *hi, uintptr_t fdt0, uintptr_t fdt1,
		     uint64_t ram_bytes)
{
	uintptr_t top = *hi >= lo + PERSIST_BELOW_TOP + PERSIST_MIN_RAM ?
			(*hi - PERSIST_BELOW_TOP) & ~(PERSIST_ALIGN - 1) : 0;
	uintptr_t bytes = ((ram_bytes / PERSIST_RAM_SHARE + PERSIST_ALIGN - 1) &
			   ~(PERSIST_ALIGN - 1)) + PERSIST_SLACK;

	if (bytes < PERSIST_MIN_BYTES || top < lo + PERSIST_MIN_RAM + bytes)
		bytes = PERSIST_MIN_BYTES;
	uintptr_t base = top - bytes;

	if (!top || base < lo)
		return;
	if (fdt1 > base && fdt0 < top)
		return;		/* the DTB sits there: nothing is kept */
	region = (struct mem_region){ base, bytes - NOTE_BYTES };
	region_bytes = bytes;
	*hi = base;	/* what lies above stays unused, for a loader */
	kprintf("persist: %lx..%lx kept across resets\n", (unsigned long)base,
		(unsigned long)top);
	note = (struct persist_note *)(top - NOTE_BYTES);
	if (note->magic == NOTE_MAGIC && note->check == (NOTE_MAGIC ^ note->outcome) &&
	    note->outcome < RUN_OUTCOMES) {
		prev_outcome = (unsigned int)note->outcome;
		kprintf("persist: the previous boot ended by a %s reset\n",
			run_outcome_name(prev_outcome));
	}
	note->magic = 0;	/* said once: a reset of another kind finds none */
}

struct mem_region persist_region(void)
{
	return region;
}

unsigned int persist_prev_outcome(void)
{
	return prev_outcome;
}

void persist_note_outcome(unsigned int outcome)
{
	if (!note)
		return;
	note->outcome = outcome;
	note->check = NOTE_MAGIC ^ outcome;
	note->magic = NOTE_MAGIC;
}

void persist_clean(void)
{
	if (region.size)
		dcache_clean_inval_poc((uintptr_t)region.base,
				       (uintptr_t)(region.base + region_bytes));	/* the note too */
}
