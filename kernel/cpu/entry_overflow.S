/*
 * kernel/cpu/entry_overflow.S: exception entry for a CPU whose stack has
 * overflowed; the report runs on the CPU's emergency stack (the slot
 * layout is in kernel/lib/config.h).
 */
#include "config.h"
#include "exception.h"

	/* The vector's check lets an exception through with only
	 * EXC_ENTRY_RESERVE bytes below SP: everything entry pushes before
	 * C runs must fit in it (FP/SIMD state too, if entry saves it). */
	.if	FRAME_SIZE > EXC_ENTRY_RESERVE
	.error	"EXC_ENTRY_RESERVE (config.h) is smaller than an exception frame"
	.endif

/*
 * exc_overflow: the vector found SP outside this CPU's stack (below
 * percpu->stack_limit or above stack_top; kernel/cpu/entry.S).
 *   in:    x0 = the frame at the top of this CPU's emergency stack
 *          (emergency_top - FRAME_SIZE), the interrupted x1 already in
 *          it; x1 = vector kind; the interrupted x0 in SP_EL0; SP = the
 *          interrupted SP, unusable
 *   state: EL1h, exceptions masked by entry, TPIDR_EL1 = struct percpu
 *   does:  fills that struct exc_frame (the interrupted SP in it) and
 *          calls exception_overflow(frame, kind), which reports and
 *          never returns.
 * An exception taken while already on the emergency stack lands here too
 * (SP is above stack_top) and starts it afresh: by then a report is under
 * way and crash() only says that it crashed again.
 */
	.text
	.globl	exc_overflow
	.type	exc_overflow, %function
exc_overflow:
	frame_save_x2_x29 x0			// x0 = frame, SP not moved yet
	mov	x2, sp				// interrupted SP
	stp	x30, x2, [x0, #FRAME_X(30)]
	mov	sp, x0				// now on the emergency stack
	mrs	x2, sp_el0
	str	x2, [sp, #FRAME_X(0)]		// interrupted x0 (x1 is there)
	frame_save_sysregs
	stp	x29, x2, [sp, #FRAME_RECORD]	// record = {x29, elr}
	add	x29, sp, #FRAME_RECORD
	mov	x0, sp
	bl	exception_overflow		// (frame, kind in x1)
1:	wfe
	b	1b
	.size	exc_overflow, . - exc_overflow

/*
 * exception_switch_to_emergency(struct exc_frame *f, unsigned long kind):
 * exception_dispatch found a fault in a guard page while the stack still
 * had room for the frame, but maybe not for a report. Calls
 * exception_overflow(f, kind) on this CPU's emergency stack; f stays
 * where it is.
 *   state: EL1, TPIDR_EL1 = struct percpu;  never returns
 */
	.globl	exception_switch_to_emergency
	.type	exception_switch_to_emergency, %function
exception_switch_to_emergency:
	mrs	x9, tpidr_el1
	ldr	x9, [x9, #PERCPU_EMERGENCY_TOP]
	mov	sp, x9
	bl	exception_overflow
1:	wfe
	b	1b
	.size	exception_switch_to_emergency, . - exception_switch_to_emergency
