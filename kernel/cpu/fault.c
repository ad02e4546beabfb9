/* kernel/cpu/fault.c: recovery from expected faults, and telling a stack
 * overflow from other faults (see fault.h). */
#include "config.h"
#include "exception.h"
#include "fault.h"
#include "mmu.h"
#include "percpu.h"

bool fault_fixup(struct exc_frame *f)
{
	struct percpu *pc = this_cpu();

	if (!pc || !pc->fault_recover)
		return false;
	f->elr = pc->fault_recover;
	pc->fault_recover = 0;
	pc->fault_esr = f->esr;
	return true;
}

uint64_t fault_last_esr(void)
{
	return this_cpu()->fault_esr;
}

int stack_guard_owner(uintptr_t addr, bool *emergency)
{
	uintptr_t off = addr - (uintptr_t)cpu_stack_area;	/* wraps when below */
	uintptr_t in_slot = off % STACK_SLOT_SIZE;

	if (off >= (uintptr_t)NR_CPUS * STACK_SLOT_SIZE)
		return -1;
	if (in_slot < STACK_SLOT_STACK)
		*emergency = false;
	else if (in_slot >= STACK_SLOT_EMERGENCY - STACK_GUARD_SIZE &&
		 in_slot < STACK_SLOT_EMERGENCY)
		*emergency = true;
	else
		return -1;
	return (int)(off / STACK_SLOT_SIZE);
}
