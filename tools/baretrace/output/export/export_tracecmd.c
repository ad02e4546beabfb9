/*
 * tools/baretrace/output/export/export_tracecmd.c: `baretrace export
 * --format=trace-cmd`, a trace-cmd.dat version 6 file that `trace-cmd
 * report` prints and KernelShark opens.
 *
 * Records become the events Linux's ftrace writes for the same thing:
 *   function entries      ftrace:function        ip, parent_ip
 *   graph entries         ftrace:funcgraph_entry func, depth
 *   graph exits           ftrace:funcgraph_exit  func, depth, overrun (0),
 *                                                calltime, rettime
 *   trace_printf          ftrace:print           ip (0), buf
 *   tracepoint "sys:ev"   sys:ev                 the schema's fields
 *   arguments, strings    typed:FUNC             by parameter name and type
 *   return values         typed:FUNC__return     ret, by type
 * (the last two where the ELF's DWARF gives the function's signature:
 * export_tracecmd_typed.c). Other extension records (stack traces,
 * triggers; arguments with no signature) have no ftrace counterpart here
 * and are left out.
 *
 * Addresses: a function at offset X from _text has address base + X,
 * where base is _text's address from the trace metadata (where the
 * image ran), or BT_TC_DEFAULT_BASE when the trace does not say; the
 * kallsyms section lists every function at the same addresses. A
 * caller is its return address (base + offset), as ftrace's parent_ip.
 * Times are the counter converted to ns since the counter's zero.
 * Each CPU is a "task" named cpuN with pid N + 1 (pid 0 is the idle
 * task to trace-cmd and KernelShark).
 *
 * Lost events are marked as the ring buffer marks them: the page after
 * the hole carries the count, and `trace-cmd report` prints
 * "CPU:N [M EVENTS DROPPED]" before its first event. A hole after a
 * CPU's last event has no page after it and is not marked.
 *
 * Each CPU's pages go to a temporary spill file as they fill (only the
 * open page is held: export_tracecmd_page.c); the .dat is written only
 * once the trace decoded, its header and then each CPU's pages copied
 * whole, so a bad trace leaves nothing behind.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../decode/symtab.h"
#include "../../decode/units.h"
#include "../../model/model.h"
#include "../render/render.h"

#include "bt_tracecmd.h"
#include "export.h"

struct tc_export {
	struct bt_tc_cpu cpu[BT_MAX_CPUS];
	struct bt_stacks stacks;
	struct bt_depths depths;
	uint64_t exits[BT_MAX_CPUS];	/* ordinal of the next exit, per CPU */
	uint64_t base;
	struct bt_tc_typed *typed;
};

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The common fields: event id, no flags or preemption count, the pid. */
static void common(uint8_t *ev, unsigned id, unsigned cpu)
{
	memset(ev, 0, 8);
	put_le(ev, id, 2);
	put_le(ev + 4, cpu + 1, 4);
}

static uint64_t ns_of(struct bt_decoder *d, uint64_t ticks)
{
	return bt_ticks_ns(ticks, bt_freq(d));
}

static uint64_t func_addr(struct bt_decoder *d, struct tc_export *x, uint64_t site)
{
	struct bt_symtab *s = &d->syms;

	return x->base + (site < s->nsites && s->by_site[site].name ? s->by_site[site].start : 0);
}

/* Each string is cut to STR_MAX bytes, or to its share of what fits in
 * EVENT_MAX, well inside a ring-buffer page (with 255 integer fields an
 * event is 2048 bytes). */
#define STR_MAX		256
#define EVENT_MAX	3072

static void tracepoint(struct bt_decoder *d, struct tc_export *x, unsigned cpu,
		       const struct wire_record *r)
{
	const struct bt_schema *sc = bt_meta_schema(&d->meta, r->id);
	const uint8_t *p = r->data, *end = r->data + r->data_len;
	uint8_t ev[EVENT_MAX];
	unsigned off[BT_TC_FIELDS], fixed, at, strings = 0, cap = STR_MAX;

	if (!sc)
		return;
	at = bt_tc_layout(sc, off, &fixed);
	for (unsigned i = 0; i < sc->nfields; i++)
		strings += sc->types[i] == WIRE_FIELD_STRING;
	if (strings && (EVENT_MAX - fixed) / strings - 1 < cap)	/* each gets its share */
		cap = (EVENT_MAX - fixed) / strings - 1;
	common(ev, BT_TC_ID_FIRST_TRACEPOINT + (unsigned)(sc - d->meta.schemas), cpu);
	for (unsigned i = 0; i < sc->nfields; i++) {
		uint64_t u = 0;
		int n = wire_varint_get(p, (size_t)(end - p), &u);

		if (n < 0)	/* the record decoder checked this */
			bt_die(BT_EXIT_INPUT, "internal error: tracepoint fields");
		p += n;
		if (sc->types[i] == WIRE_FIELD_STRING) {
			size_t len = u < cap ? (size_t)u : cap;

			memcpy(ev + at, p, len);
			for (size_t k = 0; k < len; k++)	/* a C string ends at NUL */
				ev[at + k] = ev[at + k] ? ev[at + k] : '?';
			ev[at + len] = 0;
			put_le(ev + off[i], (uint64_t)(len + 1) << 16 | at, 4);
			at += (unsigned)len + 1;
			p += u;
		} else {
			put_le(ev + off[i], (uint64_t)wire_unzigzag(u), 8);
		}
	}
	bt_tc_event(&x->cpu[cpu], ns_of(d, r->ts), ev, at);
}

