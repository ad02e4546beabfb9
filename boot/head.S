/*
 * boot/head.S: arm64 Image header and the first instructions of every CPU.
 *
 * Contract (primary_entry, reached through the header's branch):
 *   in:    x0 = physical address of the DTB (arm64 boot protocol), x1-x3 = 0
 *   state: EL2 or EL1, MMU and D-cache off, I-cache either, IRQs either,
 *          loaded anywhere 4 KiB-aligned (booti: 2 MiB base + text_offset 0;
 *          Pi firmware: 0x80000 or 0x200000; QEMU -kernel: RAM + 0x80000)
 *   does:  drops to EL1, applies R_AARCH64_RELATIVE relocations for the
 *          address it was loaded at (the image is linked at 0 as a static
 *          PIE), clears BSS, takes CPU 0's stack, enables FP/SIMD, and
 *          calls boot_primary(dtb, entry_el). Never returns.
 *
 * Contract (secondary_entry, given to PSCI CPU_ON or a spin-table):
 *   in:    x0 = address of this CPU's struct percpu (PSCI context_id)
 *   state: as above; relocation and BSS already done by CPU 0, the page
 *          tables built and mmu_boot_regs written
 *   does:  drops to EL1, turns the MMU on, claims the slot (percpu
 *          boot_token; parks if it is not its own), TPIDR_EL1 = x0,
 *          SP = percpu->stack_top, FP/SIMD on, calls boot_secondary().
 *          Never returns.
 *
 * Register table from entry until C takes over:
 *   x19  DTB address (primary) / struct percpu * (secondary)
 *   x20  runtime address of _text = load offset (link address is 0)
 *   x21  exception level at entry (1 or 2)
 *   x9-x13 scratch
 */
#include "config.h"

#define R_AARCH64_RELATIVE	1027
#define HCR_EL2_RW		(1 << 31)	/* EL1 is AArch64 */
/* MDCR_EL2.TDE routes debug exceptions, BRK included, from EL1 to EL2;
 * nothing here sets it, but firmware that ran before may have, so it is
 * cleared. The other fields (HPMN: the PMU counters EL1 may use) are kept. */
#define MDCR_EL2_TDE		(1 << 8)
#define SPSR_EL1H_MASKED	0x3c5		/* EL1h, D, A, I, F masked */
#define CPACR_FPEN		(3 << 20)	/* no FP/SIMD traps at EL1/EL0 */
#define SCTLR_EL1_RES1		0x30d00800	/* RES1 bits, MMU/caches off, LE */
/* Image header flags: little endian, 4 KiB pages, placed anywhere. */
#define IMAGE_FLAGS		((0 << 0) | (1 << 1) | (1 << 3))

	.section .head.text, "ax"
	.globl	_text
_text:
	b	primary_entry		// code0
	.long	0			// code1
	.quad	0			// text_offset: position independent
	.long	_image_size_lo, _image_size_hi	// image size incl. BSS (linker)
	.quad	IMAGE_FLAGS
	.quad	0, 0, 0			// res2-res4
	.ascii	"ARM\x64"		// magic
	.long	0			// res5: no PE header

	.text
	.globl	primary_entry
	.type	primary_entry, %function
primary_entry:
	mov	x19, x0
	bl	drop_to_el1
	msr	daifset, #0xf

	/* Apply relocations: *(base + r_offset) = base + r_addend. */
	adr	x20, _text
	adrp	x9, __rela_start
	add	x9, x9, :lo12:__rela_start
	adrp	x10, __rela_end
	add	x10, x10, :lo12:__rela_end
