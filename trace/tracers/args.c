/*
 * trace/tracers/args.c: argument capture: "func:N" records the first N argument
 * registers (x0..x7) of each call of func as an extension record (kind
 * 7, subtype 1), next to whatever else records the call.
 */
#include <string.h>

#include "bootargs.h"
#include "core/core.h"
#include "kprintf.h"
#include "ring/ring.h"
#include "tracer.h"
#include "trigger.h"
#include "wire.h"

#define ARGS_MAX	8

struct args_spec {
	struct trace_ops ops;	/* first: the callback gets &ops */
	unsigned int n;
	char func[48];
};

static struct args_spec specs[ARGS_MAX];
static unsigned int nspecs;

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
		const char *e = p, *colon = NULL;
		unsigned long count;
		char num[8];

		while (*e && *e != ',' && *e != ' ') {
			if (*e == ':' && !colon)
				colon = e;
			e++;
		}
		if (e > p) {
			if (n == ARGS_MAX || !colon || colon == p ||
			    (size_t)(colon - p) >= sizeof(next[n].func) ||
			    (size_t)(e - colon - 1) >= sizeof(num))
				goto refuse;
			memcpy(next[n].func, p, (size_t)(colon - p));
			memcpy(num, colon + 1, (size_t)(e - colon - 1));
			num[e - colon - 1] = '\0';
			if (bootargs_parse_ulong(num, &count) || count < 1 || count > 8)
				goto refuse;
			next[n].n = (unsigned int)count;
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
	for (unsigned int i = 0; i < nspecs; i++)
		kprintf("%s:%u\n", specs[i].func, specs[i].n);
}