static void graph_exit(struct bt_decoder *d, struct tc_export *x, unsigned cpu,
		       const struct wire_record *r)
{
	struct bt_exit e;
	uint8_t ev[40];
	uint64_t k = x->exits[cpu]++, depth;

	bt_stack_exit(&x->stacks, cpu, r, &e);
	depth = e.matched ? e.depth : bt_depth_of(&x->depths, cpu, k, e.depth);
	common(ev, BT_TC_ID_GRAPH_EXIT, cpu);
	put_le(ev + 8, func_addr(d, x, r->site), 8);
	put_le(ev + 16, depth, 4);
	put_le(ev + 20, 0, 4);	/* overrun: depth overflows are not counted */
	put_le(ev + 24, ns_of(d, r->duration < r->ts ? r->ts - r->duration : 0), 8);
	put_le(ev + 32, ns_of(d, r->ts), 8);
	bt_tc_event(&x->cpu[cpu], ns_of(d, r->ts), ev, sizeof(ev));
}

/* Where the run ended: a print event, "==== run ended: crash ====". */
/* A probe hit, as its kprobe-style format says (export_tracecmd_head.c):
 * the probed address, each fetch as 64 bits, the unreadable mask. A hit
 * read before its schema has no event to be. */
static void probe_event(struct bt_decoder *d, struct tc_export *x, unsigned cpu,
			const struct wire_record *r, struct wire_ext *e)
{
	const struct bt_probe *p = bt_meta_probe(&d->meta, e->probe);
	uint8_t ev[16 + 8 * BT_PROBE_FETCH_MAX + 1];
	uint64_t v;

	if (!p)
		return;
	common(ev, BT_TC_ID_FIRST_PROBE + (unsigned)(p - d->meta.probes), cpu);
	put_le(ev + 8, d->meta.text_base + p->offset, 8);
	for (unsigned i = 0; i < p->nfetch; i++) {
		v = 0;
		if (i < e->count)
			wire_ext_value(e, &v);
		if (i < 8 && (e->faulted >> i & 1))
			v = 0;	/* unreadable: no value (the report and CTF say so) */
		put_le(ev + 16 + 8 * i, (uint64_t)wire_unzigzag(v), 8);
	}
	ev[16 + 8 * p->nfetch] = e->faulted;
	bt_tc_event(&x->cpu[cpu], ns_of(d, r->ts), ev, 16 + 8 * p->nfetch + 1);
}

/* The run's end as a print event; probe hits as their own (kprobes). */
static void outcome(struct bt_decoder *d, struct tc_export *x, unsigned cpu,
		    const struct wire_record *r)
{
	struct wire_ext e;
	uint8_t ev[16 + 80];
	char mark[64];
	size_t len;

	if (wire_ext_parse(r, &e) <= 0)
		return;
	if (e.subtype == WIRE_EXT_PROBE) {
		probe_event(d, x, cpu, r, &e);
		return;
	}
	if (e.subtype != WIRE_EXT_OUTCOME)
		return;
	common(ev, BT_TC_ID_PRINT, cpu);
	put_le(ev + 8, 0, 8);
	bt_outcome_mark(e.outcome, e.status, mark, sizeof(mark));
	snprintf((char *)ev + 16, sizeof(ev) - 16, "==== %s ====", mark);
	len = 16 + strlen((char *)ev + 16) + 1;
	bt_tc_event(&x->cpu[cpu], ns_of(d, r->ts), ev, len);
}

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	struct tc_export *x = d->user;
	uint8_t ev[24 + 1024];
	size_t len;

	x->base = d->meta.text_base ? d->meta.text_base : BT_TC_DEFAULT_BASE;
	if (bt_tc_typed_record(x->typed, d, cpu, r, &x->cpu[cpu]))
		return;		/* arguments: written with their strings */
	switch (r->kind) {
	case WIRE_REC_FUNC:
	case WIRE_REC_FUNC_CALLER:
		common(ev, BT_TC_ID_FUNCTION, cpu);
		put_le(ev + 8, func_addr(d, x, r->site), 8);
		put_le(ev + 16, r->has_caller ? x->base + r->caller * 4 : 0, 8);
		bt_tc_event(&x->cpu[cpu], ns_of(d, r->ts), ev, 24);
		break;
	case WIRE_REC_GRAPH_ENTRY:
		bt_stack_enter(bt_stack_of(&x->stacks, cpu), r->site, r->depth, r->ts);
		common(ev, BT_TC_ID_GRAPH_ENTRY, cpu);
		put_le(ev + 8, func_addr(d, x, r->site), 8);
		put_le(ev + 16, r->depth, 4);
		bt_tc_event(&x->cpu[cpu], ns_of(d, r->ts), ev, 20);
		break;
	case WIRE_REC_EXIT:
		graph_exit(d, x, cpu, r);
		bt_tc_typed_exit(x->typed, d, cpu, r, &x->cpu[cpu]);
		break;
	case WIRE_REC_EVENT:
		tracepoint(d, x, cpu, r);
		break;
	case WIRE_REC_PRINTF:
		common(ev, BT_TC_ID_PRINT, cpu);
		put_le(ev + 8, 0, 8);
		bt_fmt_printf(d, r, (char *)ev + 16, sizeof(ev) - 16);
		len = 16 + strlen((char *)ev + 16) + 1;
		bt_tc_event(&x->cpu[cpu], ns_of(d, r->ts), ev, len);
		break;
	case WIRE_REC_EXT:
		outcome(d, x, cpu, r);
		break;
	}
}

