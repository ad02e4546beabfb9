/*
 * drivers/spintable.S: the two pieces of spin-table start-up that must
 * run with the MMU off (see spintable.c).
 */

/*
 * spintable_entry: where a released CPU lands.
 *   in:    x0 = 0 (firmware); MPIDR Aff0 = this CPU's slot
 *   state: EL2 or EL1, MMU and D-cache off, running at its physical
 *          address (the image is identity-mapped, so that is also its link
 *          address plus the load offset)
 *   does:  x0 = spintable_slots[slot].ctx, branches to .entry; a CPU
 *          without a slot waits in WFE for ever
 *   clobbers x9-x11
 */
	.text
	.globl	spintable_entry
	.type	spintable_entry, %function
spintable_entry:
	mrs	x9, mpidr_el1
	and	x9, x9, #0xff			// slot = Aff0
	adrp	x10, spintable_nslots
	ldr	w11, [x10, :lo12:spintable_nslots]
	cmp	x9, x11
	b.hs	1f
	adrp	x10, spintable_slots
	add	x10, x10, :lo12:spintable_slots
	add	x10, x10, x9, lsl #4		// &spintable_slots[slot], 16 bytes each
	ldp	x11, x0, [x10]			// entry, ctx
	cbz	x11, 1f
	br	x11
1:	wfe
	b	1b
	.size	spintable_entry, . - spintable_entry

/*
 * spintable_release(uint64_t release, uintptr_t entry): *(u64 *)release =
 * entry at the physical address 'release', then SEV.
 *   state: EL1, MMU on, any interrupt mask (restored on return)
 *   clobbers x9, x10
 *
 * Release addresses sit in the firmware's page at 0, which the kernel
 * never maps (it is the NULL guard), and the parked CPU reads them with
 * its MMU off. So the store is made with this CPU's MMU off too: it then
 * goes to memory as Device-nGnRnE, with no cache line to clean. Every
 * address this routine touches is identity-mapped, so execution carries
 * on across the switch, and no stack is used while the MMU is off.
 */
	.globl	spintable_release
	.type	spintable_release, %function
spintable_release:
	mrs	x10, daif
	msr	daifset, #0xf			// nothing may run with the MMU off
	mrs	x9, sctlr_el1
	bic	x9, x9, #1			// SCTLR_EL1.M = 0
	msr	sctlr_el1, x9
	isb
	str	x1, [x0]			// *release = entry
	dsb	sy				// the store reaches memory before SEV
	orr	x9, x9, #1
	msr	sctlr_el1, x9
	isb
	sev					// wake the CPU out of its WFE
	msr	daif, x10
	ret
	.size	spintable_release, . - spintable_release
