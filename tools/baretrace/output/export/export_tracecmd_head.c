/*
 * tools/baretrace/output/export/export_tracecmd_head.c: the header of a
 * trace-cmd.dat version 6 file (trace-cmd.dat.v6(5)), everything before
 * the per-CPU ring-buffer pages: magic and version, the page and event
 * header descriptions, the event formats (ftrace's own events, then one
 * system per tracepoint subsystem), kallsyms, printk formats, cmdlines,
 * the CPU count, an empty option list and "flyrecord".
 *
 * Format files are text in the layout of tracefs' events/SYS/EV/format:
 * the four common fields every event starts with, then its own fields
 * with offset, size and signedness, then "print fmt:" for readers that
 * have no plugin for the event. The layouts here and the bytes
 * export_tracecmd.c writes must agree: ftrace's events are written at the
 * offsets listed below, tracepoints at bt_tc_layout's for both.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../decode/symtab.h"
#include "../render/render.h"

#include "bt_tracecmd.h"

static void put(struct bt_tc_buf *b, const void *p, size_t n)
{
	b->p = bt_grow(b->p, &b->cap, b->len + n, 1);
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put_le(struct bt_tc_buf *b, uint64_t v, unsigned n)
{
	uint8_t x[8];

	for (unsigned i = 0; i < n; i++)
		x[i] = (uint8_t)(v >> (8 * i));
	put(b, x, n);
}

/* A section of text after its size in 'size_bytes' bytes. */
static void put_sized(struct bt_tc_buf *b, const struct bt_tc_buf *text, unsigned size_bytes)
{
	put_le(b, text->len, size_bytes);
	put(b, text->p, text->len);
}

static void ftrace_formats(struct bt_tc_buf *b, struct bt_tc_buf *t)
{
	static const struct bt_tc_field func[] = {
		{ "unsigned long ip", 8, 8, 0 }, { "unsigned long parent_ip", 16, 8, 0 },
	};
	static const struct bt_tc_field entry[] = {
		{ "unsigned long func", 8, 8, 0 }, { "int depth", 16, 4, 1 },
	};
	static const struct bt_tc_field exit[] = {
		{ "unsigned long func", 8, 8, 0 }, { "int depth", 16, 4, 1 },
		{ "unsigned int overrun", 20, 4, 0 },
		{ "unsigned long long calltime", 24, 8, 0 },
		{ "unsigned long long rettime", 32, 8, 0 },
	};
	static const struct bt_tc_field print[] = {
		{ "unsigned long ip", 8, 8, 0 }, { "char buf[]", 16, 0, 0 },
	};

	put_le(b, 4, 4);
	bt_tc_format_text(t, "function", BT_TC_ID_FUNCTION, func, 2,
		    "\" %ps <-- %ps\", (void *)REC->ip, (void *)REC->parent_ip");
	put_sized(b, t, 8);
	bt_tc_format_text(t, "funcgraph_entry", BT_TC_ID_GRAPH_ENTRY, entry, 2,
		    "\"--> %ps (%d)\", (void *)REC->func, REC->depth");
	put_sized(b, t, 8);
	bt_tc_format_text(t, "funcgraph_exit", BT_TC_ID_GRAPH_EXIT, exit, 5,
		    "\"<-- %ps (%d) (start: %llx  end: %llx) over: %d\", (void *)REC->func, "
		    "REC->depth, REC->calltime, REC->rettime, REC->depth");
	put_sized(b, t, 8);
	bt_tc_format_text(t, "print", BT_TC_ID_PRINT, print, 2, "\"%ps: %s\", (void *)REC->ip, REC->buf");
	put_sized(b, t, 8);
}

/*
 * "irq:entry" -> system "irq", event "irq_entry": trace-cmd report prints
 * the event name alone, so it keeps the subsystem (as Linux's own events
 * do: irq:irq_handler_entry). No ':' -> system "baretrace", the name as
 * it is. Anything but letters, digits and '_' becomes '_'.
 */
static void split_name(const char *name, char *sys, char *ev, size_t n)
{
	const char *colon = strchr(name, ':');

	if (colon && colon > name) {
		snprintf(sys, n, "%.*s", (int)(colon - name), name);
		snprintf(ev, n, "%.*s_%s", (int)(colon - name), name, colon + 1);
	} else {
		snprintf(sys, n, "baretrace");
		snprintf(ev, n, "%s", colon ? colon + 1 : name);
	}
	for (char *p = sys; *p; p++)
		*p = isalnum((unsigned char)*p) ? *p : '_';
	for (char *p = ev; *p; p++)
		*p = isalnum((unsigned char)*p) ? *p : '_';
}

/* One tracepoint's format: integers as 64-bit fields from offset 8 in
 * field order, then a 4-byte __data_loc word per string (bt_tc_layout). */