static void on_hole(struct bt_decoder *d, unsigned cpu, uint64_t events, const char *cause)
{
	struct tc_export *x = d->user;

	(void)cause;
	bt_tc_typed_flush(x->typed, d, cpu, &x->cpu[cpu]);	/* it came before the hole */
	bt_tc_lost(&x->cpu[cpu], events);
}

static const struct bt_visitor tc_visitor = {
	.record = on_record,
	.hole = on_hole,
};

static void write_file(struct tc_export *x, struct bt_decoder *d, const char *out)
{
	struct bt_tc_buf h = { 0 };
	unsigned ncpus = 0;
	uint64_t at;
	FILE *f;
	int bad;

	for (unsigned c = 0; c < BT_MAX_CPUS; c++) {
		bt_tc_finish(&x->cpu[c]);
		if (x->cpu[c].len || d->cpus_seen[c])
			ncpus = c + 1;
	}
	/* The trace's CPUs, as its metadata says, even when some sent
	 * nothing (or the trace is cut short before their blocks). */
	if (d->meta.ncpus > ncpus)
		ncpus = d->meta.ncpus < BT_MAX_CPUS ? (unsigned)d->meta.ncpus : BT_MAX_CPUS;
	ncpus = ncpus ? ncpus : 1;	/* nothing says: one */
	bt_tc_header(&h, d, x->base, ncpus, x->typed);
	at = (h.len + 16 * (uint64_t)ncpus + BT_TC_PAGE - 1) / BT_TC_PAGE * BT_TC_PAGE;
	for (unsigned c = 0; c < ncpus; c++) {	/* where each CPU's pages go */
		uint8_t pair[16];

		put_le(pair, at, 8);
		put_le(pair + 8, x->cpu[c].len, 8);
		h.p = bt_grow(h.p, &h.cap, h.len + 16, 1);
		memcpy(h.p + h.len, pair, 16);
		h.len += 16;
		at += x->cpu[c].len;
	}
	h.p = bt_grow(h.p, &h.cap, (h.len + BT_TC_PAGE - 1) / BT_TC_PAGE * BT_TC_PAGE, 1);
	memset(h.p + h.len, 0, h.cap - h.len);
	h.len = (h.len + BT_TC_PAGE - 1) / BT_TC_PAGE * BT_TC_PAGE;
	f = bt_out_open(out, "wb");
	if (!f)
		bt_die(BT_EXIT_INPUT, "cannot create %s: %s", out, strerror(errno));
	bad = fwrite(h.p, 1, h.len, f) != h.len;
	for (unsigned c = 0; c < ncpus; c++)
		bad |= bt_tc_copy(&x->cpu[c], f) != 0;
	bad |= bt_out_close(f) != 0;
	if (bad) {
		if (strcmp(out, "-"))
			remove(out);	/* no half-written file left behind */
		bt_die(BT_EXIT_INPUT, "error writing %s", out);
	}
	free(h.p);
}

int bt_export_tracecmd(const char *trace, const char *elf, const char *out)
{
	static struct bt_decoder d;
	static struct tc_export x;
	int rc;

	bt_depths_read(&x.depths, trace, elf);
	bt_tc_spill_near(out);
	bt_dec_init(&d, &tc_visitor, &x);
	bt_decode_strings = 1;	/* a char * shows its string */
	x.typed = bt_tc_typed_new();
	if (elf)
		bt_dec_use_elf(&d, elf);
	rc = bt_decode_file(&d, trace);
	x.base = d.meta.text_base ? d.meta.text_base : BT_TC_DEFAULT_BASE;
	for (unsigned c = 0; c < BT_MAX_CPUS; c++)
		bt_tc_typed_flush(x.typed, &d, c, &x.cpu[c]);
	if (!rc)
		write_file(&x, &d, out);
	for (unsigned c = 0; c < BT_MAX_CPUS; c++)
		bt_tc_free(&x.cpu[c]);
	bt_tc_typed_free(x.typed);
	x.typed = NULL;
	bt_stacks_free(&x.stacks);
	bt_depths_free(&x.depths);
	bt_dec_free(&d);
	return rc;
}
