/*
 * trace/events/hist_ev.c: log2 histograms of a tracepoint field, per
 * key, per CPU (hist_ev.h). One probe, attached to each event a spec
 * names; it adds the hit to this CPU's table of every spec of the
 * event. Nothing goes to the ring buffer: the tables are sent whole
 * (hist_ev_out.c).
 *
 * tables[k][cpu]: written only by CPU cpu, from the probe, which runs
 * with interrupts masked (the site's out-of-line block masks them
 * around its BL), so plain adds are enough. Allocated at the first
 * start that needs them, never freed. A key takes a row by open
 * addressing (HIST_EV_KEYS rows, linear probing); when every row is
 * taken, a new key's hit goes to 'other'.
 *
 * specs[], nspecs: written by hist_ev_start while the probe is attached
 * to no event (hist_ev_stop detached it, and each detach ends in a
 * synchronisation round, trace/events/tracepoint.c), so the probe never
 * reads half a spec.
 *
 * Clearing without stopping anyone, as tracers/hist.c: 'epoch' goes up
 * at each clear; a CPU whose table's 'seen' is behind zeroes the rows
 * in use at its next hit and then publishes 'seen' (release); a reader
 * takes a table only when its 'seen' (acquire) is the epoch.
 */
#include <stdlib.h>
#include <string.h>

#include <baretrace_trace.h>

#include "base/tp_table.h"
#include "core/core.h"
#include "kprintf.h"
#include "percpu.h"
#include "hist_ev.h"

static struct hist_ev_spec specs[HIST_EV_MAX];
static unsigned int nspecs;
static struct hist_ev_table *tables[HIST_EV_MAX][NR_CPUS];
static uint32_t epoch = 1;	/* tables fresh from calloc: epoch 0, stale */
static bool attached;

static unsigned int slot_of(uint64_t key)
{
	return (unsigned int)((key * 0x9e3779b97f4a7c15ULL) >> 58) & (HIST_EV_KEYS - 1);
}

static struct hist_ev_row *row_for(struct hist_ev_table *t, uint64_t key)
{
	unsigned int h = slot_of(key);

	for (unsigned int i = 0; i < HIST_EV_KEYS; i++) {
		struct hist_ev_row *r = &t->rows[(h + i) & (HIST_EV_KEYS - 1)];

		if (!r->used) {
			r->key = key;
			/* Orders the key before 'used' for readers. */
			__atomic_store_n(&r->used, 1, __ATOMIC_RELEASE);
			t->nkeys++;
			return r;
		}
		if (r->key == key)
			return r;
	}
	return NULL;
}

static void hist_ev_hit(const struct tp_event *ev, const uint64_t *fields)
{
	unsigned int cpu = this_cpu()->cpu;
	uint32_t e = __atomic_load_n(&epoch, __ATOMIC_ACQUIRE);

	for (unsigned int k = 0; k < nspecs; k++) {
		const struct hist_ev_spec *s = &specs[k];
		struct hist_ev_table *t = tables[k][cpu];

		if (s->ev != ev || !t)
			continue;
		if (__builtin_expect(t->seen != e, 0)) {
			memset(t->rows, 0, sizeof(t->rows));
			t->nkeys = 0;
			t->other = 0;
			__atomic_store_n(&t->seen, e, __ATOMIC_RELEASE);
		}
		/* tp_field_value for an unsigned field: its width's bits */
		uint64_t v = fields[s->field] & s->vmask;
		uint64_t key = s->key == HIST_EV_NOKEY ? 0 : fields[s->key] & s->kmask;
		struct hist_ev_row *r = row_for(t, key);

		if (!r) {
			t->other++;
			continue;
		}
		r->bucket[hist_bucket(v)]++;
		r->sum += v;
	}
}

/* The first n characters of p, cut to fit, for a message. */
static const char *shown(const char *p, size_t n)
{
	static char buf[80];

	n = n < sizeof(buf) - 1 ? n : sizeof(buf) - 1;
	memcpy(buf, p, n);
	buf[n] = '\0';
	return buf;
}

/* The index of field 'name' (n characters) in ev, or -1 (said why). */
static int field_of(const struct tp_event *ev, const char *name, size_t n, const char *what)
{
	for (unsigned int i = 0; i < ev->nfields; i++) {
		const struct tp_field *f = &ev->fields[i];

		if (strlen(f->name) != n || strncmp(f->name, name, n))
			continue;
		if (f->type == TP_STR || (f->type >= TP_S8 && f->type <= TP_S64)) {
			kprintf("hist: %s field '%s' of %s is %s; it must be an unsigned number\n",
				what, f->name, ev->name, f->type == TP_STR ? "a string" : "signed");
			return -1;
		}
		return (int)i;
	}
	kprintf("hist: %s has no field '%s'; its fields:", ev->name, shown(name, n));
	for (unsigned int i = 0; i < ev->nfields; i++)
		kprintf(" %s", ev->fields[i].name);
	kprintf("\n");
	return -1;
}

/* The first ':' in p .. end, or NULL (newlib's memchr uses SIMD
 * registers, which kernel code never touches). */
static const char *colon(const char *p, const char *end)
{
	for (; p < end; p++)
		if (*p == ':')
			return p;
	return NULL;
}

