/*
 * trace/core/core.h: what the files of the trace core share.
 *
 * Locking: trace_lock serialises every change (register, unregister,
 * filters, forced list mode) and is held across the patch batch and its
 * synchronisation round. It is taken in thread context only, but for
 * trace_ops_retire, which only tries it (from CPU 0's tick: a thread on
 * that CPU may hold it) and never waits for another CPU. Dispatch
 * (trace/core/entry.S, trace_list_func) takes no lock: it reads the literal in
 * text and the published ops list, both replaced before a sync round and
 * reused only after one.
 */
#ifndef TRACE_CORE_H
#define TRACE_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include <baretrace_trace.h>

#include "mmu.h"
#include "spinlock.h"
#include "tables.h"

#define TRACE_OPS_MAX	128

#define INSN_NOP	0xd503201fU
#define INSN_MOV_X9_LR	0xaa1e03e9U
#define LITERAL_BOOT	0xd503201fd503201fULL	/* two NOPs before init */

/* Per-site state, in the bt_site_state array the link reserves. The
 * first two fields make each site's state usable as an ops: in list mode
 * the site's literal points at its own state, so the list function knows
 * the site without a search. Written under trace_lock; 'list_func' and
 * 'direct_call' never change after init. */
struct site_state {
	trace_func list_func;		/* 0: trace_list_func */
	uintptr_t direct_call;		/* 8: always 0 */
	struct trace_ops *installed;	/* literal now in text */
	uint32_t wanting;		/* ops whose 'want' has this site */
	uint8_t flags;			/* SITE_* */
	uint8_t pad[3];
};

#define SITE_WANTED	(1 << 0)	/* wanting > 0 */
#define SITE_ENABLED	(1 << 1)	/* BL in text */
#define SITE_DIRECT	(1 << 2)	/* that BL goes to trace_direct_target(i) */
#define SITE_BOTH	(1 << 3)	/* to trace_caller_both: ops, then the trampoline */
#define SITE_ENTRY	(1 << 4)	/* to the literal ops' own entry (direct_call) */
#define SITE_ROUTE	(SITE_DIRECT | SITE_BOTH | SITE_ENTRY)

_Static_assert(sizeof(struct site_state) == BT_SITE_STATE_SIZE, "tables.h");

extern struct site_state bt_site_state[];
extern struct trace_ops trace_nop_ops;
extern struct spinlock trace_lock;

/* trace/core/site.c */
static inline uintptr_t site_func(unsigned int i)
{
	return (uintptr_t)_text + bt_syms[bt_sites[i]].start;
}
void trace_sites_init(void);
/* The site index for each 8-byte slot of text where a site starts (other
 * slots are 0: only look up real sites' ips), an O(1) map from a
 * callback's ip to its site. Written once at boot. */
extern uint16_t *trace_site_slot;
/* &trace_site_slot[(func - _text) / 8] == trace_site_slot_bias + (func + 8) / 4
 * (functions are 8-byte aligned): one load and an add from the return
 * address of a site's BL, for the recorders in assembly. */
extern uintptr_t trace_site_slot_bias;

static inline unsigned int trace_site_fast(uintptr_t ip)
{
	return trace_site_slot[(ip - (uintptr_t)_text) >> 3];
}

/* Site bitmaps: bit i is site i (trace/core/ops_filter.c). */
static inline unsigned int site_bitmap_words(void)
{
	return (bt_site_count + 63) / 64;
}

static inline bool site_bit(const uint64_t *bits, unsigned int i)
{
	return bits[i / 64] & (1ULL << (i % 64));
}

/* trace/core/patch.c: one change of one site. */
struct patch_req {
	uint32_t site;
	struct trace_ops *literal;	/* new literal */
	bool enable;			/* BL (true) or NOP */
	uint8_t route;			/* 0 (trace_caller), SITE_DIRECT, SITE_BOTH or SITE_ENTRY */
	/* SITE_BOTH: the ops trace_direct_both[site]->data must name; the
	 * patcher stores it only once the batch is accepted. */
	struct trace_ops *inner;
	struct trace_ops *old_inner;	/* the patcher's, for a roll back */
};
/* trace/core/direct.c, both NULL before the first attach, under trace_lock:
 * trace_site_direct[i] is site i's direct trampoline, what its BL targets
 * while SITE_DIRECT is set (it outlives the want until the BL is gone);
 * trace_direct_want[i] says a trampoline is attached. */
extern uintptr_t *trace_site_direct;
extern uint8_t *trace_direct_want;
/* Site i's ops literal while its trampoline is attached: direct_call =
 * the trampoline, for the long path (trace_caller_direct). */
extern struct trace_ops **trace_direct_ops;
/* Site i's literal while ops and its trampoline share it: func calls the
 * ops (data), direct_call is the trampoline. */