static void tracepoint_format(struct bt_tc_buf *t, const struct bt_schema *sc, unsigned id,
			      const char *ev)
{
	struct bt_tc_field f[BT_TC_FIELDS];
	unsigned off[BT_TC_FIELDS], n = sc->nfields;
	static char decl[BT_TC_FIELDS][160];
	struct bt_tc_buf print = { 0 }, args = { 0 };

	bt_tc_layout(sc, off, NULL);
	bt_tc_printf(&print, "\"");
	bt_tc_printf(&args, "%s", "");	/* a terminated string even with no fields */
	for (unsigned i = 0; i < n; i++) {
		const struct bt_field *x = &sc->fields[i];
		int str = x->type == WIRE_FIELD_STRING;
		int sgn = x->type >= WIRE_FIELD_S8 && x->type <= WIRE_FIELD_S64;
		int hex = x->type == WIRE_FIELD_PTR || (x->format && strchr(x->format, 'x'));

		snprintf(decl[i], sizeof(decl[i]), "%s %s",
			 str ? "__data_loc char[]" : sgn ? "s64" : "u64", x->name);
		f[i] = (struct bt_tc_field){ decl[i], off[i], str ? 4 : 8, sgn };
		bt_tc_printf(&print, "%s%s=%s", i ? " " : "", x->name,
			    str ? "%s" : hex ? "0x%llx" : sgn ? "%lld" : "%llu");
		if (str)
			bt_tc_printf(&args, ", __get_str(%s)", x->name);
		else
			bt_tc_printf(&args, ", REC->%s", x->name);
	}
	bt_tc_printf(&print, "\"%s", (char *)args.p);
	bt_tc_format_text(t, ev, id, f, n, (char *)print.p);
	free(print.p);
	free(args.p);
}

/* A probe as Linux's kprobe events lay one out: __probe_ip at 8, then
 * each fetch as a 64-bit field, printed "(ip) name=value ...", then
 * __unreadable (the record's mask: a fetch with its bit set prints its
 * 0 as "0 (unreadable)"). */
static void probe_format(struct bt_tc_buf *t, const struct bt_probe *p, unsigned id)
{
	struct bt_tc_field f[2 + BT_PROBE_FETCH_MAX];
	static char decl[1 + BT_PROBE_FETCH_MAX][160];
	struct bt_tc_buf print = { 0 }, args = { 0 };
	char ev[128], names[BT_PROBE_FETCH_MAX][BT_PROBE_FIELD_MAX];

	snprintf(ev, sizeof(ev), "%s", p->name);
	for (char *c = ev; *c; c++)
		*c = isalnum((unsigned char)*c) ? *c : '_';
	f[0] = (struct bt_tc_field){ "unsigned long __probe_ip", 8, 8, 0 };
	bt_tc_printf(&print, "\"(%%lx)");
	bt_tc_printf(&args, ", REC->__probe_ip");
	bt_probe_field_names(p, names);
	for (unsigned i = 0; i < p->nfetch; i++) {
		uint8_t ty = p->type[i];
		int sgn = ty >= WIRE_FIELD_S8 && ty <= WIRE_FIELD_S64;
		int hex = ty == BT_PROBE_X32 || ty == BT_PROBE_X64;
		const char *name = names[i];

		snprintf(decl[1 + i], sizeof(decl[1 + i]), "%s %.72s", sgn ? "s64" : "u64", name);
		f[1 + i] = (struct bt_tc_field){ decl[1 + i], 16 + 8 * i, 8, sgn };
		bt_tc_printf(&print, " %s=%s%%s", name, hex ? "0x%llx" : sgn ? "%lld" : "%llu");
		bt_tc_printf(&args, ", REC->%s, REC->__unreadable & %u ? \" (unreadable)\" : \"\"",
			     name, 1u << i);
	}
	f[1 + p->nfetch] = (struct bt_tc_field){ "unsigned char __unreadable",
						 16 + 8 * p->nfetch, 1, 0 };
	bt_tc_printf(&print, "\"%s", (char *)args.p);
	bt_tc_format_text(t, ev, id, f, 2 + p->nfetch, (char *)print.p);
	free(print.p);
	free(args.p);
}

/* The typed arguments first, as system "typed" (export_tracecmd_typed.c),
 * then the probes, as system "kprobes", then the live schemas, grouped by
 * system in order of first appearance. */
