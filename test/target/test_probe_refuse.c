/*
 * test/target/test_probe_refuse.c: places a probe may not go because of
 * the code around them or what its exception overwrites (issue 39;
 * trace/core/probe_window.c, probe_insn.c): every word of an exclusive
 * sequence, a read of ESR_EL1, a word between MSR ELR_EL1 and ERET, each
 * refused with its reason and changing nothing; past the sequence a
 * probe goes and the code computes the same. With trace_probe= at boot:
 * test/probe_boot.py.
 */
#include <stdint.h>
#include <string.h>

#include <baretrace_trace.h>

#include "core/probe.h"
#include "core/probe_insn.h"
#include "ktest.h"

#include "probe_check.h"

/* An atomic add as an exclusive sequence, each word at a label: every
 * word from pb_ldx_at to pb_stx_at is inside the window and refused; the
 * CBNZ back is a branch; pb_excl_after_at, past the store, takes a probe.
 * *p += add; returns the new value. */
PB uint64_t pb_excl(uint64_t *p, uint64_t add)
{
	uint64_t old, sum;
	uint32_t failed;

	__asm__ volatile("1:\n"
			 ".globl pb_ldx_at\npb_ldx_at:\n\tldxr %0, [%3]\n"
			 ".globl pb_excl_add_at\npb_excl_add_at:\n\tadd %1, %0, %4\n"
			 ".globl pb_stx_at\npb_stx_at:\n\tstxr %w2, %1, [%3]\n"
			 "\tcbnz %w2, 1b\n"
			 ".globl pb_excl_after_at\npb_excl_after_at:\n\tadd %0, %0, %4\n"
			 : "=&r"(old), "=&r"(sum), "=&r"(failed)
			 : "r"(p), "r"(add) : "memory");
	return old;
}

/* What the probe's own exception overwrites: a read of ESR_EL1 (runs:
 * harmless at EL1), and a word between MSR ELR_EL1 and ERET (never
 * called: it would return to x0). */
PB uint64_t pb_exc_regs(void)
{
	register uint64_t x7 __asm__("x7");

	__asm__ volatile(".globl pb_esr_at\npb_esr_at:\n\tmrs x7, esr_el1" : "=r"(x7));
	return x7;
}

PB void pb_eret_window(uint64_t to)
{
	register uint64_t x0 __asm__("x0") = to;

	__asm__ volatile("msr elr_el1, x0\n"
			 ".globl pb_eret_mid_at\npb_eret_mid_at:\n\tmov x1, x0\n"
			 "\teret" : : "r"(x0) : "x1", "memory");
}

/* issue 39: a probe between a load-exclusive and its store-exclusive
 * would make the store fail on every pass (the probe's exception clears
 * the monitor) and the CPU loop for ever; each such word is refused, for
 * its place, and the function runs as compiled. */
KTEST(probe_refuses_every_word_of_an_exclusive_sequence)
{
	static uint64_t counter = 40;
	char text[160];
	const char *why;
	unsigned int before = probe_count();
	struct probe_view v;

	KT_EQ(t, (uintptr_t)pb_stx_at - (uintptr_t)pb_ldx_at, 8);	/* ldxr, add, stxr */
	KT_EXPECT(t, probe_insn_refusal(pbt_insn_at(pb_excl_add_at)) == NULL);	/* the word alone moves */
	for (const char *at = pb_ldx_at; at <= pb_stx_at; at += 4) {
		uint32_t insn = pbt_insn_at(at);

		pbt_spec(text, sizeof(text), "bx", "pb_excl", (uintptr_t)pb_excl, at, "x0");
		KT_EQ(t, pbt_plant(text, &why), TRACE_EINVAL);
		/* The add for its place, the load and the store for themselves. */
		KT_EXPECT(t, strstr(why, at == pb_excl_add_at ? "exclusive sequence" :
				    "exclusive") != NULL);
		KT_EQ(t, pbt_insn_at(at), insn);
	}
	KT_EQ(t, probe_count(), before);
	KT_EQ(t, pb_excl(&counter, 2), 42);	/* runs as compiled, no hang */
	/* Past the store-exclusive a probe goes, and the add still adds. */
	pbt_spec(text, sizeof(text), "bxa", "pb_excl", (uintptr_t)pb_excl, pb_excl_after_at, "x0");
	KT_EQ(t, pbt_plant(text, &why), 0);
	KT_EQ(t, pb_excl(&counter, 3), 45);
	KT_EXPECT(t, pbt_view("bxa", &v));
	KT_EQ(t, v.hits, 1);
	KT_EQ(t, probe_remove("bxa", &why), 0);
	KT_EQ(t, counter, 45);
}

KTEST(probe_refuses_what_its_exception_overwrites)
{
	char text[160];
	const char *why;
	unsigned int before = probe_count();
	uint32_t esr = pbt_insn_at(pb_esr_at), mid = pbt_insn_at(pb_eret_mid_at);

	pbt_spec(text, sizeof(text), "be", "pb_exc_regs", (uintptr_t)pb_exc_regs, pb_esr_at, "");
	KT_EQ(t, pbt_plant(text, &why), TRACE_EINVAL);
	KT_EXPECT(t, strstr(why, "ESR_EL1") != NULL);
	KT_EQ(t, pbt_insn_at(pb_esr_at), esr);
	KT_EXPECT(t, probe_insn_refusal(mid) == NULL);	/* the MOV alone moves */
	pbt_spec(text, sizeof(text), "be", "pb_eret_window", (uintptr_t)pb_eret_window,
		 pb_eret_mid_at, "");
	KT_EQ(t, pbt_plant(text, &why), TRACE_EINVAL);
	KT_EXPECT(t, strstr(why, "ERET") != NULL);
	KT_EQ(t, pbt_insn_at(pb_eret_mid_at), mid);
	KT_EQ(t, probe_count(), before);
	pb_exc_regs();		/* runs as compiled */
}

/* After a boot with trace_probe=bx=pb_excl+OFF, OFF inside its exclusive
 * sequence (test/probe_boot.py): the planting check refuses it and the
 * run ends before main(), so this runs only if the check let it through;
 * then the call below never returns (the store-exclusive fails on every
 * pass) and the host sees the run hang. Skipped in other boots. */
KTEST(probe_boot_exclusive_sequence_runs)
{
	static uint64_t counter = 1;
	struct probe_view v;

	if (!pbt_view("bx", &v))
		return ktest_skip(t, "no trace_probe=bx=... planted");
	KT_EQ(t, pb_excl(&counter, 1), 2);
}
