/*
 * kernel/cpu/exception.h: the register frame saved on every exception.
 * Layout is shared with kernel/cpu/entry.S; offsets are asserted below.
 */
#ifndef KERNEL_EXCEPTION_H
#define KERNEL_EXCEPTION_H

#define FRAME_X(n)	((n) * 8)
#define FRAME_SP	248
#define FRAME_ELR	256
#define FRAME_SPSR	264
#define FRAME_ESR	272
#define FRAME_FAR	280
#define FRAME_RECORD	288	/* {x29, elr}: a frame record for backtraces */
#define FRAME_FPSR	304	/* FP/SIMD state of the interrupted code */
#define FRAME_FPCR	312
#define FRAME_Q(n)	(320 + (n) * 16)
#define FRAME_CPACR	832	/* CPACR_EL1 when the exception was taken */
#define FRAME_SIZE	848

/* CPACR_EL1.FPEN (Arm ARM DDI 0487, bits 21:20): 0b11 no FP/SIMD traps,
 * 0b00 traps at EL1 and EL0 with ESR_ELx.EC 0x07. Bit 20 alone says
 * whether EL1 may use FP/SIMD (0b01, EL0 only trapped, is never set). */
#define CPACR_FPEN	(3 << 20)
#define CPACR_FPEN_EL1_BIT	20

/* Vector kinds passed to exception_dispatch (index in the vector table). */
#define VEC_SP0_SYNC	0
#define VEC_SPX_SYNC	4
#define VEC_SPX_IRQ	5
#define VEC_SPX_FIQ	6
#define VEC_SPX_SERROR	7

#ifndef __ASSEMBLER__
#include <stdbool.h>
#include <stdint.h>

struct exc_frame {
	uint64_t x[31];
	uint64_t sp;
	uint64_t elr;
	uint64_t spsr;
	uint64_t esr;
	uint64_t far;
	uint64_t record[2];
	/* The interrupted code's FP/SIMD state, saved only when cpacr says
	 * it had FP/SIMD on (kernel/cpu/entry.S): application code uses
	 * it, and application handlers (IRQ, tick hooks, smp_call) may too. */
	uint64_t fpsr;
	uint64_t fpcr;
	__uint128_t q[32];
	uint64_t cpacr;		/* FPEN on: fpsr, fpcr and q hold its state */
	uint64_t pad;
};

_Static_assert(sizeof(struct exc_frame) == FRAME_SIZE, "frame layout");
_Static_assert(__builtin_offsetof(struct exc_frame, fpsr) == FRAME_FPSR, "frame layout");
_Static_assert(__builtin_offsetof(struct exc_frame, q) == FRAME_Q(0), "frame layout");
_Static_assert(__builtin_offsetof(struct exc_frame, cpacr) == FRAME_CPACR, "frame layout");

void exception_dispatch(struct exc_frame *f, unsigned long kind);
/* A stack overflow's crash report (kernel/cpu/exception.c), on the emergency
 * stack. Never returns. */
void exception_overflow(struct exc_frame *f, unsigned long kind) __attribute__((noreturn));
void exception_init_cpu(void);
/* Calls fn(arg) with FP/SIMD off on this CPU, as code that never used
 * it runs (its first FP/SIMD instruction traps and gets a clean state);
 * the caller's own FP/SIMD state is kept (kernel/cpu/fp_off.S). */
long cpu_call_fp_off(long (*fn)(void *arg), void *arg);
/* Where an exception nothing handles goes: the crash report, which sits
 * in a higher layer (kernel/report/crash.c) and so is registered here
 * rather than named. Set once, by the boot CPU before it installs the
 * vectors (kernel/main.c); fn must not return. Until it is set, and if
 * it ever returns, the CPU stops where it is (interrupts masked, WFI). */
void exception_set_crash_handler(void (*fn)(struct exc_frame *f, const char *why));
/* Where a BRK instruction's exception goes before it counts as a crash:
 * the trace core's probes (trace/core/probe.c), which sit in a higher
 * layer. fn gets the frame and the BRK's immediate and returns true when
 * the BRK was its own and the frame now says where to resume. Set before
 * the first BRK of the caller's is written; until then a BRK crashes. */
void exception_set_brk_handler(bool (*fn)(struct exc_frame *f, unsigned int imm));
/* Where a software step exception taken from EL1 goes before it counts
 * as a crash: a test that steps code with MDSCR_EL1.SS (none else does).
 * fn returns true when the frame now says how to go on. NULL: none. */
void exception_set_step_handler(bool (*fn)(struct exc_frame *f));
/* Prints the crash report, stops the other CPUs and halts or powers
 * off (kernel parameter panic=). Never returns. */
void crash(struct exc_frame *f, const char *why) __attribute__((noreturn));
/* Whether another CPU is reporting a crash. A CPU printing a long report
 * with interrupts masked (the break key, the lockup detector and their
 * trace dump) cannot take the crash's stop SGI: it calls crash_yield
 * between lines, which stops it for good as that SGI would (so its
 * lines never land in the crash report, and the dump's buffers are
 * free for the crash's own dump; release what it holds first), and
 * returns at once when no other CPU crashed. */
bool crash_elsewhere(void);
void crash_yield(void);
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
#else /* __ASSEMBLER__: what both entry paths write into a frame */

/* x2-x29 into the frame at \base (kernel/cpu/entry.S, entry_overflow.S). */
	.macro	frame_save_x2_x29 base
	stp	x2, x3, [\base, #FRAME_X(2)]
	stp	x4, x5, [\base, #FRAME_X(4)]
	stp	x6, x7, [\base, #FRAME_X(6)]
	stp	x8, x9, [\base, #FRAME_X(8)]
	stp	x10, x11, [\base, #FRAME_X(10)]
	stp	x12, x13, [\base, #FRAME_X(12)]
	stp	x14, x15, [\base, #FRAME_X(14)]
	stp	x16, x17, [\base, #FRAME_X(16)]
	stp	x18, x19, [\base, #FRAME_X(18)]
	stp	x20, x21, [\base, #FRAME_X(20)]
	stp	x22, x23, [\base, #FRAME_X(22)]
	stp	x24, x25, [\base, #FRAME_X(24)]
	stp	x26, x27, [\base, #FRAME_X(26)]
	stp	x28, x29, [\base, #FRAME_X(28)]
	.endm

/* ELR, SPSR, ESR and FAR into the frame at sp. Clobbers x2-x5 and
 * leaves x2 = ELR (for the frame record). */
	.macro	frame_save_sysregs
	mrs	x2, elr_el1
	mrs	x3, spsr_el1
	stp	x2, x3, [sp, #FRAME_ELR]
	mrs	x4, esr_el1
	mrs	x5, far_el1
	stp	x4, x5, [sp, #FRAME_ESR]
	.endm
#endif

#endif /* KERNEL_EXCEPTION_H */