static void event_systems(struct bt_tc_buf *b, struct bt_tc_buf *t, const struct bt_meta *m,
			  const struct bt_tc_typed *typed)
{
	unsigned ntyped = bt_tc_typed_count(typed);
	char (*sys)[128] = calloc(m->nschemas + 1, sizeof(*sys));
	char ev[128], other[128];
	size_t nsys = 0;

	if (!sys)
		bt_die(BT_EXIT_INPUT, "out of memory");
	for (size_t i = 0; i < m->nschemas; i++) {	/* the systems */
		size_t k = 0;

		if (m->schemas[i].replaced)
			continue;
		split_name(m->schemas[i].name, sys[nsys], ev, sizeof(ev));
		while (k < nsys && strcmp(sys[k], sys[nsys]))
			k++;
		nsys += k == nsys;
	}
	put_le(b, nsys + (m->nprobes > 0) + (ntyped > 0), 4);
	if (ntyped) {
		put(b, "typed", 6);
		put_le(b, ntyped, 4);
		for (unsigned i = 0; i < ntyped; i++) {
			bt_tc_typed_format(typed, i, t);
			put_sized(b, t, 8);
		}
	}
	if (m->nprobes) {
		put(b, "kprobes", 8);
		put_le(b, m->nprobes, 4);
		for (size_t i = 0; i < m->nprobes; i++) {
			probe_format(t, &m->probes[i], BT_TC_ID_FIRST_PROBE + (unsigned)i);
			put_sized(b, t, 8);
		}
	}
	for (size_t k = 0; k < nsys; k++) {
		uint32_t count = 0;

		for (int pass = 0; pass < 2; pass++) {	/* count, then write */
			if (pass) {
				put(b, sys[k], strlen(sys[k]) + 1);
				put_le(b, count, 4);
			}
			for (size_t i = 0; i < m->nschemas; i++) {
				if (m->schemas[i].replaced)
					continue;
				split_name(m->schemas[i].name, other, ev, sizeof(ev));
				if (strcmp(other, sys[k]))
					continue;
				count += !pass;
				if (pass) {
					tracepoint_format(t, &m->schemas[i],
							  BT_TC_ID_FIRST_TRACEPOINT + (unsigned)i, ev);
					put_sized(b, t, 8);
				}
			}
		}
	}
	free(sys);
}

/*
 * A name as one kallsyms word: readers split the line at white space, so
 * a demangled C++ name's spaces ("(anonymous namespace)", "unsigned int",
 * " const") become '_', as in the folded export; '[' (a module's name
 * follows there) becomes '{'.
 */
static void sym_word(struct bt_tc_buf *t, const char *name)
{
	for (const char *p = name; *p; p++) {
		char c = *p == ' ' || (unsigned char)*p < 0x20 ? '_' : *p == '[' ? '{' : *p;

		put(t, &c, 1);
	}
}

/*
 * /proc/kallsyms lines: every function the tables name, at base + offset.
 * Readers take an address to the nearest symbol below it, with no end, so
 * "_etext" after the last function stops a caller beyond it from being
 * taken as in it (and lets one inside the last function resolve at all).
 */
static void kallsyms(struct bt_tc_buf *t, struct bt_symtab *s, uint64_t base)
{
	const struct bt_sym *v = s->from_elf ? s->by_addr : s->by_site;
	size_t n = s->from_elf ? s->naddr : s->nsites;
	uint64_t end = 0;

	t->len = 0;
	for (size_t i = 0; i < n; i++) {
		if (!v[i].name)
			continue;
		bt_tc_printf(t, "%016llx T ", (unsigned long long)(base + v[i].start));
		sym_word(t, v[i].name);
		put(t, "\n", 1);
		end = v[i].start + v[i].size > end ? v[i].start + v[i].size : end;
	}
	if (end)
		bt_tc_printf(t, "%016llx T _etext\n", (unsigned long long)(base + end));
}

void bt_tc_header(struct bt_tc_buf *b, struct bt_decoder *d, uint64_t base, unsigned ncpus,
		  const struct bt_tc_typed *typed)
{
	struct bt_tc_buf t = { 0 };

	put(b, "\x17\x08\x44tracing6", 11);
	put(b, "", 1);
	put(b, "\0\x08", 2);			/* little-endian, 8-byte long */
	put_le(b, BT_TC_PAGE, 4);
	put(b, "header_page", 12);
	bt_tc_printf(&t, "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		     "\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
		     "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		     "\tfield: char data;\toffset:16;\tsize:%u;\tsigned:1;\n", BT_TC_PAGE - 16);
	put_sized(b, &t, 8);
	put(b, "header_event", 13);
	t.len = 0;
	bt_tc_printf(&t, "# compressed entry header\n\ttype_len    :    5 bits\n"
		     "\ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n"
		     "\tpadding     : type == 29\n\ttime_extend : type == 30\n"
		     "\ttime_stamp : type == 31\n\tdata max type_len  == 28\n");
	put_sized(b, &t, 8);
	ftrace_formats(b, &t);
	event_systems(b, &t, &d->meta, typed);
	kallsyms(&t, &d->syms, base);
	put_sized(b, &t, 4);
	put_le(b, 0, 4);			/* no printk formats */
	t.len = 0;
	for (unsigned c = 0; c < ncpus; c++)
		bt_tc_printf(&t, "%u cpu%u\n", c + 1, c);
	put_sized(b, &t, 8);
	put_le(b, ncpus, 4);
	put(b, "options  ", 10);
	put_le(b, 0, 2);			/* no options */
	put(b, "flyrecord", 10);
	free(t.p);
}
