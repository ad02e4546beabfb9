/*
 * trace/tracers/args.c: argument capture: "func:N" records the first N argument
 * registers (x0..x7) of each call of func as an extension record (kind
 * 7, subtype 1), next to whatever else records the call.
 *
 * "func:N:sRR" also records the C strings that registers RR point to
 * (digits, each below N: "fmt:3:s0" for x0), up to ARGS_STR_MAX bytes
 * each, one subtype-6 record per string right after the arguments. The
 * target cannot know a parameter's type (the host reads it from DWARF),
 * so the user says which registers are strings. A string is read only
 * inside RAM and through fault_probe_read32, so a stale or wild pointer
 * gives an "unreadable" record instead of a crash, and device memory
 * (whose reads may have effects) is never touched.
 */
#include <string.h>

#include "bootargs.h"
#include "core/core.h"
#include "fault.h"
#include "heap.h"
#include "kprintf.h"
#include "mmu.h"
#include "ring/ring.h"
#include "tracer.h"
#include "trigger.h"
#include "wire.h"

#define ARGS_MAX	8
#define ARGS_STR_MAX	32	/* bytes of a string recorded, at most */

/* flags of a string record (docs/wire.md 2.6, subtype 6) */
#define STR_CUT		1	/* no NUL within ARGS_STR_MAX bytes */
#define STR_UNREADABLE	2	/* outside RAM, or a read faulted, where it stops */

struct args_spec {
	struct trace_ops ops;	/* first: the callback gets &ops */
	unsigned int n;
	uint8_t strings;	/* bit r: register r points to a string */
	char func[48];
};

static struct args_spec specs[ARGS_MAX];
static unsigned int nspecs;
static struct mem_region ram;	/* where strings may be read; set with the specs */

/* Up to ARGS_STR_MAX bytes of the string at addr, to its NUL; *flags says
 * why it stopped short of the NUL. Aligned 32-bit reads: what the fault
 * probe offers. */
static unsigned int fetch_string(uint64_t addr, uint8_t *out, uint8_t *flags)
{
	unsigned int n = 0;

	*flags = 0;
	while (n < ARGS_STR_MAX) {
		uint64_t at = addr + n;
		uint32_t word;

		if (at < ram.base || at - ram.base >= ram.size ||
		    fault_probe_read32((const void *)(uintptr_t)(at & ~UINT64_C(3)), &word)) {
			*flags = STR_UNREADABLE;
			return n;
		}
		for (unsigned int b = (unsigned int)(at & 3); b < 4 && n < ARGS_STR_MAX; b++) {
			uint8_t c = (uint8_t)(word >> (8 * b));	/* little-endian */

			if (!c)
				return n;
			out[n++] = c;
		}
	}
	*flags = STR_CUT;
	return n;
}

static void capture_string(unsigned int site, unsigned int reg, uint64_t addr)
{
	uint8_t text[ARGS_STR_MAX], flags;
	unsigned int len = fetch_string(addr, text, &flags);
	unsigned int payload = wire_varint_len(site) + 3 + len;	/* site, reg, flags, len */
	uint8_t *p = ring_reserve(WIRE_REC_EXT, 1 + wire_varint_len(payload) + payload);

	if (!p)
		return;
	*p++ = WIRE_EXT_STRING;
	p += wire_varint_put(p, payload);
	p += wire_varint_put(p, site);
	*p++ = (uint8_t)reg;
	*p++ = flags;
	*p++ = (uint8_t)len;
	memcpy(p, text, len);
	ring_commit();
}

static void capture(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
		    struct trace_regs *regs)
{
	const struct args_spec *a = (const struct args_spec *)ops;
	unsigned int site = trace_site_fast(ip);
	unsigned int payload = wire_varint_len(site) + 1;	/* site, count, args */

