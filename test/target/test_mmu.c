/* test/target/test_mmu.c: W^X permissions and the text alias. */
#include <stdint.h>

#include <baretrace.h>

#include "esr.h"
#include "fault.h"
#include "ktest.h"
#include "mmu.h"
#include "target.h"
#include "text_alias.h"

#define INSN_NOP	0xd503201fU
#define INSN_RET	0xd65f03c0U
#define INSN_MOV_X9_LR	0xaa1e03e9U

static const uint32_t ro_word = 0x12345678;
static uint32_t data_code[2] = { INSN_RET, INSN_RET };	/* "code" in data */

/* A function with a patchable entry: 2 NOPs before, 2 at the symbol. */
static int __attribute__((noinline)) alias_target(int x)
{
	return x * 3 + 1;
}

static int fault_class(void)
{
	return (int)ESR_EC(fault_last_esr());
}

static int fault_is_permission(void)
{
	return (fault_last_esr() & 0x3c) == 0x0c;
}

KTEST(text_is_not_writable)
{
	uint32_t *p = (uint32_t *)(uintptr_t)&alias_target;
	uint32_t before = *p;

	KT_EQ(t, fault_probe_write32(p, INSN_NOP), -1);
	KT_EQ(t, fault_class(), ESR_EC_DABT);
	KT_EXPECT(t, fault_is_permission());
	KT_EQ(t, *p, before);
}

KTEST(rodata_is_not_writable)
{
	KT_EQ(t, fault_probe_write32((void *)&ro_word, 1), -1);
	KT_EXPECT(t, fault_is_permission());
	KT_EQ(t, ro_word, 0x12345678);
}

KTEST(data_is_not_executable)
{
	KT_EQ(t, fault_probe_exec(data_code), -1);
	KT_EQ(t, fault_class(), ESR_EC_IABT);
	KT_EXPECT(t, fault_is_permission());
}

KTEST(rodata_is_not_executable)
{
	KT_EQ(t, fault_probe_exec(&ro_word), -1);
	KT_EQ(t, fault_class(), ESR_EC_IABT);
}

KTEST(text_is_executable_and_data_readable)
{
	uint32_t v = 0;

	KT_EQ(t, fault_probe_exec((const void *)(uintptr_t)&alias_target), 0);
	KT_EQ(t, fault_probe_read32(&ro_word, &v), 0);
	KT_EQ(t, v, 0x12345678);
}

KTEST(unmapped_low_memory_faults)
{
	uint32_t v;

	KT_EQ(t, fault_probe_read32((void *)0x1000, &v), -1);
	KT_EQ(t, fault_last_esr() & 0x3c, 0x04);	/* translation fault */
}

KTEST(text_alias_writes_what_the_text_shows)
{
	if (skip_while_covering(t))
		return;

	/* func+4 of a patch site is a NOP while no ops wants the function
	 * (func+0 became MOV X9, LR at boot). Nothing attaches to
	 * alias_target, so the test may borrow that word. */
	volatile uint32_t *site = (volatile uint32_t *)((uintptr_t)&alias_target + 4);

	KT_EQ(t, site[-1], INSN_MOV_X9_LR);
	KT_EQ(t, site[0], INSN_NOP);
	KT_EQ(t, text_write32((void *)site, INSN_NOP, INSN_MOV_X9_LR), 0);
	text_sync((uintptr_t)site, (uintptr_t)(site + 1));
	KT_EQ(t, site[0], INSN_MOV_X9_LR);
	KT_EQ(t, alias_target(4), 13);	/* MOV X9, LR is harmless */
	KT_EQ(t, text_write32((void *)site, INSN_NOP, INSN_NOP), TEXT_EMISMATCH);
	KT_EQ(t, site[0], INSN_MOV_X9_LR);
	KT_EQ(t, text_write32((void *)site, INSN_MOV_X9_LR, INSN_NOP), 0);
	text_sync((uintptr_t)site, (uintptr_t)(site + 1));
	KT_EQ(t, site[0], INSN_NOP);
}

KTEST(text_alias_refuses_outside_text)
{
	KT_EQ(t, text_write32(data_code, INSN_RET, INSN_NOP), TEXT_ERANGE);
	KT_EQ(t, text_write32((uint8_t *)(uintptr_t)&alias_target + 2, 0, 0), TEXT_ERANGE);
	KT_EQ(t, text_write64((void *)((uintptr_t)_etext - 4), 0, 0), TEXT_ERANGE);
	KT_EQ(t, data_code[0], INSN_RET);
}
