/*
 * trace/tracers/fgraph.h: return hooks for tracers that time calls (the graph
 * tracer, the profiler, the duration histograms).
 *
 * An entry callback calls fgraph_push(), which saves the traced
 * function's real return address on this CPU's shadow stack together
 * with the function, the caller's frame pointer and the entry time, and
 * points regs->lr at fgraph_return (trace/tracers/fgraph_entry.S). When the
 * function returns there, fgraph_exit() pops the frame, checks that the
 * frame pointer is the one saved, calls the owner's exit function and
 * goes back to the real address. Interrupt handlers nest on the same
 * stack (strictly LIFO). A full stack stops all return hooking with a
 * message; frames already pushed still unwind correctly.
 *
 * Frames a longjmp abandoned: a function left by longjmp never returns
 * through its hook, so its frame stays on the shadow stack. Each frame
 * keeps the stack pointer at the call; the stack grows down, so a frame
 * whose SP is below the SP of a call being entered or returning is dead
 * (nothing live can be deeper than the code now running). This holds
 * because each CPU runs on one stack and exceptions push onto it
 * (kernel/cpu/entry.S). Such frames
 * are unwound, innermost first: their owners record an exit without a
 * return value (the time the abandonment was noticed) and
 * fgraph_unwound counts them; the last FGRAPH_DROPPED of them are kept
 * (dropped[]). A return whose frame pointer differs from the one saved
 * stops all return hooking with a message; it still returns to the
 * address its own frame saved, never to an abandoned one.
 *
 * Code that switches stacks (coroutines, an application's own task
 * switch) while a hooked call is open breaks the SP order: a call still
 * live on the other stack may be taken for abandoned. Its return then
 * finds no frame with its SP on the stack; it takes its address from
 * dropped[] (same SP and frame pointer) and stops return hooking with a
 * message. When dropped[] no longer has it either, the address is lost:
 * the run stops with a panic that says so, never returning elsewhere.
 *
 * Concurrency: each CPU's stack is touched only by that CPU, with
 * interrupts masked (entry callbacks run masked; fgraph_exit masks).
 */
#ifndef TRACE_FGRAPH_H
#define TRACE_FGRAPH_H

#include <stdbool.h>
#include <stdint.h>

#include <baretrace_trace.h>

#define FGRAPH_DEPTH	128

enum fgraph_owner {
	FGRAPH_GRAPH = 1,
	FGRAPH_PROFILE = 2,
	FGRAPH_HIST = 3,	/* duration histograms (hist.c); never pushed fast */
	FGRAPH_RETPROBE = 4,	/* return probes (retprobe.c); never pushed fast */
};

/* A frame pushed by a recorder in assembly (trace/tracers/rec_graph.S):
 * fgraph_return pops it without the C path when it matches (flags bit,
 * beside the owner's own bits). The profiler's hooks its call to
 * profile_return instead, which pops only such frames. */
#define FGRAPH_FLAG_FAST	0x80

/* The order is the exits' (trace/tracers/rec_graph.S): key and ret in
 * one LDP for the graph exit, ret and ts in one for the profiler's, fp
 * and sp in one for the check, last (struct fgraph_stack's no_fp and
 * no_sp are then frames[-1]'s). A profiler frame needs ret, ts, site,
 * owner, fp and sp; key and aux are other owners'. */
struct fgraph_frame {
	/* A graph frame whose entry record went into the ring: the ring's
	 * graph_open just after it (trace/ring/ring.h), else 0; set by the
	 * graph entries only (other owners leave it as it was). Its exit
	 * is a return (wire.md 2.1) only while graph_open still equals it. */
	uint64_t key;
	uint64_t ret;		/* real return address */
	uint64_t ts;		/* counter at entry; a return probe's: its number */
	uint32_t site;
	uint8_t owner;		/* enum fgraph_owner */
	uint8_t flags;		/* owner's own, and FGRAPH_FLAG_FAST */
	uint16_t aux;		/* owner's own: a return probe's entry */
	uint64_t fp;		/* caller's frame pointer at the call */
	uint64_t sp;		/* stack pointer at the call (= at the return) */
};

/* The last frames unwound as abandoned, kept so that a return they
 * belonged to after all (the code switched stacks: see above) still
 * finds its address. */
#define FGRAPH_DROPPED	16

