/*
 * test/target/fp_hold.S: holds a known value in every FP/SIMD register,
 * FPCR and FPSR while something else runs, then writes down what they
 * hold (test_fp.c). In assembly so that no compiler code touches them
 * in between.
 *
 * Contract (fp_hold(struct fp_hold *h)):
 *   in:    x0 = h: fpcr, fpsr (what to set), count (a pointer to a
 *          32-bit counter that an interrupt handler bumps), target
 *   state: EL1, MMU on, IRQs unmasked (or the counter never moves)
 *   does:  sets FPCR and FPSR, fills byte i of each lane of vN with
 *          N * 8 + 1, sets h->ready = 1, spins until *count reaches
 *          target (the 32-bit difference *count - target is no longer
 *          negative: a handler may bump it twice in one exception,
 *          when a tick ran past the next one and irq.c's loop takes
 *          that one too, and a wait for equality then never ends; it
 *          hung once in 185 runs under -accel tcg,thread=multi),
 *          reading it with general registers only, then stores
 *          q0-q31, FPCR and FPSR into h->q, h->fpcr_out, h->fpsr_out
 *   clobbers: x9-x11, v0-v31, FPCR, FPSR (by design; the caller is C
 *          built with FP, and d8-d15 are saved and restored here)
 */
#define H_FPCR		0
#define H_FPSR		8
#define H_COUNT		16
#define H_TARGET	24
#define H_READY		28
#define H_Q		32
#define H_FPCR_OUT	(32 + 512)
#define H_FPSR_OUT	(40 + 512)

	.text
	.balign	8
	.globl	fp_hold
	.type	fp_hold, %function
fp_hold:
	stp	x29, x30, [sp, #-80]!
	mov	x29, sp
	stp	d8, d9, [sp, #16]		// callee-saved under AAPCS64
	stp	d10, d11, [sp, #32]
	stp	d12, d13, [sp, #48]
	stp	d14, d15, [sp, #64]
	ldp	x9, x10, [x0, #H_FPCR]
	msr	fpcr, x9
	msr	fpsr, x10
	.irp	n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	movi	v\n\().16b, #(\n * 8 + 1)
	.endr
	mov	w9, #1
	str	w9, [x0, #H_READY]		// h->ready = 1
	ldr	x10, [x0, #H_COUNT]
	ldr	w11, [x0, #H_TARGET]
1:	ldr	w9, [x10]			// while ((int32_t)(*count - target) < 0)
	sub	w9, w9, w11
	tbnz	w9, #31, 1b
	add	x9, x0, #H_Q
	stp	q0, q1, [x9, #0]
	stp	q2, q3, [x9, #32]
	stp	q4, q5, [x9, #64]
	stp	q6, q7, [x9, #96]
	stp	q8, q9, [x9, #128]
	stp	q10, q11, [x9, #160]
	stp	q12, q13, [x9, #192]
	stp	q14, q15, [x9, #224]
	stp	q16, q17, [x9, #256]
	stp	q18, q19, [x9, #288]
	stp	q20, q21, [x9, #320]
	stp	q22, q23, [x9, #352]
	stp	q24, q25, [x9, #384]
	stp	q26, q27, [x9, #416]
	stp	q28, q29, [x9, #448]
	stp	q30, q31, [x9, #480]
	mrs	x9, fpcr
	mrs	x10, fpsr
	str	x9, [x0, #H_FPCR_OUT]
	str	x10, [x0, #H_FPSR_OUT]
	ldp	d8, d9, [sp, #16]
	ldp	d10, d11, [sp, #32]
	ldp	d12, d13, [sp, #48]
	ldp	d14, d15, [sp, #64]
	ldp	x29, x30, [sp], #80
	ret
	.size	fp_hold, . - fp_hold
