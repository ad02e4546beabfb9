/*
 * kernel/cpu/text_alias.c: see text_alias.h. Single-copy atomicity: an
 * aligned 32-bit store replaces one instruction, an aligned 64-bit store
 * one ops literal, so a CPU fetching concurrently sees old or new, never
 * a mix (Arm ARM B2.2.1; instruction fetch of a modified location is
 * covered by the concurrent modification rules for NOP/B/BL, B2.2.5).
 */
#include <stdint.h>
#include <string.h>

#include "config.h"

#include "barrier.h"
#include "mmu.h"
#include "text_alias.h"

static void *alias_of(void *addr, unsigned int size)
{
	uintptr_t a = (uintptr_t)addr, lo = (uintptr_t)_text, hi = (uintptr_t)_etext;

	if (a < lo || a + size > hi || (a & (size - 1)))
		return NULL;
	return (void *)(TEXT_ALIAS_BASE + (a - lo));
}

int text_write32(void *addr, uint32_t expect, uint32_t insn)
{
	uint32_t *alias = alias_of(addr, 4);

	if (!alias)
		return TEXT_ERANGE;
	if (READ_ONCE(*(uint32_t *)addr) != expect)
		return TEXT_EMISMATCH;
	WRITE_ONCE(*alias, insn);
	return 0;
}

int text_write64(void *addr, uint64_t expect, uint64_t value)
{
	uint64_t *alias = alias_of(addr, 8);

	if (!alias)
		return TEXT_ERANGE;
	if (READ_ONCE(*(uint64_t *)addr) != expect)
		return TEXT_EMISMATCH;
	WRITE_ONCE(*alias, value);
	return 0;
}

void text_sync(uintptr_t start, uintptr_t end)
{
	/* D-cache is physically tagged: cleaning by the text VA cleans the
	 * lines written through the alias. Then drop stale instructions. */
	dcache_clean_pou(start, end);
	icache_inval_pou(start, end);
	isb();
}

void *far_text_place(const void *code, size_t n)
{
	static size_t used;	/* bytes of the page handed out */
	size_t at = (used + 15) & ~(size_t)15;

	if (n > PAGE_SIZE - at)
		return NULL;
	memcpy(far_text_page + at, code, n);
	used = at + n;
	/* Written through the BSS mapping; the PIPT D-cache line is the
	 * same for the executable alias. Then drop stale instructions. */
	dcache_clean_pou((uintptr_t)far_text_page + at, (uintptr_t)far_text_page + at + n);
	icache_inval_pou(FAR_TEXT_BASE + at, FAR_TEXT_BASE + at + n);
	isb();
	return (void *)(FAR_TEXT_BASE + at);
}
