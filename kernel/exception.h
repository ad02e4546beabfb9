/*
 * kernel/exception.h: the register frame saved on every exception.
 * Layout is shared with kernel/entry.S; offsets are asserted below.
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
#define FRAME_SIZE	832

/* Vector kinds passed to exception_dispatch (index in the vector table). */
#define VEC_SP0_SYNC	0
#define VEC_SPX_SYNC	4
#define VEC_SPX_IRQ	5
#define VEC_SPX_FIQ	6
#define VEC_SPX_SERROR	7

#ifndef __ASSEMBLER__
#include <stdint.h>

struct exc_frame {
	uint64_t x[31];
	uint64_t sp;
	uint64_t elr;
	uint64_t spsr;
	uint64_t esr;
	uint64_t far;
	uint64_t record[2];
	/* The interrupted code's FP/SIMD state: application code uses it,
	 * and application handlers (IRQ, tick hooks, smp_call) may too. */
	uint64_t fpsr;
	uint64_t fpcr;
	__uint128_t q[32];
};

_Static_assert(sizeof(struct exc_frame) == FRAME_SIZE, "frame layout");
_Static_assert(__builtin_offsetof(struct exc_frame, fpsr) == FRAME_FPSR, "frame layout");
_Static_assert(__builtin_offsetof(struct exc_frame, q) == FRAME_Q(0), "frame layout");

void exception_dispatch(struct exc_frame *f, unsigned long kind);
/* A stack overflow's crash report (kernel/exception.c), on the emergency
 * stack. Never returns. */
void exception_overflow(struct exc_frame *f, unsigned long kind) __attribute__((noreturn));
void exception_init_cpu(void);
/* Prints the crash report, stops the other CPUs and halts or powers
 * off (kernel parameter panic=). Never returns. */
void crash(struct exc_frame *f, const char *why) __attribute__((noreturn));
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
#endif

#endif /* KERNEL_EXCEPTION_H */