/* One spec of n characters into *s, or -1 (said why). */
static int parse_one(const char *p, size_t n, struct hist_ev_spec *s)
{
	char name[64];
	const char *end = p + n, *c1 = colon(p, end), *c2 = c1 ? colon(c1 + 1, end) : NULL;
	const char *c3 = c2 ? colon(c2 + 1, end) : NULL;
	const char *fend = c3 ? c3 : end;
	int f, k = HIST_EV_NOKEY;

	if (!c2 || c2 == c1 + 1 || fend == c2 + 1 || (size_t)(c2 - p) >= sizeof(name) ||
	    (c3 && (strncmp(c3, ":keys=", 6) || c3 + 6 == end ||
		    colon(c3 + 6, end)))) {
		kprintf("hist: '%s' is not SYSTEM:EVENT:FIELD or SYSTEM:EVENT:FIELD:keys=KEY\n",
			shown(p, n));
		return -1;
	}
	memcpy(name, p, (size_t)(c2 - p));
	name[c2 - p] = '\0';
	if (!(s->ev = tp_find(name))) {
		kprintf("hist: no event '%s' (the console command 'events' lists them)\n", name);
		return -1;
	}
	if ((f = field_of(s->ev, c2 + 1, (size_t)(fend - c2 - 1), "the value")) < 0)
		return -1;
	if (c3 && (k = field_of(s->ev, c3 + 6, (size_t)(end - c3 - 6), "the key")) < 0)
		return -1;
	s->field = (uint8_t)f;
	s->key = (uint8_t)k;
	s->vmask = tp_field_value(&s->ev->fields[f], ~0ULL);
	s->kmask = k == HIST_EV_NOKEY ? 0 : tp_field_value(&s->ev->fields[k], ~0ULL);
	return 0;
}

/* Whether spec k is the first of specs[] on its event. */
static bool first_on_event(const struct hist_ev_spec *sp, unsigned int k)
{
	for (unsigned int i = 0; i < k; i++)
		if (sp[i].ev == sp[k].ev)
			return false;
	return true;
}

static int detach_all(const struct hist_ev_spec *sp, unsigned int n)
{
	int err = 0;

	for (unsigned int k = 0; k < n; k++)
		if (first_on_event(sp, k) && tp_probe_detach(sp[k].ev, hist_ev_hit))
			err = TRACE_EBUSY;
	return err;
}

int hist_ev_start(const char *list)
{
	struct hist_ev_spec next[HIST_EV_MAX];
	unsigned int n = 0;
	const char *p = list;

	if (attached)
		return TRACE_EBUSY;
	while (*p) {
		size_t len = strcspn(p, ", ");

		if (len && n == HIST_EV_MAX) {
			kprintf("hist: at most %u event histograms at a time\n", HIST_EV_MAX);
			return TRACE_EINVAL;
		}
		if (len && parse_one(p, len, &next[n++]))
			return TRACE_EINVAL;
		p += len;
		p += strspn(p, ", ");
	}
	if (!n) {
		kprintf("hist: name an event: SYSTEM:EVENT:FIELD[:keys=KEY]\n");
		return TRACE_EINVAL;
	}
	for (unsigned int k = 0; k < n; k++)
		for (unsigned int c = 0; c < smp_num_cpus(); c++)
			if (!tables[k][c] && !(tables[k][c] = calloc(1, sizeof(struct hist_ev_table)))) {
				kprintf("hist: out of memory\n");
				return TRACE_ENOMEM;	/* the tables are kept for the next try */
			}
	memcpy(specs, next, sizeof(next));
	nspecs = n;
	hist_ev_clear();
	for (unsigned int k = 0; k < n; k++) {
		int err = first_on_event(specs, k) ?
			  tp_probe_attach_flags(specs[k].ev, hist_ev_hit, TP_PROBE_NO_FPSIMD) : 0;

		if (err) {
			detach_all(specs, k);
			nspecs = 0;
			kprintf("hist: %s refused the probe (%d)\n", specs[k].ev->name, err);
			return err;
		}
	}
	attached = true;
	return 0;
}

int hist_ev_stop(void)
{
	if (!attached)
		return 0;
	int err = detach_all(specs, nspecs);

	if (!err)
		attached = false;
	return err;
}

int hist_ev_forget(void)
{
	if (attached)
		return TRACE_EBUSY;
	nspecs = 0;
	hist_ev_clear();
	return 0;
}

bool hist_ev_on(void)
{
	return attached;
}

void hist_ev_clear(void)
{
	__atomic_fetch_add(&epoch, 1, __ATOMIC_RELEASE);
}

unsigned int hist_ev_specs(const struct hist_ev_spec **sp)
{
	*sp = specs;
	return nspecs;
}

const struct hist_ev_table *hist_ev_table_of(unsigned int k, unsigned int cpu)
{
	if (k >= nspecs || cpu >= NR_CPUS || !tables[k][cpu] ||
	    __atomic_load_n(&tables[k][cpu]->seen, __ATOMIC_ACQUIRE) != __atomic_load_n(&epoch, __ATOMIC_ACQUIRE))
		return NULL;
	return tables[k][cpu];
}