1:	cmp	x9, x10
	b.hs	3f
	ldp	x11, x12, [x9]		// r_offset, r_info
	ldr	x13, [x9, #16]		// r_addend
	add	x9, x9, #24
	cmp	x12, #R_AARCH64_RELATIVE
	b.ne	2f			// nothing else is expected in a static PIE
	add	x13, x13, x20
	str	x13, [x11, x20]
	b	1b
2:	wfe				// unknown relocation: stop here (no console yet)
	b	2b

	/* Clear BSS: both ends are 16-byte aligned (linker ASSERTs). */
3:	adrp	x9, __bss_start
	add	x9, x9, :lo12:__bss_start
	adrp	x10, __bss_end
	add	x10, x10, :lo12:__bss_end
4:	cmp	x9, x10
	b.hs	5f
	stp	xzr, xzr, [x9], #16
	b	4b

5:	adrp	x9, boot_stack_top	// CPU 0's stack in cpu_stack_area
	add	x9, x9, :lo12:boot_stack_top
	mov	sp, x9
	mov	x29, xzr		// terminate frame-pointer chains here
	mov	x30, xzr
	mov	x9, #CPACR_FPEN
	msr	cpacr_el1, x9
	isb
	mov	x0, x19
	mov	x1, x21
	bl	boot_primary
6:	wfe
	b	6b
	.size	primary_entry, . - primary_entry

	.globl	secondary_entry
	.type	secondary_entry, %function
secondary_entry:
	mov	x19, x0
	bl	drop_to_el1
	msr	daifset, #0xf
	/* MMU and caches on before any store to the stack: a stack written
	 * with the MMU off goes straight to memory, and the same lines read
	 * later through the cache could come from stale cache contents. */
	bl	secondary_mmu_on

	/* Claim the slot: swap percpu->boot_token == BOOT_TOKEN(own
	 * affinity) for BOOT_ARRIVED. Anything else means the starter gave
	 * up on this CPU (and may have handed the slot, stack included, to
	 * another): park without touching it. */
	mrs	x9, mpidr_el1
	ubfx	x10, x9, #32, #8		// Aff3
	and	x9, x9, #0xffffff		// Aff2..Aff0
	orr	x9, x9, x10, lsl #32
	orr	x9, x9, #(1 << BOOT_TOKEN_BIT)	// x9 = BOOT_TOKEN(mpidr)
	add	x10, x19, #PERCPU_BOOT_TOKEN
8:	ldaxr	x11, [x10]
	cmp	x11, x9
	b.ne	9f
	.if	BOOT_ARRIVED != 0
	.error	"the claim stores xzr as BOOT_ARRIVED"
	.endif
	stxr	w11, xzr, [x10]			// boot_token = BOOT_ARRIVED
	cbnz	w11, 8b

	msr	tpidr_el1, x19
	ldr	x9, [x19, #PERCPU_STACK_TOP]
	mov	sp, x9
	mov	x29, xzr
	mov	x30, xzr
	mov	x9, #CPACR_FPEN
	msr	cpacr_el1, x9
	isb
	bl	boot_secondary
7:	wfe
	b	7b
9:	clrex					// not ours: park for good, no stack
10:	wfe
	b	10b
	.size	secondary_entry, . - secondary_entry

/*
 * secondary_mmu_on: turn on the MMU, D- and I-cache with the tables the
 * boot CPU built (kernel/cpu/mmu.c), whose register values it left in
 * mmu_boot_regs, cleaned to the point of coherency.
 *   in: x30 = return address;  clobbers x9-x11
 *   state: EL1, MMU off, no stack used; everything it touches is
 *          identity-mapped, so execution continues across the switch
 */
	.type	secondary_mmu_on, %function
secondary_mmu_on:
	adrp	x9, mmu_boot_regs
	add	x9, x9, :lo12:mmu_boot_regs
	ldp	x10, x11, [x9]			// mair, tcr
	msr	mair_el1, x10
	msr	tcr_el1, x11
	ldp	x10, x11, [x9, #16]		// ttbr0, SCTLR bits to set
	msr	ttbr0_el1, x10
	isb
	tlbi	vmalle1				// nothing cached from firmware's tables
	ic	iallu
	dsb	ish				// invalidations done before the MMU goes on
	isb
	mrs	x10, sctlr_el1
	orr	x10, x10, x11
	msr	sctlr_el1, x10
	isb
	ret
	.size	secondary_mmu_on, . - secondary_mmu_on

/*
 * drop_to_el1: if running at EL2, configure EL2 so EL1 runs AArch64 with
 * the timers and FP/SIMD untrapped, install el2_vectors, and ERET to EL1
 * at the caller's return address. At EL1 it only records the level.
 *   in: x30 = return address;  out: x21 = entry EL;  clobbers x9
 */
	.type	drop_to_el1, %function
drop_to_el1:
	mrs	x9, CurrentEL
	lsr	x21, x9, #2
	cmp	x21, #2
	b.eq	1f
	ret
1:	mov	x9, #HCR_EL2_RW
	msr	hcr_el2, x9
	mrs	x9, cnthctl_el2
	orr	x9, x9, #3		// EL1PCTEN | EL1PCEN: counter and timer
	msr	cnthctl_el2, x9
	msr	cntvoff_el2, xzr	// CNTVCT == CNTPCT: one clock for all CPUs
	mov	x9, #0x33ff		// CPTR_EL2: RES1 bits, no TFP trap
	msr	cptr_el2, x9
	msr	hstr_el2, xzr
	mrs	x9, mdcr_el2
	bic	x9, x9, #MDCR_EL2_TDE	// BRK at EL1 stays at EL1 (probes)
	msr	mdcr_el2, x9
	mrs	x9, midr_el1
	msr	vpidr_el2, x9
	mrs	x9, mpidr_el1
	msr	vmpidr_el2, x9
	ldr	x9, =SCTLR_EL1_RES1
	msr	sctlr_el1, x9
	adr	x9, el2_vectors
	msr	vbar_el2, x9
	mov	x9, #SPSR_EL1H_MASKED
	msr	spsr_el2, x9
	msr	elr_el2, x30
	isb
	eret
	.size	drop_to_el1, . - drop_to_el1

/*
 * el2_vectors: EL2's vector table while EL1 runs (installed by
 * drop_to_el1). Only HVC #HVC_INJECT_VSERROR means something: it sets
 * HCR_EL2.AMO and VSE, so EL1 takes a virtual SError as soon as its
 * PSTATE.A allows (tests use it to prove SErrors are reported), with
 * VSERROR_SYNDROME where the CPU has RAS. Any
 * other HVC returns x0 = -1 (PSCI NOT_SUPPORTED); anything else taken
 * to EL2 parks the CPU.
 *   clobbers (of the EL1 caller): x9, x10, and x0 for an unknown HVC
 *   state: EL2, MMU off at EL2, no stack used
 */
#define HCR_EL2_AMO		(1 << 5)
#define HCR_EL2_VSE		(1 << 8)
#define ESR_EC_HVC64		0x16
/* ESR ISS of the injected SError where FEAT_RAS lets us choose it:
 * AET = UEO (restartable, 2 << 10), DFSC = asynchronous SError (0x11). */
#define VSERROR_SYNDROME	((2 << 10) | 0x11)

	.text
	.balign	2048
el2_vectors:
	.rept	8			// from EL2 itself: never expected
	.balign	0x80
	b	el2_park
	.endr
	.balign	0x80			// lower EL, AArch64, synchronous
	b	el2_hvc
	.rept	7
	.balign	0x80
	b	el2_park
	.endr

	.type	el2_hvc, %function
el2_hvc:
	mrs	x9, esr_el2
	lsr	x10, x9, #26		// EC
	cmp	x10, #ESR_EC_HVC64
	b.ne	el2_park
	and	x9, x9, #0xffff		// the HVC immediate
	cmp	x9, #HVC_INJECT_VSERROR
	b.ne	1f
	mrs	x9, id_aa64pfr0_el1
	ubfx	x9, x9, #28, #4		// RAS: with it, VSESR_EL2 gives the syndrome
	cbz	x9, 2f
	mov	x9, #VSERROR_SYNDROME
	msr	S3_4_C5_C2_3, x9	// VSESR_EL2 (named so without +ras)
2:	mrs	x9, hcr_el2
	orr	x9, x9, #HCR_EL2_AMO		// SErrors to EL2, virtual ones to EL1
	orr	x9, x9, #HCR_EL2_VSE		// a virtual SError is pending
	msr	hcr_el2, x9
	isb
	eret				// to the instruction after the HVC
1:	mov	x0, #-1
	eret
	.size	el2_hvc, . - el2_hvc

el2_park:
	wfe
	b	el2_park

/* Every CPU's stacks (layout in kernel/lib/config.h); the guard pages in
 * each slot are left out of the page tables by kernel/cpu/mmu.c. */
	.section .stacks, "aw", %nobits
	.balign	PAGE_SIZE
	.globl	cpu_stack_area
cpu_stack_area:
	.space	NR_CPUS * STACK_SLOT_SIZE
	.globl	boot_stack_top
	.set	boot_stack_top, cpu_stack_area + STACK_SLOT_STACK + STACK_SIZE
