/*
 * kernel/cpu/text_alias.h: the only way to write kernel text.
 *
 * Text is mapped read-only at its normal address; kernel/cpu/mmu.c maps it a
 * second time, writable and never executable, at TEXT_ALIAS_BASE. These
 * calls write through that alias after checking that the old contents
 * are what the caller expects, so a stale view of a site never writes.
 *
 * Cache maintenance: text_sync() makes the writes visible to this CPU's
 * instruction fetch (clean D to PoU, invalidate I, DSB, ISB). Other CPUs
 * also need a context synchronisation event (an ISB after the DSB), which
 * is the patcher's job: one cross-CPU round per batch.
 */
#ifndef KERNEL_TEXT_ALIAS_H
#define KERNEL_TEXT_ALIAS_H

#include <stddef.h>
#include <stdint.h>

#define TEXT_EMISMATCH	(-1)	/* old contents differ: nothing written */
#define TEXT_ERANGE	(-2)	/* not inside kernel text or misaligned */

int text_write32(void *addr, uint32_t expect, uint32_t insn);
int text_write64(void *addr, uint64_t expect, uint64_t value);
void text_sync(uintptr_t start, uintptr_t end);

/* Copies n bytes of position-independent code into the far text page
 * (kernel/cpu/mmu.h FAR_TEXT_BASE, hundreds of GiB from the image) after
 * what is already there, and makes it executable for this CPU; returns
 * its executable address, or NULL when the page is full. Thread context,
 * one caller at a time (tests and benchmarks). */
void *far_text_place(const void *code, size_t n);

#endif /* KERNEL_TEXT_ALIAS_H */
