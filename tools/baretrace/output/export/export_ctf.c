/*
 * tools/baretrace/output/export/export_ctf.c: a CTF 1.8 trace directory that
 * babeltrace2 and Trace Compass read: `metadata` (TSDL, ctf_meta.c) and
 * one binary stream file `stream_N` per CPU.
 *
 * Each data block becomes one packet (ctf_packet.c): a header (magic,
 * trace UUID, stream id), a context (first and last timestamp, sizes in
 * bits, packet sequence number, CPU), then one event per record, each
 * with a header of event id and 64-bit timestamp, and a context that
 * LTTng-UST traces carry (vpid 1, vtid = CPU + 1, procname "baretrace"):
 * Trace Compass's call-stack analysis keys its threads on them.
 * Timestamps and durations are nanoseconds (ctf_meta.c describes the
 * clock), converted from the counter with the trace's frequency.
 *
 * Graph entries and exits are lttng_ust_cyg_profile:func_entry and
 * func_exit, shaped as LTTng-UST's -finstrument-functions helper writes
 * them: addr is the function's address (the image's _text plus its
 * offset; the site number when the symbol is unknown), call_site 0
 * (graph records carry no caller); func and the rest follow. Function
 * entries (no exit to pair) are "function" events. A hole (events missing, books.c)
 * becomes a lost_events event with their count, at the start of the
 * packet after it; the hole after a CPU's last block gets a packet of
 * its own.
 *
 * CTF readers need time to move forward within a stream; a timestamp
 * that steps back (a target restart) is raised to the previous one.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../../../wire/wire.h"
#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../decode/symtab.h"
#include "../../decode/units.h"
#include "../render/render.h"

#include "bt_tracecmd.h"
#include "export.h"

/* A function's address for addr fields (see the head of the file). */
static uint64_t site_addr(struct bt_decoder *d, uint64_t site)
{
	const struct bt_symtab *t = &d->syms;

	if (site < t->nsites && t->by_site[site].name)
		return d->meta.text_base + t->by_site[site].start;
	return site;
}

static void block_begin(struct bt_decoder *d, const struct wire_frame *f, uint64_t base_ts)
{
	bt_ctf_packet_open(d->user, f->cpu, bt_ctf_ns(d->user, base_ts));
}

static void block_end(struct bt_decoder *d, const struct wire_frame *f)
{
	(void)f;
	bt_ctf_packet_close(d->user);
}

/* Tracepoint fields: integers widen to 64 bits, strings stay strings. */
static void tracepoint(struct bt_decoder *d, struct bt_ctf *c, const struct wire_record *r)
{
	const struct bt_schema *sc = bt_meta_schema(&d->meta, r->id);
	const uint8_t *p = r->data, *end = r->data + r->data_len;

	bt_ctf_event(c, BT_CTF_FIRST_TRACEPOINT + (uint32_t)(sc - d->meta.schemas), bt_ctf_ns(c, r->ts));
	for (unsigned i = 0; i < sc->nfields; i++) {
		uint64_t u = 0;
		int n = wire_varint_get(p, (size_t)(end - p), &u);

		if (n < 0)	/* the record decoder checked this */
			bt_die(BT_EXIT_INPUT, "internal error: tracepoint fields");
		p += n;
		if (sc->types[i] == WIRE_FIELD_STRING) {
			bt_ctf_put_str(c, (const char *)p, (size_t)u);
			p += u;
		} else {
			bt_ctf_put_u64(c, (uint64_t)wire_unzigzag(u));
		}
	}
}

/* Extension records: arguments, stack traces (names joined innermost
 * first, and the raw return offsets), fired triggers, the run's end. */
static void extension(struct bt_decoder *d, struct bt_ctf *c, const struct wire_record *r)
{
	struct wire_ext x, walk;
	char nb[32], text[1024];
	size_t len = 0;
	uint64_t v;

	wire_ext_parse(r, &x);	/* the decoder passes only records that parse */
	walk = x;
	if (x.subtype == WIRE_EXT_PROBE) {	/* its class: the schema known now */
		const struct bt_probe *p = bt_meta_probe(&d->meta, x.probe);

		if (!p)
			return;	/* a hit read before its schema has no class */
		bt_ctf_event(c, BT_CTF_FIRST_PROBE + (uint32_t)(p - d->meta.probes),
			     bt_ctf_ns(c, r->ts));
		bt_ctf_put_bytes(c, &x.faulted, 1);
		for (unsigned i = 0; i < p->nfetch; i++) {
			v = 0;
			if (i < x.count)
				wire_ext_value(&walk, &v);
			if (i < 8 && (x.faulted >> i & 1))
				v = 0;	/* unreadable: the mask says so, no value */
			bt_ctf_put_u64(c, (uint64_t)wire_unzigzag(v));
		}
		return;
	}
	if (x.subtype == WIRE_EXT_OUTCOME) {	/* where the run ended */
		bt_ctf_event(c, BT_CTF_OUTCOME, bt_ctf_ns(c, r->ts));
		bt_ctf_put_cstr(c, bt_outcome_word(x.outcome, text, sizeof(text)));
		bt_ctf_put_u64(c, (uint64_t)x.status);
		return;
	}
	if (x.subtype == WIRE_EXT_TRIGGER) {
		bt_ctf_event(c, BT_CTF_TRIGGER, bt_ctf_ns(c, r->ts));
		bt_ctf_put_cstr(c, bt_func_name(d, x.site, nb, sizeof(nb)));
		bt_ctf_put_cstr(c, bt_trigger_action(x.action, text, sizeof(text)));
		bt_ctf_put_bytes(c, &x.action, 1);
		return;
	}
	if (x.subtype == WIRE_EXT_ARGS) {
		bt_ctf_event(c, BT_CTF_FUNC_ARGS, bt_ctf_ns(c, r->ts));
		bt_ctf_put_cstr(c, bt_func_name(d, x.site, nb, sizeof(nb)));
	} else {
		bt_ctf_event(c, BT_CTF_STACK_TRACE, bt_ctf_ns(c, r->ts));
		text[0] = 0;
		for (unsigned i = 0; i < x.count && !wire_ext_value(&walk, &v); i++) {
			int n = snprintf(text + len, sizeof(text) - len, "%s%s", i ? " <- " : "",
					 bt_caller_name(&d->syms, v, nb, sizeof(nb)));

			len += n > 0 && (size_t)n < sizeof(text) - len ? (size_t)n : 0;
		}
		bt_ctf_put_cstr(c, text);
		walk = x;
	}
	bt_ctf_put_bytes(c, &(uint8_t){ (uint8_t)x.count }, 1);
	for (unsigned i = 0; i < x.count && !wire_ext_value(&walk, &v); i++)
		bt_ctf_put_u64(c, x.subtype == WIRE_EXT_ARGS ? (uint64_t)wire_unzigzag(v) : v * 4);
	if (x.subtype == WIRE_EXT_ARGS) {	/* by name and type (typed.c); "-" when raw */
		int64_t args[BT_ARGS_SHOWN];

		if (bt_typed_args(d, x.site, args, bt_ext_args(&x, args, BT_ARGS_SHOWN), NULL, text,
				  sizeof(text)) || !text[0])
			snprintf(text, sizeof(text), "-");
		bt_ctf_put_cstr(c, text);
	}
}

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	struct bt_ctf *c = d->user;
	char nb[32], cb[32], text[1024];
	int typed;

	(void)cpu;
	switch (r->kind) {
	case WIRE_REC_EXT:
		extension(d, c, r);
		break;
	case WIRE_REC_FUNC:
	case WIRE_REC_FUNC_CALLER:
		bt_ctf_event(c, BT_CTF_FUNC, bt_ctf_ns(c, r->ts));
		bt_ctf_put_cstr(c, bt_func_name(d, r->site, nb, sizeof(nb)));
		bt_ctf_put_cstr(c, r->has_caller ? bt_caller_name(&d->syms, r->caller, cb, sizeof(cb)) : "?");
		bt_ctf_put_u64(c, r->site);
		bt_ctf_put_u64(c, r->has_caller ? r->caller * 4 : 0);
		break;
	case WIRE_REC_GRAPH_ENTRY:
		bt_ctf_event(c, BT_CTF_GRAPH_ENTRY, bt_ctf_ns(c, r->ts));
		bt_ctf_put_u64(c, site_addr(d, r->site));
		bt_ctf_put_u64(c, 0);
		bt_ctf_put_cstr(c, bt_func_name(d, r->site, nb, sizeof(nb)));
		bt_ctf_put_u64(c, r->depth);
		break;
	case WIRE_REC_EXIT:
		bt_ctf_event(c, BT_CTF_GRAPH_EXIT, bt_ctf_ns(c, r->ts));
		bt_ctf_put_u64(c, site_addr(d, r->site));
		bt_ctf_put_u64(c, 0);
		bt_ctf_put_cstr(c, bt_func_name(d, r->site, nb, sizeof(nb)));
		bt_ctf_put_u64(c, bt_ticks_ns(r->duration, bt_freq(d)));
		bt_ctf_put_bytes(c, &(uint8_t){ r->flags & WIRE_EXIT_HAS_RETVAL }, 1);
		bt_ctf_put_u64(c, (uint64_t)r->retval);
		/*
		 * By its type (typed.c): "void" for a function that returns
		 * nothing, "-" when raw. Never empty: babeltrace2 2.0.4 shows
		 * an empty string field as an earlier event's value.
		 */
		typed = (r->flags & WIRE_EXIT_HAS_RETVAL) ?
			bt_typed_retval(d, r->site, r->retval, text, sizeof(text)) : -1;
		bt_ctf_put_cstr(c, typed > 0 ? text : typed ? "-" : "void");
		break;
	case WIRE_REC_EVENT:
		tracepoint(d, c, r);
		break;
	case WIRE_REC_PRINTF:
		bt_fmt_printf(d, r, text, sizeof(text));
		bt_ctf_event(c, BT_CTF_PRINTF, bt_ctf_ns(c, r->ts));
		bt_ctf_put_cstr(c, text);
		break;
	}
}

/* Inside the packet of the block after the hole, or in one of its own. */
static void on_hole(struct bt_decoder *d, unsigned cpu, uint64_t events, const char *cause)
{
	struct bt_ctf *c = d->user;
	int alone = !c->open || c->cur != cpu;

	(void)cause;
	if (alone)
		bt_ctf_packet_open(c, cpu, bt_ctf_ns(c, d->books[cpu].ts));
	bt_ctf_event(c, BT_CTF_LOST_EVENTS, c->begin_ts);
	bt_ctf_put_u64(c, events);
	if (alone)
		bt_ctf_packet_close(c);
}

/* Creates the directory, or empties it of a previous export's files. */
static void prepare_dir(const char *dir)
{
	DIR *dp;
	struct dirent *e;

	if (mkdir(dir, 0777) && errno != EEXIST)
		bt_die(BT_EXIT_INPUT, "cannot create directory %s: %s", dir, strerror(errno));
	dp = opendir(dir);
	if (!dp)
		bt_die(BT_EXIT_INPUT, "%s is not a directory", dir);
	while ((e = readdir(dp))) {
		char path[4096];

		if (strcmp(e->d_name, "metadata") && strncmp(e->d_name, "stream_", 7))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		remove(path);
	}
	closedir(dp);
}

static const struct bt_visitor ctf_visitor = {
	.record = on_record,
	.hole = on_hole,
	.block_begin = block_begin,
	.block_end = block_end,
};

int bt_export_ctf(const char *trace, const char *elf, const char *out)
{
	static struct bt_decoder d;
	static struct bt_ctf c;
	char path[4096];
	FILE *f;
	int rc;

	if (!strcmp(out, "-"))
		bt_die(BT_EXIT_USAGE, "ctf writes a directory: -o DIR, not - (standard output)");
	c.d = &d;
	c.dir = out;
	bt_ctf_uuid(trace, c.uuid);
	bt_dec_init(&d, &ctf_visitor, &c);
	if (elf)
		bt_dec_use_elf(&d, elf);
	prepare_dir(out);
	rc = bt_decode_file(&d, trace);
	for (unsigned i = 0; i < BT_MAX_CPUS; i++)
		if (c.cpu[i].f && fclose(c.cpu[i].f))
			bt_die(BT_EXIT_INPUT, "error writing CTF stream %u in %s", i, out);
	if (rc) {
		prepare_dir(out);	/* no half-written trace left behind */
		bt_dec_free(&d);
		return rc;
	}
	snprintf(path, sizeof(path), "%s/metadata", out);
	f = fopen(path, "w");
	if (!f)
		bt_die(BT_EXIT_INPUT, "cannot create %s: %s", path, strerror(errno));
	bt_ctf_metadata(f, &d, c.uuid);
	if (fclose(f))
		bt_die(BT_EXIT_INPUT, "error writing %s", path);
	free(c.buf);
	bt_dec_free(&d);
	return rc;
}
