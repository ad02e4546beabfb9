/* test/target/probe_check.h: what the probe suites share (test_probe.c,
 * test_probe_mt.c): the probed functions, their labels, and helpers. */
#ifndef TEST_PROBE_CHECK_H
#define TEST_PROBE_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/probe.h"

#define PB __attribute__((noipa))
#define INSN_ADD_X4_X2_X3	0x8b030044U

/* Each has its probed instruction at a label, operands in fixed
 * registers: pb_add_at and pb_mt_at "add x4, x2, x3" (pb_add: x5 = p),
 * pb_adrp_at an ADRP, pb_b_at a B (test_probe.c). */
uint64_t pb_add(uint64_t a, uint64_t b, const uint32_t *p);
uint64_t pb_refused(uint64_t a);
uint64_t pb_mt(uint64_t a, uint64_t b);
/* *p += add by LDXR, ADD, STXR, CBNZ (pb_ldx_at, pb_excl_add_at,
 * pb_stx_at), then one more ADD (pb_excl_after_at); returns *p. */
uint64_t pb_excl(uint64_t *p, uint64_t add);
/* test_probe_ret.c: &{0x11111111, 0x22222222, 0xdeadbeef, 0x44444444}[i],
 * NULL for i >= 4. */
const uint32_t *pb_ret_ptr(uint64_t i);
extern char pb_add_at[], pb_adrp_at[], pb_b_at[], pb_mt_at[];
extern char pb_ldx_at[], pb_excl_add_at[], pb_stx_at[], pb_excl_after_at[];
/* test_probe.c: MRS ESR_EL1, and a MOV between MSR ELR_EL1 and ERET. */
uint64_t pb_exc_regs(void);
void pb_eret_window(uint64_t to);
extern char pb_esr_at[], pb_eret_mid_at[];

uint32_t pbt_insn_at(const void *a);
/* "NAME=SYMBOL+OFF[,FETCHES]" for the label 'at' inside function fn. */
void pbt_spec(char *buf, size_t size, const char *name, const char *func,
	       uintptr_t fn, const void *at, const char *fetches);
/* Parses and plants: probe_plant's result, or -100 when the text is bad. */
int pbt_plant(const char *text, const char **why);
/* The probe (entry or return) of that name, if planted. */
bool pbt_view(const char *name, struct probe_view *v);
/* test_probe_fetch.c: why a fetch at NULL + a few bytes is unreadable,
 * as its value says: 1 (not RAM) where RAM starts above the unmapped
 * NULL guard (QEMU virt), 0 (the read faulted there) where RAM starts
 * at 0 (the Pi 4). */
int64_t pbt_null_reason(void);

#endif /* TEST_PROBE_CHECK_H */
