/* kernel/fault.c: recovery from expected faults (see fault.h). */
#include "exception.h"
#include "fault.h"
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
