/*
 * test/bench/direct_tramp.S: a direct trampoline that counts and runs
 * the function (test/bench/direct.c).
 *   in: x30 = func + 8, x9 = func's return address; clobbers x16, x17.
 */
	.text
	.balign	8
	.globl	bench_direct_tramp
	.type	bench_direct_tramp, %function
bench_direct_tramp:
	adrp	x16, bench_direct_hits
	add	x16, x16, :lo12:bench_direct_hits
	ldr	x17, [x16]
	add	x17, x17, #1
	str	x17, [x16]			// bench_direct_hits++
	mov	x16, x30			// the body
	mov	x30, x9				// func returns to its own caller
	br	x16
	.size	bench_direct_tramp, . - bench_direct_tramp