	(void)parent;
	for (unsigned int i = 0; i < a->n; i++)
		payload += wire_varint_len(wire_zigzag((int64_t)regs->x[i]));
	uint8_t *p = ring_reserve(WIRE_REC_EXT, 1 + wire_varint_len(payload) + payload);

	if (!p)
		return;
	*p++ = WIRE_EXT_ARGS;
	p += wire_varint_put(p, payload);
	p += wire_varint_put(p, site);
	*p++ = (uint8_t)a->n;
	for (unsigned int i = 0; i < a->n; i++)
		p += wire_varint_put(p, wire_zigzag((int64_t)regs->x[i]));
	ring_commit();
	for (unsigned int r = 0; r < a->n; r++)
		if (a->strings & (1u << r))
			capture_string(site, r, regs->x[r]);
}

static void release(struct args_spec *a, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		if (a[i].ops.registered)
			trace_ops_unregister(&a[i].ops);
		trace_ops_release(&a[i].ops);
	}
}

int trace_set_args(const char *spec)
{
	struct args_spec next[ARGS_MAX];
	unsigned int n = 0;
	int err;

	memset(next, 0, sizeof(next));
	for (const char *p = spec; *p;) {	/* parse everything first */
		const char *e = p, *colon = NULL, *strs = NULL;
		unsigned long count;
		char num[8];

		while (*e && *e != ',' && *e != ' ') {
			if (*e == ':' && colon && !strs)
				strs = e;
			if (*e == ':' && !colon)
				colon = e;
			e++;
		}
		if (e > p) {
			const char *num_end = strs ? strs : e;

			if (n == ARGS_MAX || !colon || colon == p ||
			    (size_t)(colon - p) >= sizeof(next[n].func) ||
			    (size_t)(num_end - colon - 1) >= sizeof(num))
				goto refuse;
			memcpy(next[n].func, p, (size_t)(colon - p));
			memcpy(num, colon + 1, (size_t)(num_end - colon - 1));
			num[num_end - colon - 1] = '\0';
			if (bootargs_parse_ulong(num, &count) || count < 1 || count > 8)
				goto refuse;
			next[n].n = (unsigned int)count;
			if (strs && (strs[1] != 's' || strs + 2 == e))
				goto refuse;	/* ":s" and at least one register */
			for (const char *r = strs ? strs + 2 : e; r < e; r++) {
				if (*r < '0' || *r >= '0' + (char)count)
					goto refuse;
				next[n].strings |= (uint8_t)(1u << (*r - '0'));
			}
			next[n].ops.func = capture;
			next[n].ops.flags = TRACE_OPS_NO_FPSIMD;
			if (trace_ops_set_filter(&next[n].ops, next[n].func) ||
			    !trace_filter_matches(&next[n].ops)) {
				kprintf("args: no function matches '%s'\n", next[n].func);
				n++;	/* its filter bitmap is released too */
				goto refuse;
			}
			n++;
		}
		p = *e ? e + 1 : e;
	}
	release(specs, nspecs);
	ram = ram_region();	/* here: the callback calls nothing traceable */
	memcpy(specs, next, sizeof(next));
	nspecs = n;
	/* A refusal by the patcher leaves no captures rather than some. */
	if ((err = trace_ops_register_each(&specs[0].ops, sizeof(specs[0]), n))) {
		release(specs, n);
		nspecs = 0;
	}
	return err;
refuse:	/* a bad spec: free what parsing made, keep the old captures */
	release(next, n);
	return TRACE_EINVAL;
}

void args_list(void)
{
	if (!nspecs)
		kprintf("no argument capture\n");
	for (unsigned int i = 0; i < nspecs; i++) {
		kprintf("%s:%u", specs[i].func, specs[i].n);
		if (specs[i].strings)
			kprintf(":s");
		for (unsigned int r = 0; r < ARGS_MAX; r++)
			if (specs[i].strings & (1u << r))
				kprintf("%u", r);
		kprintf("\n");
	}
}