extern struct trace_ops **trace_direct_both;
uintptr_t trace_direct_target(unsigned int i);	/* what the BL calls */
int trace_sites_update(void);	/* trace/core/ops.c: recompute and patch */
int patch_apply(struct patch_req *reqs, unsigned int n);
/* The same batch without a synchronisation round, for the one change
 * that needs none (trace_ops_retire says why): sites leaving the want
 * of an ops that stays registered. */
int patch_apply_retire(struct patch_req *reqs, unsigned int n);
void patch_sync_round(void);
/* The end of a run: from now on a round waits at most a bounded time for
 * each CPU (patch.c says what a missed CPU means). With 'probe', runs one
 * bounded round first and returns the CPUs that did not answer it (each
 * named on the console); then nothing may be patched any more. Thread
 * context, interrupts on, for 'probe'. */
uint64_t patch_end_of_run(bool probe);
/* A round at the end of the run missed a CPU: register and unregister
 * refuse, and nothing a round retired is freed. */
bool patch_round_missed(void);
uint32_t patch_insn_bl(uintptr_t from, uintptr_t to);
uint32_t patch_insn_b(uintptr_t from, uintptr_t to);
bool patch_b_reaches(uintptr_t from, uintptr_t to);
/* Instruction words at addr[] from old[] to insn[], one batch. */
int patch_apply_insns(const uintptr_t *addr, const uint32_t *old,
		      const uint32_t *insn, unsigned int n);

/* trace/core/patch_stop.c: one instruction word at addr from old to insn
 * while every other CPU waits in an interrupt, for words the architecture
 * does not let a CPU execute while they change (a probe's BRK over any
 * instruction). 0, a text_write32 error, or PATCH_ESTOPPED when a CPU did
 * not arrive in time (nothing written). Thread context, trace_lock held. */
#define PATCH_ESTOPPED	(-3)
int patch_stop_write32(uintptr_t addr, uint32_t old, uint32_t insn);

/* trace/core/fp_call.S: a callback call with q0-q7, FPCR and FPSR kept
 * (the shim's func takes the ops from shim->data). */
void trace_fp_call(uintptr_t ip, uintptr_t parent_ip, struct trace_ops *ops,
		   struct trace_regs *regs);
void trace_fp_shim_func(uintptr_t ip, uintptr_t parent_ip, struct trace_ops *shim,
			struct trace_regs *regs);
/* An ops of the trace core's own tracers whose direct_call is an entry
 * in assembly that a site wanted by this ops alone calls straight from
 * its BL (route SITE_ENTRY), with trace_caller's contract and the same
 * effect as calling func through it. While the flag is clear (the
 * tracer's filters need the C callback) sites go through trace_caller;
 * who clears it calls trace_sites_update(). Never set for application ops. */
#define TRACE_OPS_ENTRY		(1u << 30)

/* trace/core/ops.c: what a site wanted by ops alone has as its literal. */
struct trace_ops *trace_ops_literal(struct trace_ops *ops);
/* trace/core/ops.c: takes the sites set in 'sites' out of a registered
 * ops' want and patches them as one batch, with no synchronisation
 * round and without waiting for trace_lock: callable from an interrupt
 * handler (coverage retires the sites it has seen, trace/tracers/coverage.c).
 * 0, TRACE_EBUSY (lock taken or ops not registered: try again later) or
 * TRACE_EPATCH. */
int trace_ops_retire(struct trace_ops *ops, const uint64_t *sites);
/* trace/core/ops_filter.c: whether one pattern of a filter list (its '!'
 * taken off) selects the site: "@GLOB" matches the folder of its source
 * (trace_site_folder), anything else its name. */
bool trace_site_selected(unsigned int site, const char *pat, size_t len);
/* trace/core/ops_filter.c: a new bitmap of the sites ops wants (its
 * filter less its notrace), or NULL out of memory. */
uint64_t *trace_ops_want(const struct trace_ops *ops);

/* trace/core/list.c */
void trace_list_func(uintptr_t ip, uintptr_t parent_ip, struct trace_ops *op,
		     struct trace_regs *regs);
struct ops_list {
	unsigned int n;
	struct trace_ops *ops[TRACE_OPS_MAX];
};
extern struct ops_list *trace_live_ops;

void trace_init(void);
unsigned int trace_wanted_sites(const struct trace_ops *ops);
unsigned int trace_filter_matches(const struct trace_ops *ops);	/* sites its filter selects */
/* Frees an unregistered ops' filter bitmaps (the ops may be reused). */
void trace_ops_release(struct trace_ops *ops);
/* Registers n ops laid out 'stride' bytes apart; on a failure unregisters
 * those it did and returns the error. */
int trace_ops_register_each(struct trace_ops *first, size_t stride, unsigned int n);

#endif /* TRACE_CORE_H */
