/*
 * tools/baretrace/output/export_ctf.c: a CTF 1.8 trace directory that
 * babeltrace2 and Trace Compass read: `metadata` (TSDL, ctf_meta.c) and
 * one binary stream file `stream_N` per CPU.
 *
 * Each data block becomes one packet: a header (magic, trace UUID,
 * stream id), a context (first and last timestamp, sizes in bits, packet
 * sequence number, CPU), then one event per record, each with a header
 * of event id and 64-bit timestamp on the counter clock. Everything is
 * little-endian and byte aligned. A hole (events missing, books.c)
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

#include "../bt.h"

#define CTF_MAGIC	0xC1FC1FC1u
#define CONTEXT_AT	24	/* packet context follows the 24-byte header */

struct cpu_stream {
	FILE *f;
	uint64_t packets, last_ts;
};

struct ctf {
	const char *dir;
	uint8_t uuid[16];
	struct cpu_stream cpu[BT_MAX_CPUS];
	uint8_t *buf;		/* the packet being built */
	size_t len, cap;
	unsigned cur;		/* its CPU */
	int open;		/* a packet is being built */
	uint64_t begin_ts;
};

static void put_bytes(struct ctf *c, const void *p, size_t n)
{
	c->buf = bt_grow(c->buf, &c->cap, c->len + n, 1);
	memcpy(c->buf + c->len, p, n);
	c->len += n;
}

static void put_u64_at(struct ctf *c, size_t at, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		c->buf[at + i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(struct ctf *c, uint64_t v)
{
	c->buf = bt_grow(c->buf, &c->cap, c->len + 8, 1);
	c->len += 8;
	put_u64_at(c, c->len - 8, v);
}

static void put_u32(struct ctf *c, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	put_bytes(c, b, 4);
}

/* A CTF string ends at its NUL, so NULs inside become '?'. */
static void put_str(struct ctf *c, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		put_bytes(c, s[i] ? &s[i] : "?", 1);
	put_bytes(c, "", 1);
}

static void put_cstr(struct ctf *c, const char *s)
{
	put_str(c, s, strlen(s));
}

static void event_header(struct ctf *c, uint32_t id, uint64_t ts)
{
	struct cpu_stream *s = &c->cpu[c->cur];

	if (ts < s->last_ts)
		ts = s->last_ts;
	s->last_ts = ts;
	put_u32(c, id);
	put_u64(c, ts);
}

static void packet_open(struct ctf *c, unsigned cpu, uint64_t base_ts)
{
	struct cpu_stream *s = &c->cpu[cpu];

	if (!s->f) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/stream_%u", c->dir, cpu);
		s->f = fopen(path, "wb");
		if (!s->f)
			bt_die(BT_EXIT_INPUT, "cannot create %s: %s", path, strerror(errno));
	}
	c->cur = cpu;
	c->open = 1;
	c->len = 0;
	put_u32(c, CTF_MAGIC);
	put_bytes(c, c->uuid, 16);
	put_u32(c, 0);			/* stream id */
	for (int i = 0; i < 5; i++)	/* begin, end, content, packet size, seq */
		put_u64(c, 0);
	put_u32(c, cpu);
	c->begin_ts = base_ts > s->last_ts ? base_ts : s->last_ts;
}

static void packet_close(struct ctf *c)
{
	struct cpu_stream *s = &c->cpu[c->cur];

	put_u64_at(c, CONTEXT_AT, c->begin_ts);
	put_u64_at(c, CONTEXT_AT + 8, s->last_ts > c->begin_ts ? s->last_ts : c->begin_ts);
	put_u64_at(c, CONTEXT_AT + 16, (uint64_t)c->len * 8);
	put_u64_at(c, CONTEXT_AT + 24, (uint64_t)c->len * 8);
	put_u64_at(c, CONTEXT_AT + 32, s->packets++);
	if (fwrite(c->buf, 1, c->len, s->f) != c->len)
		bt_die(BT_EXIT_INPUT, "error writing CTF stream %u in %s", c->cur, c->dir);
	c->open = 0;
}

static void block_begin(struct bt_decoder *d, const struct wire_frame *f, uint64_t base_ts)
{
	packet_open(d->user, f->cpu, base_ts);
}

static void block_end(struct bt_decoder *d, const struct wire_frame *f)
{
	(void)f;
	packet_close(d->user);
}

/* Tracepoint fields: integers widen to 64 bits, strings stay strings. */
static void tracepoint(struct bt_decoder *d, struct ctf *c, const struct wire_record *r)
{
	const struct bt_schema *sc = bt_meta_schema(&d->meta, r->id);
	const uint8_t *p = r->data, *end = r->data + r->data_len;

	event_header(c, BT_CTF_FIRST_TRACEPOINT + (uint32_t)(sc - d->meta.schemas), r->ts);
	for (unsigned i = 0; i < sc->nfields; i++) {
		uint64_t u = 0;
		int n = wire_varint_get(p, (size_t)(end - p), &u);

		if (n < 0)	/* the record decoder checked this */
			bt_die(BT_EXIT_INPUT, "internal error: tracepoint fields");
		p += n;
		if (sc->types[i] == WIRE_FIELD_STRING) {
			put_str(c, (const char *)p, (size_t)u);
			p += u;
		} else {
			put_u64(c, (uint64_t)wire_unzigzag(u));
		}
	}
}

/* Extension records: arguments, stack traces (names joined innermost
 * first, and the raw return offsets), fired triggers. */
static void extension(struct bt_decoder *d, struct ctf *c, const struct wire_record *r)
{
	struct wire_ext x, walk;
	char nb[32], text[1024];
	size_t len = 0;
	uint64_t v;

	wire_ext_parse(r, &x);	/* the decoder passes only records that parse */
	walk = x;
	if (x.subtype == WIRE_EXT_TRIGGER) {
		event_header(c, BT_CTF_TRIGGER, r->ts);
		put_cstr(c, bt_func_name(d, x.site, nb, sizeof(nb)));
		put_cstr(c, bt_trigger_action(x.action, text, sizeof(text)));
		put_bytes(c, &x.action, 1);
		return;
	}
	if (x.subtype == WIRE_EXT_ARGS) {
		event_header(c, BT_CTF_FUNC_ARGS, r->ts);
		put_cstr(c, bt_func_name(d, x.site, nb, sizeof(nb)));
	} else {
		event_header(c, BT_CTF_STACK_TRACE, r->ts);
		text[0] = 0;
		for (unsigned i = 0; i < x.count && !wire_ext_value(&walk, &v); i++) {
			int n = snprintf(text + len, sizeof(text) - len, "%s%s", i ? " <- " : "",
					 bt_caller_name(&d->syms, v, nb, sizeof(nb)));

			len += n > 0 && (size_t)n < sizeof(text) - len ? (size_t)n : 0;
		}
		put_cstr(c, text);
		walk = x;
	}
	put_bytes(c, &(uint8_t){ (uint8_t)x.count }, 1);
	for (unsigned i = 0; i < x.count && !wire_ext_value(&walk, &v); i++)
		put_u64(c, x.subtype == WIRE_EXT_ARGS ? (uint64_t)wire_unzigzag(v) : v * 4);
}

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	struct ctf *c = d->user;
	char nb[32], cb[32], text[1024];

	(void)cpu;
	switch (r->kind) {
	case WIRE_REC_EXT:
		extension(d, c, r);
		break;
	case WIRE_REC_FUNC:
	case WIRE_REC_FUNC_CALLER:
		event_header(c, BT_CTF_FUNC, r->ts);
		put_cstr(c, bt_func_name(d, r->site, nb, sizeof(nb)));
		put_cstr(c, r->has_caller ? bt_caller_name(&d->syms, r->caller, cb, sizeof(cb)) : "?");
		put_u64(c, r->site);
		put_u64(c, r->has_caller ? r->caller * 4 : 0);
		break;
	case WIRE_REC_GRAPH_ENTRY:
		event_header(c, BT_CTF_GRAPH_ENTRY, r->ts);
		put_cstr(c, bt_func_name(d, r->site, nb, sizeof(nb)));
		put_u64(c, r->depth);
		break;
	case WIRE_REC_EXIT:
		event_header(c, BT_CTF_GRAPH_EXIT, r->ts);
		put_cstr(c, bt_func_name(d, r->site, nb, sizeof(nb)));
		put_u64(c, r->duration);
		put_bytes(c, &(uint8_t){ r->flags & WIRE_EXIT_HAS_RETVAL }, 1);
		put_u64(c, (uint64_t)r->retval);
		break;
	case WIRE_REC_EVENT:
		tracepoint(d, c, r);
		break;
	case WIRE_REC_PRINTF:
		bt_fmt_printf(d, r, text, sizeof(text));
		event_header(c, BT_CTF_PRINTF, r->ts);
		put_cstr(c, text);
		break;
	}
}

/* Inside the packet of the block after the hole, or in one of its own. */
static void on_hole(struct bt_decoder *d, unsigned cpu, uint64_t events, const char *cause)
{
	struct ctf *c = d->user;
	int alone = !c->open || c->cur != cpu;

	(void)cause;
	if (alone)
		packet_open(c, cpu, d->books[cpu].ts);
	event_header(c, BT_CTF_LOST_EVENTS, c->begin_ts);
	put_u64(c, events);
	if (alone)
		packet_close(c);
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
	static struct ctf c;
	char path[4096];
	FILE *f;
	int rc;

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
