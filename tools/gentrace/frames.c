/*
 * tools/gentrace/frames.c: gentrace's wire frames: the length-prefixed
 * frame, the metadata, the symbol dumps (so no ELF is needed) and the
 * data blocks, cut at BLOCK_BODY bytes of records as the target's ring
 * cuts them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../wire/wire_syms.h"
#include "gentrace.h"

#define TEXT_BASE	0x40080000ull
#define FREQ		62500000ull	/* virt's generic timer */

FILE *out;
uint64_t nsites = NSITES;
uint32_t image_hash, have_hash;
int cxx_names;
static uint64_t data_seq[MAX_CPUS], meta_seq, syms_seq;

static const char *const part1[] = {
	"uart", "gic", "timer", "sched", "mm", "vfs", "net", "crc", "aes", "sha256",
	"json", "lzo", "fat", "sd", "usb", "eth", "ip", "tcp", "sensor", "motor",
};
static const char *const part2[] = {
	"read", "write", "init", "poll", "update", "parse", "encode", "decode",
	"alloc", "free", "lookup", "insert", "flush", "step", "handle", "check",
	"put", "get", "start", "stop", "compute", "scan", "copy", "verify",
};

void put_frame(unsigned type, unsigned cpu, uint64_t seq, const uint8_t *body,
	       size_t len)
{
	static uint8_t payload[WIRE_MAX_PAYLOAD];
	size_t n = wire_frame_build(payload, sizeof(payload), type, cpu, seq, body, len);
	uint8_t l[4] = { (uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16), (uint8_t)(n >> 24) };

	if (!n || fwrite(l, 1, 4, out) != 4 || fwrite(payload, 1, n, out) != n) {
		fprintf(stderr, "gentrace: cannot write a frame\n");
		exit(1);
	}
}

void put_meta(unsigned ncpus, unsigned version)
{
	uint8_t body[256];
	struct wire_out o;

	wire_out_init(&o, body, sizeof(body));
	wire_out_varint(&o, WIRE_META_VERSION);
	wire_out_varint(&o, version);
	if (have_hash) {
		uint8_t h[4] = { (uint8_t)image_hash, (uint8_t)(image_hash >> 8),
				 (uint8_t)(image_hash >> 16), (uint8_t)(image_hash >> 24) };

		wire_out_varint(&o, WIRE_META_IMAGE_HASH);
		wire_out_bytes(&o, h, 4);
	}
	wire_out_varint(&o, WIRE_META_FREQ);
	wire_out_varint(&o, FREQ);
	wire_out_varint(&o, WIRE_META_NCPUS);
	wire_out_varint(&o, ncpus);
	wire_out_varint(&o, WIRE_META_NSITES);
	wire_out_varint(&o, nsites);
	wire_out_varint(&o, WIRE_META_TEXT_BASE);
	wire_out_varint(&o, TEXT_BASE);
	wire_out_varint(&o, WIRE_META_APP_NAME);
	wire_out_str(&o, "bench-host", 10);
	put_frame(WIRE_FRAME_META, 0, meta_seq++, body, o.len);
}

/* Site i's function: "sd_decode_17"; sites are 64 bytes apart. With
 * cxx_names, sites not a multiple of 4 have mangled C++ names instead. */
static int site_name(char *name, size_t size, unsigned i)
{
	const char *p = part1[i % (sizeof(part1) / sizeof(part1[0]))];
	const char *q = part2[(i / 7) % (sizeof(part2) / sizeof(part2[0]))];
	char id[40];
	int n = snprintf(id, sizeof(id), "%s_%u", q, i);

	if (!cxx_names || i % 4 == 0)
		return snprintf(name, size, "%s", id);
	if (i % 4 == 1)		/* (anonymous namespace)::uart::read_1() */
		return snprintf(name, size, "_ZN%s%zu%s%d%sEv", i % 8 == 5 ? "12_GLOBAL__N_1" : "",
				strlen(p), p, n, id);
	if (i % 4 == 2)		/* uart::read_2(int, unsigned int) const */
		return snprintf(name, size, "_ZNK%zu%s%d%sEij", strlen(p), p, n, id);
	/* void uart::read_3<int>(int) */
	return snprintf(name, size, "_ZN%zu%s%d%sIiEEvT_", strlen(p), p, n, id);
}

void put_symbols(void)
{
	for (unsigned first = 0; first < nsites;) {
		uint8_t body[4096];
		struct wire_out o;
		struct wire_sym_state prev;
		unsigned count = 0;

		wire_out_init(&o, body, sizeof(body));
		wire_out_varint(&o, first);
		wire_out_varint(&o, 0);		/* count, patched below (< 128: one byte) */
		wire_sym_begin(&prev);
		for (unsigned i = first; i < nsites && count < 100; i++, count++) {
			char name[128];
			int n = site_name(name, sizeof(name), i);

			wire_out_sym(&o, &prev, 0x1000 + (uint64_t)i * 64, 64, name, (size_t)n);
		}
		body[1 + wire_varint_len(first) - 1] = (uint8_t)count;
		put_frame(WIRE_FRAME_SYMS, 0, syms_seq++, body, o.len);
		first += count;
	}
}

void block_open(struct cpu *c)
{
	uint8_t head[2 * WIRE_VARINT_MAX];
	unsigned n;

	c->first = c->events;
	c->base = c->ts;
	wire_out_init(&c->o, c->body, sizeof(c->body));
	n = wire_block_head_put(head, c->base, c->first);
	wire_out_bytes(&c->o, head, n);
	c->last_site = UINT64_MAX;	/* kind 0's caller cache is per block */
	c->open = (c->blocks + 1) << 16;	/* and so are the open entries */
}

void block_close(struct cpu *c, unsigned cpu)
{
	put_frame(WIRE_FRAME_DATA, cpu, data_seq[cpu]++, c->body, c->o.len);
	c->blocks++;
	block_open(c);
}

void record(struct cpu *c, unsigned cpu, struct wire_record *r, uint64_t ts)
{
	size_t before = c->o.len;

	r->delta = ts - c->ts;
	if (wire_rec_encode(&c->o, r) || c->o.len > BLOCK_BODY) {
		c->o.len = before;
		c->o.overflow = 0;
		block_close(c, cpu);
		r->delta = ts - c->ts;
		r->kind = r->kind == WIRE_REC_FUNC ? WIRE_REC_FUNC_CALLER : r->kind;
		r->paired = 0;	/* its entry went out with the block just sent */
		wire_rec_encode(&c->o, r);
	}
	if (r->kind == WIRE_REC_GRAPH_ENTRY)
		c->entry_key = ++c->open;
	else if (r->kind == WIRE_REC_EXIT && r->paired)
		c->open--;
	c->ts = ts;
	c->events++;
}

