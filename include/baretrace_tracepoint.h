/*
 * include/baretrace_tracepoint.h: typed events at fixed places in code.
 *
 * Declare an event in a header, define it (its fields) in one .c file,
 * and fire it where it happens:
 *
 *   TP_DECLARE(sensor, sample);                            // header
 *   TP_DEFINE(sensor, sample,                              // one .c
 *             TP_FIELD(U32, channel, "%u"),
 *             TP_FIELD(S64, value, "%ld"),
 *             TP_STRING(unit, 8));
 *   trace_event(sensor, sample, ch, v, "mV");              // the site
 *
 * Site cost. With no probe attached a site is one NOP in the text. When
 * the first probe attaches the NOP becomes "B out_of_line", a block the
 * compiler placed away from the hot path that stores the fields in a
 * uint64_t array and executes one "BL target". That BL is patched too:
 *
 *   probes   site NOP          out-of-line BL
 *   0        NOP               BL tp_iterate (never reached)
 *   1        B out_of_line     BL probe        (a static call; a
 *                                               TP_PROBE_NO_FPSIMD one)
 *   2+       B out_of_line     BL tp_iterate   (loops over the array)
 *   any that may use FP/SIMD   BL tp_iterate_fp (keeps FP, then loops)
 *
 * Probes are void probe(const struct tp_event *ev, const uint64_t *fields);
 * fields[i] holds field i (integers widened to 64 bits, strings as a
 * pointer). A probe runs with IRQ and FIQ masked, called directly or
 * through tp_iterate: the patcher's IPI round is then a grace period, so
 * once tp_probe_detach returns no CPU is still inside the probe.
 *
 * FP/SIMD. The site itself keeps none of it: in application code (built
 * with FP/SIMD) its asm names v0-v7 and v16-v31 as clobbered, so only a
 * caller with values live there pays (it spills them on the hit path);
 * kernel code holds none (it is built -mgeneral-regs-only). The rest is
 * the probe's side:
 *   tp_probe_attach        the probe may use FP/SIMD: the site calls it
 *                          through tp_iterate_fp (trace/base/tp_fp.S),
 *                          which keeps q8-q15 (a caller may keep a whole
 *                          vector in one; a C probe keeps low halves),
 *                          FPCR and FPSR when FP/SIMD is on, and puts
 *                          CPACR_EL1 back when it was off
 *   TP_PROBE_NO_FPSIMD     the probe touches no FP/SIMD register, FPCR
 *                          or FPSR (the trace core's recorder; an
 *                          application's built with
 *                          __attribute__((target("general-regs-only")))):
 *                          the only probe is a direct BL (a static call)
 *
 * Attach, detach, enable and filter calls are thread context only; they
 * take trace_lock and patch through the trace core's patcher.
 */
#ifndef BARETRACE_TRACEPOINT_H
#define BARETRACE_TRACEPOINT_H

#include <stdint.h>

#define TP_MAX_FIELDS	8
#define TP_MAX_PROBES	8

enum tp_type {		/* the wire's field types (docs/wire.md, key 7) */
	TP_U8 = 1, TP_U16, TP_U32, TP_U64, TP_S8, TP_S16, TP_S32, TP_S64,
	TP_PTR, TP_STR,
};

struct tp_field {
	const char *name;
	uint8_t type;		/* enum tp_type */
	uint8_t size;		/* TP_STR: at most this many bytes recorded */
	const char *format;	/* printf-style, for the host */
};

struct tp_event;
typedef void (*tp_probe_fn)(const struct tp_event *ev, const uint64_t *fields);

/* Run-time state of one event; owned by trace/events/tracepoint.c. */
struct tp_state {
	tp_probe_fn probes[2][TP_MAX_PROBES];	/* published one, spare one */
	unsigned char fp_probes[2];		/* bit i: probes[k][i] may use FP */
	volatile unsigned int cur;		/* which array tp_iterate reads */
	unsigned int nprobes;
	unsigned char recording;		/* the recorder is attached */
	unsigned char has_filter;
	unsigned char filter_field, filter_ne;	/* field == / != value */
	uint64_t filter_value;
	volatile uint64_t filtered_out;
};

struct tp_event {
	const char *name;	/* "system:event" */
	const struct tp_field *fields;
	unsigned int nfields;
	struct tp_state *state;
};

#define TP_FIELD(type, name, fmt)	{ #name, TP_##type, 0, fmt }
#define TP_STRING(name, max)		{ #name, TP_STR, max, "%s" }

#define TP_DECLARE(sys, ev) extern const struct tp_event tp_ev_##sys##_##ev

/* Descriptors sit in section .bt_events: an event's id is its index
 * there (link order), the id its records carry. */