struct fgraph_dropped {
	uint64_t ret, fp, sp;	/* as in the frame; sp 0: taken or empty */
	uint32_t site;
};

struct fgraph_stack {
	uint32_t top;		/* frames in use */
	/* fgraph_stopped, copied into every CPU's stack by whoever stops
	 * or resets the hooks, so the recorders read it with 'top' in one
	 * LDP (trace/tracers/rec_graph.S). */
	volatile uint32_t stopped;
	uint32_t graph_depth;	/* frames owned by the graph tracer */
	uint32_t inside;	/* graph-function frames open (set_graph_function) */
	/* Where frames[-1]'s fp and sp would be: 0, never written, so that
	 * the assembly returns' check that the top frame is this return's
	 * (its sp) fails on an empty stack with no test of 'top'. */
	uint64_t no_fp, no_sp;
	struct fgraph_frame frames[FGRAPH_DEPTH];
	uint32_t ndropped;	/* frames ever put in dropped[] (index mod size) */
	struct fgraph_dropped dropped[FGRAPH_DROPPED];
};

extern struct fgraph_stack fgraph_stacks[];
extern volatile bool fgraph_stopped;
extern volatile uint64_t fgraph_unwound;	/* frames dropped after a longjmp */
extern char fgraph_return[];
/* The profiler's own return hook (trace/tracers/rec_graph.S): where a
 * call hooked by trace_rec_profile returns. */
extern char profile_return[];

/* Whether 'lr' is a return hook: the call's real return address is on
 * the shadow stack. */
static inline bool fgraph_is_hook(uint64_t lr)
{
	return lr == (uintptr_t)fgraph_return || lr == (uintptr_t)profile_return;
}

/* Pushes a frame and hooks the return; NULL (nothing hooked) when the
 * stack is full or hooking stopped. Interrupts masked. */
struct fgraph_frame *fgraph_push(struct fgraph_stack *st, struct trace_regs *regs,
				 unsigned int site, enum fgraph_owner owner, uint64_t now);
/* Gives every CPU its stack (percpu->fgraph); at boot. */
void fgraph_init(void);

/* Unwinds the frames a longjmp abandoned: those whose SP is below 'sp'
 * (at a return, or at an entry), or equal to it (at an entry: a new
 * call at the same depth, unless regs->lr is already a return hook,
 * fgraph_return or profile_return: a second tracer hooks the same
 * call, or a tail call from a hooked one). Interrupts masked. */
void fgraph_unwind(struct fgraph_stack *st, uint64_t sp, bool at_entry, uint64_t now);

/* Whether an entry with these regs finds abandoned frames on top. */
static inline bool fgraph_abandoned(const struct fgraph_stack *st,
				    const struct trace_regs *regs)
{
	if (!st->top)
		return false;
	const struct fgraph_frame *f = &st->frames[st->top - 1];

	return f->sp < regs->sp || (f->sp == regs->sp && !fgraph_is_hook(regs->lr));
}

/* Called at return by fgraph_return with x29, x0 and sp as the traced
 * function left them; returns the real return address. */
uint64_t fgraph_exit(uint64_t fp, uint64_t retval, uint64_t sp);

/* Owners' exit hooks (interrupts masked). 'returned' is false for a
 * frame unwound after a longjmp (retval means nothing then). */
void graph_exit(struct fgraph_stack *st, struct fgraph_frame *f, uint64_t now,
		uint64_t retval, bool returned);
void profile_exit(struct fgraph_stack *st, struct fgraph_frame *f, uint64_t now);
void hist_exit(struct fgraph_stack *st, struct fgraph_frame *f, uint64_t now, bool returned);
void retprobe_exit(struct fgraph_frame *f, uint64_t retval, uint64_t sp, bool returned);

/* The real return address behind the n-th return hook (0 = innermost)
 * on this CPU's stack, for backtraces; 0 if there is none. */
uint64_t fgraph_real_return(unsigned int cpu, unsigned int n);

/* For a backtrace walking this CPU's stack from the innermost frame:
 * turns the address of a return hook into the real return address it
 * stands for; *hooked counts the hooked frames passed so far (start 0). */
uint64_t fgraph_translate(uint64_t ret, unsigned int *hooked);

/* Clears the stopped state (a new tracer start). */
void fgraph_reset(void);

#endif /* TRACE_FGRAPH_H */
