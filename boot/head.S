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
 *   state: as above; relocation and BSS already done by CPU 0
 *   does:  drops to EL1, TPIDR_EL1 = x0, SP = percpu->stack_top, FP/SIMD
 *          on, calls boot_secondary(). Never returns.
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

5:	adrp	x9, boot_stack_top	// CPU 0 runs on boot_stack until smp
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
	.size	secondary_entry, . - secondary_entry

/*
 * drop_to_el1: if running at EL2, configure EL2 so EL1 runs AArch64 with
 * the timers and FP/SIMD untrapped, and ERET to EL1 at the caller's return
 * address. At EL1 it only records the level.
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
	mrs	x9, midr_el1
	msr	vpidr_el2, x9
	mrs	x9, mpidr_el1
	msr	vmpidr_el2, x9
	ldr	x9, =SCTLR_EL1_RES1
	msr	sctlr_el1, x9
	mov	x9, #SPSR_EL1H_MASKED
	msr	spsr_el2, x9
	msr	elr_el2, x30
	isb
	eret
	.size	drop_to_el1, . - drop_to_el1

	.bss
	.balign	16
boot_stack:
	.space	STACK_SIZE
	.globl	boot_stack_top
boot_stack_top:
