/*
 * trace/tracers/trigger.c: actions on a hit of a chosen function, each with an
 * optional count ("func:traceoff:3" fires three times):
 *   traceon / traceoff  resume or pause recording (the tracers stay
 *                       registered; the ring buffers refuse writes)
 *   snapshot            copy the buffers aside (snapshot.c)
 *   stacktrace          record the call stack (kind 7, subtype 2)
 *   dump                print the buffers on the console
 * Every firing is also recorded (kind 7, subtype 3). Triggers are set
 * while stopped (trace_set_triggers replaces them all); each is its own
 * ops, so a site wanted by one trigger and nothing else calls it
 * directly.
 */
#include <stdlib.h>
#include <string.h>

#include "bootargs.h"
#include "core/core.h"
#include "fgraph.h"
#include "kprintf.h"
#include "ring/ring.h"
#include "tracer.h"
#include "trigger.h"
#include "wire.h"

#define TRIGGER_MAX	8
#define STACK_MAX	16

struct trigger {
	struct trace_ops ops;	/* first: the callback gets &ops */
	enum trigger_action action;
	/* Hit on any CPU at once: both change only by atomic operations. */
	int64_t left;		/* firings left, -1 for no limit */
	volatile uint64_t fired;
	char func[48];
};

static struct trigger triggers[TRIGGER_MAX];
static void (*dump_fn)(void);	/* set once at boot (trigger_set_dump) */
static unsigned int ntriggers;
static const char *const action_names[] = {
	[TRIG_TRACEON] = "traceon", [TRIG_TRACEOFF] = "traceoff",
	[TRIG_SNAPSHOT] = "snapshot", [TRIG_STACKTRACE] = "stacktrace",
	[TRIG_DUMP] = "dump",
};

const char *trigger_action_name(unsigned int action)
{
	return action < sizeof(action_names) / sizeof(action_names[0]) ? action_names[action] : NULL;
}

static void record_ext(unsigned int subtype, const uint8_t *b, unsigned int n)
{
	uint8_t *p = ring_reserve(WIRE_REC_EXT, 1 + wire_varint_len(n) + n);

	if (!p)
		return;
	*p++ = (uint8_t)subtype;
	p += wire_varint_put(p, n);
	memcpy(p, b, n);
	ring_commit();
}

static void record_stack(struct trace_regs *regs)
{
	uint8_t b[1 + STACK_MAX * 5];
	unsigned int n = 1, count = 0;
	unsigned int hooked = 0;
	uintptr_t text = (uintptr_t)_text;
	uintptr_t ret = fgraph_translate(regs->lr, &hooked);
	const uint64_t *fp = (const uint64_t *)regs->fp;

	while (count < STACK_MAX && ret >= text && ret < (uintptr_t)_etext) {
		n += wire_varint_put(b + n, (ret - text) >> 2);
		count++;
		if (!fp || ((uintptr_t)fp & 15))
			break;
		ret = fgraph_translate(fp[1], &hooked);
		fp = (const uint64_t *)fp[0];
	}
	b[0] = (uint8_t)count;
	record_ext(WIRE_EXT_STACK, b, n);
}

static void fire(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
		 struct trace_regs *regs)
{
	struct trigger *t = (struct trigger *)ops;
	unsigned int site = trace_site_fast(ip);
	uint8_t b[8];
	unsigned int n;

	(void)parent;
	/* Claim one firing: exactly 'count' hits fire, whichever CPUs. */
	int64_t left = __atomic_load_n(&t->left, __ATOMIC_RELAXED);

	do {
		if (!left)
			return;
	} while (left > 0 && !__atomic_compare_exchange_n(&t->left, &left, left - 1, false,
							  __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	__atomic_fetch_add(&t->fired, 1, __ATOMIC_RELAXED);
	n = wire_varint_put(b, site);
	b[n++] = (uint8_t)t->action;
	record_ext(WIRE_EXT_TRIGGER, b, n);
	switch (t->action) {
	case TRIG_TRACEON:
		ring_pause(false);
		break;
	case TRIG_TRACEOFF:
		ring_pause(true);
		break;
	case TRIG_SNAPSHOT:
		snapshot_take();
		break;
	case TRIG_STACKTRACE:
		record_stack(regs);
		break;
	case TRIG_DUMP:
		if (dump_fn)
			dump_fn();
		break;
	}
}

static void release(struct trigger *t, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		if (t[i].ops.registered)
			trace_ops_unregister(&t[i].ops);
		trace_ops_release(&t[i].ops);
	}
}

/* Parses one "func:action[:count]" into t; 0 or TRACE_EINVAL. */
static int parse_one(const char *s, size_t len, struct trigger *t)
{
	char buf[96], *f = buf, *a, *c;
	unsigned long count;

	if (len >= sizeof(buf))
		return TRACE_EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!(a = strchr(f, ':')))
		return TRACE_EINVAL;
	*a++ = '\0';
	if ((c = strchr(a, ':')))
		*c++ = '\0';
	if (!*f || strlen(f) >= sizeof(t->func))
		return TRACE_EINVAL;
	t->action = 0;
	for (unsigned int i = 1; i < sizeof(action_names) / sizeof(action_names[0]); i++)
		if (!strcmp(a, action_names[i]))
			t->action = (enum trigger_action)i;
	if (!t->action || (c && (bootargs_parse_ulong(c, &count) || !count)))
		return TRACE_EINVAL;
	t->left = c ? (int64_t)count : -1;
	strcpy(t->func, f);
	t->ops.func = fire;
	t->ops.flags = TRACE_OPS_NO_FPSIMD;
	return 0;
}

int trace_set_triggers(const char *spec)
{
	struct trigger next[TRIGGER_MAX];
	unsigned int n = 0;
	int err;

	memset(next, 0, sizeof(next));
	for (const char *p = spec; *p;) {	/* parse all before changing anything */
		const char *e = p;

		while (*e && *e != ',' && *e != ' ')
			e++;
		if (e > p) {
			err = n == TRIGGER_MAX || parse_one(p, (size_t)(e - p), &next[n]) ?
			      TRACE_EINVAL : trace_ops_set_filter(&next[n].ops, next[n].func);
			if (!err && !trace_filter_matches(&next[n].ops)) {
				kprintf("trigger: no function matches '%s'\n", next[n].func);
				err = TRACE_EINVAL;
			}
			if (err) {
				release(next, n + (n < TRIGGER_MAX));
				return err;
			}
			n++;
		}
		p = *e ? e + 1 : e;
	}
	if (n && snapshot_alloc()) {
		release(next, n);
		return TRACE_ENOMEM;
	}
	release(triggers, ntriggers);
	memcpy(triggers, next, sizeof(next));
	ntriggers = n;
	/* A refusal by the patcher leaves no triggers rather than some. */
	if ((err = trace_ops_register_each(&triggers[0].ops, sizeof(triggers[0]), n))) {
		release(triggers, n);
		ntriggers = 0;
	}
	return err;
}

void trigger_set_dump(void (*fn)(void))
{
	dump_fn = fn;
}

void trigger_list(void)
{
	if (!ntriggers)
		kprintf("no triggers\n");
	for (unsigned int i = 0; i < ntriggers; i++) {
		const struct trigger *t = &triggers[i];

		kprintf("%s:%s", t->func, action_names[t->action]);
		if (t->left >= 0)
			kprintf(":%ld left", (long)t->left);
		kprintf(" (fired %lu times)\n", (unsigned long)t->fired);
	}
}

uint64_t trigger_fired(unsigned int i)
{
	return i < ntriggers ? triggers[i].fired : 0;
}