#define TP_DEFINE(sys, ev, ...)							\
	static const struct tp_field tp_fields_##sys##_##ev[] = { __VA_ARGS__ }; \
	static struct tp_state tp_state_##sys##_##ev;				\
	_Static_assert(sizeof(tp_fields_##sys##_##ev) / sizeof(struct tp_field) \
		       <= TP_MAX_FIELDS, "too many fields");			\
	const struct tp_event tp_ev_##sys##_##ev				\
	__attribute__((used, section(".bt_events"), aligned(8))) = {		\
		#sys ":" #ev, tp_fields_##sys##_##ev,				\
		sizeof(tp_fields_##sys##_##ev) / sizeof(struct tp_field),	\
		&tp_state_##sys##_##ev }

void tp_iterate(const struct tp_event *ev, const uint64_t *fields);
void tp_iterate_fp(const struct tp_event *ev, const uint64_t *fields);

/*
 * Registers the out-of-line call clobbers: what a BL may under the
 * AAPCS64, less x12-x14, which the block saves around the call itself
 * (with DAIF, in the slot x15 would take: x15 is clobbered). That leaves
 * the compiler three caller-saved registers for values live across the
 * site, so a site in a small function does not make it save
 * callee-saved registers on the path where the site is a NOP (measured:
 * 4 instructions per call become 1, make bench). x0/x1 are operands.
 * In application code the vector registers a C probe may change are
 * named too (v8-v15 are not: the compiler would save d8-d15 in the
 * prologue of every function with a site; tp_iterate_fp keeps them).
 */
#ifdef __ARM_NEON
#define TP_FP_CLOBBERS , "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7",	\
	"v16", "v17", "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25",	\
	"v26", "v27", "v28", "v29", "v30", "v31"
#else
#define TP_FP_CLOBBERS
#endif

/*
 * The site. Sections record, as offsets from each word itself (so no
 * relocation is needed), the event, the NOP and the out-of-line block
 * (.bt_tp_sites), or the event and the BL (.bt_tp_calls). The compiler may duplicate either asm; every copy has
 * its own entry and is patched with the rest.
 */
/* Each argument widened to uint64_t (integers, pointers, strings). */
#define TP_U(x) ((uint64_t)(uintptr_t)(x))
#define TP_MAP0()
#define TP_MAP1(a) TP_U(a)
#define TP_MAP2(a, ...) TP_U(a), TP_MAP1(__VA_ARGS__)
#define TP_MAP3(a, ...) TP_U(a), TP_MAP2(__VA_ARGS__)
#define TP_MAP4(a, ...) TP_U(a), TP_MAP3(__VA_ARGS__)
#define TP_MAP5(a, ...) TP_U(a), TP_MAP4(__VA_ARGS__)
#define TP_MAP6(a, ...) TP_U(a), TP_MAP5(__VA_ARGS__)
#define TP_MAP7(a, ...) TP_U(a), TP_MAP6(__VA_ARGS__)
#define TP_MAP8(a, ...) TP_U(a), TP_MAP7(__VA_ARGS__)
#define TP_NARG(...) TP_NARG_(0, ##__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define TP_NARG_(z, a, b, c, d, e, f, g, h, n, ...) n
#define TP_CAT(a, b) a##b
#define TP_XCAT(a, b) TP_CAT(a, b)
#define TP_ARGS(...) TP_XCAT(TP_MAP, TP_NARG(__VA_ARGS__))(__VA_ARGS__)

#define trace_event(sys, ev, ...) do {						\
	__label__ tp_hit;							\
	asm goto("1:	nop\n"							\
		 "	.pushsection .bt_tp_sites, \"a\"\n"			\
		 "	.balign 4\n"						\
		 "	.long %c0 - ., 1b - ., %l1 - .\n"			\
		 "	.popsection\n"						\
		 : : "S"(&tp_ev_##sys##_##ev) : : tp_hit);			\
	if (0) {								\
	tp_hit:;								\
		const uint64_t tp_f[] = { 0, TP_ARGS(__VA_ARGS__) };			\
		register const struct tp_event *tp_x0 asm("x0") = &tp_ev_##sys##_##ev; \
		register const uint64_t *tp_x1 asm("x1") = tp_f + 1;		\
		asm volatile("	mrs x15, daif\n"				\
			     "	stp x12, x13, [sp, #-32]!\n"		\
			     "	stp x14, x15, [sp, #16]\n"			\
			     "	msr daifset, #3\n"				\
			     "1:	bl tp_iterate\n"			\
			     "	ldp x14, x15, [sp, #16]\n"			\
			     "	msr daif, x15\n"				\
			     "	ldp x12, x13, [sp], #32\n"			\
			     "	.pushsection .bt_tp_calls, \"a\"\n"		\
			     "	.balign 4\n"					\
			     "	.long %c2 - ., 1b - .\n"			\
			     "	.popsection\n"					\
			     : "+r"(tp_x0), "+r"(tp_x1)				\
			     : "S"(&tp_ev_##sys##_##ev), "m"(tp_f)		\
			     : "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9",	\
			       "x10", "x11", "x15", "x16", "x17", "x18", "x30", "cc",	\
			       "memory" TP_FP_CLOBBERS);			\
	}									\
} while (0)

/* Control (0 or a TRACE_E* code from <baretrace_trace.h>). */
int tp_probe_attach(const struct tp_event *ev, tp_probe_fn probe);
#define TP_PROBE_NO_FPSIMD	1	/* the probe never touches FP/SIMD state */
int tp_probe_attach_flags(const struct tp_event *ev, tp_probe_fn probe, unsigned int flags);
int tp_probe_detach(const struct tp_event *ev, tp_probe_fn probe);
int tp_enable(const char *globs, int on);	/* recorder on matching events */
int tp_set_filter(const char *event, const char *expr);	/* "f==v", "f!=v", "" */
const struct tp_event *tp_find(const char *name);
unsigned int tp_count(void);
const struct tp_event *tp_by_id(unsigned int id);

#endif /* BARETRACE_TRACEPOINT_H */
