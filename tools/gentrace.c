/*
 * tools/gentrace.c: a synthetic .bt trace in the real wire format, for
 * `make bench-host` (tools/bench-host).
 *
 *   gentrace OUT EVENTS [CPUS [MODE [SEED [SLOW]]]]
 *
 * MODE graph: function_graph records (an entry and an exit per call,
 * durations and depths that nest, a return value on some exits);
 * function: function-tracer entries with their callers (kind 1, then
 * kind 0 while the caller stays the same); threshold: the graph's exits
 * only, as graph_threshold= records them. Each CPU walks its own random
 * call tree over NSITES functions named like an embedded program's, and
 * the blocks (RING_BLOCK_SIZE bodies, as the target's ring cuts them) go
 * out in the order the CPUs fill them, as the target sends them. The
 * file holds metadata, symbol dumps (so no ELF is needed), the data
 * blocks and an end-of-stream frame whose totals balance: nothing is
 * lost. Deterministic for a given seed. SLOW > 1 makes the last CPU
 * record SLOW times less often (a mostly idle CPU: its blocks fill
 * slowly, so each arrives long after its first event).
 * MODE may end in ",c++" ("graph,c++"): three functions in four get
 * Itanium-ABI C++ names, as g++ mangles them ("_ZNK3uart6read_2Eij",
 * uart::read_2(int, unsigned int) const; a template, an anonymous
 * namespace), for the host tool's demangling tests. MODE coverage: below.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../wire/wire.h"
#include "../wire/wire_syms.h"

#define NSITES		1500	/* sites, unless MODE coverage says */
#define BLOCK_BODY	1000	/* bytes of records per block, as the ring's 1 KiB */
#define MAX_CPUS	64
#define MAX_DEPTH	12
#define TEXT_BASE	0x40080000ull
#define FREQ		62500000ull	/* virt's generic timer */

static const char *const part1[] = {
	"uart", "gic", "timer", "sched", "mm", "vfs", "net", "crc", "aes", "sha256",
	"json", "lzo", "fat", "sd", "usb", "eth", "ip", "tcp", "sensor", "motor",
};
static const char *const part2[] = {
	"read", "write", "init", "poll", "update", "parse", "encode", "decode",
	"alloc", "free", "lookup", "insert", "flush", "step", "handle", "check",
	"put", "get", "start", "stop", "compute", "scan", "copy", "verify",
};

struct cpu {
	uint64_t ts, events, blocks;
	uint64_t first;			/* first event of the open block */
	uint64_t base;			/* its base time */
	uint8_t body[BLOCK_BODY + 64];
	struct wire_out o;
	unsigned depth;
	uint64_t site[MAX_DEPTH], start[MAX_DEPTH];
	uint64_t last_caller;		/* kind 0 while it stays the same */
	uint64_t last_site;
};

static FILE *out;
static uint64_t nsites = NSITES;
static uint32_t image_hash, have_hash;	/* coverage,hash=: the metadata names it */
static int cxx_names;		/* MODE ",c++" */
static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t data_seq[MAX_CPUS], meta_seq, syms_seq;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void put_frame(unsigned type, unsigned cpu, uint64_t seq, const uint8_t *body,
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

static void put_meta(unsigned ncpus, unsigned version)
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

static void put_symbols(void)
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

static void block_open(struct cpu *c)
{
	uint8_t head[2 * WIRE_VARINT_MAX];
	unsigned n;

	c->first = c->events;
	c->base = c->ts;
	wire_out_init(&c->o, c->body, sizeof(c->body));
	n = wire_block_head_put(head, c->base, c->first);
	wire_out_bytes(&c->o, head, n);
	c->last_site = UINT64_MAX;	/* kind 0's caller cache is per block */
}

static void block_close(struct cpu *c, unsigned cpu)
{
	put_frame(WIRE_FRAME_DATA, cpu, data_seq[cpu]++, c->body, c->o.len);
	c->blocks++;
	block_open(c);
}

static void record(struct cpu *c, unsigned cpu, struct wire_record *r, uint64_t ts)
{
	size_t before = c->o.len;

	r->delta = ts - c->ts;
	if (wire_rec_encode(&c->o, r) || c->o.len > BLOCK_BODY) {
		c->o.len = before;
		c->o.overflow = 0;
		block_close(c, cpu);
		r->delta = ts - c->ts;
		r->kind = r->kind == WIRE_REC_FUNC ? WIRE_REC_FUNC_CALLER : r->kind;
		wire_rec_encode(&c->o, r);
	}
	c->ts = ts;
	c->events++;
}

/* One step of CPU c's walk: a call or a return (graph), an entry (function). */
static uint64_t slow_cpu = UINT64_MAX, slowness = 1;

static int exits_only;

static void step(struct cpu *c, unsigned cpu, int graph)
{
	uint64_t ts = c->ts + (1 + rnd() % 40) * (cpu == slow_cpu ? slowness : 1);
	struct wire_record r = { 0 };
	/* Deeper calls return sooner: stacks stay a few frames deep. */
	int call = c->depth == 0 || (c->depth < MAX_DEPTH && rnd() % 100 < 56 - 4 * c->depth);

	if (!graph) {
		uint64_t site = rnd() % nsites;
		uint64_t caller = (0x1000 + (rnd() % nsites) * 64 + 16) / 4;

		if (c->last_site == site && rnd() % 4)
			caller = c->last_caller;
		r.kind = site == c->last_site && caller == c->last_caller ? WIRE_REC_FUNC
									  : WIRE_REC_FUNC_CALLER;
		r.site = site;
		r.caller = caller;
		c->last_site = site;
		c->last_caller = caller;
		record(c, cpu, &r, ts);
		return;
	}
	if (call) {
		uint64_t site = c->depth ? (c->site[c->depth - 1] * 31 + rnd() % 3) % nsites
					 : rnd() % 50;

		r.kind = WIRE_REC_GRAPH_ENTRY;
		r.site = site;
		r.depth = c->depth;
		if (!exits_only)
			record(c, cpu, &r, ts);
		else
			c->ts = ts;
		c->site[c->depth] = site;
		c->start[c->depth++] = ts;
		return;
	}
	c->depth--;
	r.kind = WIRE_REC_EXIT;
	r.site = c->site[c->depth];
	r.duration = ts - c->start[c->depth];
	if (rnd() % 4 == 0) {
		r.flags = WIRE_EXIT_HAS_RETVAL;
		r.retval = (int64_t)(rnd() % 200) - 20;
	}
	record(c, cpu, &r, ts);
}

/*
 * MODE coverage[,hash=H][,sites=N][,prev]: coverage frames (wire.md
 * 2.11) where EVENTS distinct sites, drawn at random, were reached; an
 * earlier partial set, then the whole set, 1024 sites a frame. With
 * hash, the metadata names that image (an ELF's .bt_tables CRC) and no
 * symbol dump is sent; prev adds the previous boot's frames (type 9), of
 * EVENTS / 2 random sites. The sites reached in either boot go to
 * OUT.sites, one a line, for the tests to compare against.
 */
static void put_bits(unsigned type, uint64_t *seq, const uint8_t *bits)
{
	for (uint64_t first = 0; first < nsites; first += 1024) {
		uint8_t body[2 * WIRE_VARINT_MAX + 128];
		uint64_t n = nsites - first < 1024 ? nsites - first : 1024;
		unsigned len = wire_varint_put(body, first);

		len += wire_varint_put(body + len, n);
		memcpy(body + len, bits + first / 8, (size_t)(n + 7) / 8);
		put_frame(type, 0, (*seq)++, body, len + (size_t)(n + 7) / 8);
	}
}

static void draw(uint8_t *bits, uint64_t count)
{
	for (uint64_t got = 0; got < count && got < nsites;) {
		uint64_t s = rnd() % nsites;

		got += !(bits[s / 8] >> (s % 8) & 1);
		bits[s / 8] |= (uint8_t)(1u << (s % 8));
	}
}

static int coverage(const char *path, const char *mode, uint64_t reached)
{
	const char *p;
	int prev = strstr(mode, ",prev") != NULL;
	uint8_t *now, *before, *half;
	uint64_t seq8 = 0, seq9 = 0;
	char name[4096];
	FILE *list;

	if ((p = strstr(mode, ",hash=")))
		image_hash = (uint32_t)strtoul(p + 6, NULL, 0), have_hash = 1;
	if ((p = strstr(mode, ",sites=")))
		nsites = strtoull(p + 7, NULL, 0);
	if (!(now = calloc(3, nsites / 8 + 1)))
		return 1;
	before = now + nsites / 8 + 1;
	half = before + nsites / 8 + 1;
	put_meta(1, 3);		/* version 3: coverage frames */
	if (!have_hash)
		put_symbols();
	if (prev) {		/* sent right after the metadata, as 2.10's */
		draw(before, reached / 2);
		put_bits(WIRE_FRAME_PREV_COVERAGE, &seq9, before);
	}
	draw(now, reached);
	/* A 'coverage send' halfway: a subset, bits only go 0 -> 1. */
	for (uint64_t s = 0, k = 0; s < nsites; s++)
		if (now[s / 8] >> (s % 8) & 1 && k++ % 2 == 0)
			half[s / 8] |= (uint8_t)(1u << (s % 8));
	put_bits(WIRE_FRAME_COVERAGE, &seq8, half);
	put_bits(WIRE_FRAME_COVERAGE, &seq8, now);
	snprintf(name, sizeof(name), "%s.sites", path);
	list = fopen(name, "w");
	for (uint64_t s = 0; list && s < nsites; s++)
		if ((now[s / 8] | before[s / 8]) >> (s % 8) & 1)
			fprintf(list, "%llu\n", (unsigned long long)s);
	return !list || fclose(list);
}

int main(int argc, char **argv)
{
	static struct cpu cpus[MAX_CPUS];
	struct wire_end_cpu end[MAX_CPUS];
	struct wire_end_run run = { 1, 0, 0 };	/* RUN_EXIT, status 0 */
	uint8_t body[4096];
	uint64_t events, done = 0;
	unsigned ncpus = 4;
	int graph = 1;
	size_t n;

	if (argc < 3) {
		fprintf(stderr, "usage: gentrace OUT EVENTS [CPUS [graph|function|threshold[,c++]|coverage[,hash=H]"
			"[,sites=N][,prev] "
			"[SEED [SLOW]]]]\n");
		return 2;
	}
	events = strtoull(argv[2], NULL, 0);
	if (argc > 3)
		ncpus = (unsigned)atoi(argv[3]);
	if (argc > 4) {
		char *cxx = strstr(argv[4], ",c++");

		if (cxx && !cxx[4]) {
			*cxx = 0;
			cxx_names = 1;
		}
		graph = strcmp(argv[4], "function") != 0;
	}
	exits_only = argc > 4 && !strcmp(argv[4], "threshold");
	if (argc > 5)
		rng ^= strtoull(argv[5], NULL, 0) * 0x2545f4914f6cdd1dull;
	if (argc > 6) {
		slowness = strtoull(argv[6], NULL, 0);
		slow_cpu = ncpus - 1;
	}
	if (!ncpus || ncpus > MAX_CPUS) {
		fprintf(stderr, "gentrace: CPUS is 1 to %d\n", MAX_CPUS);
		return 2;
	}
	out = fopen(argv[1], "wb");
	if (!out || fwrite("BTRACE\0\1", 1, 8, out) != 8) {
		perror(argv[1]);
		return 1;
	}
	if (argc > 4 && !strncmp(argv[4], "coverage", 8)) {	/* no CPU recorded */
		if (coverage(argv[1], argv[4], events))
			return 1;
		n = wire_end_encode(body, sizeof(body), end, 0, &run);
		put_frame(WIRE_FRAME_END, 0, 0, body, n);
		return fclose(out) ? 1 : 0;
	}
	put_meta(ncpus, WIRE_VERSION);
	put_symbols();
	for (unsigned i = 0; i < ncpus; i++) {
		cpus[i].ts = 1000000 + i * 37;
		block_open(&cpus[i]);
	}
	/* The CPU furthest behind in time records next: blocks fill (and
	 * go out) in about the order the target's CPUs would fill them. */
	while (done < events) {
		unsigned k = 0;

		for (unsigned i = 1; i < ncpus; i++)
			k = cpus[i].ts < cpus[k].ts ? i : k;
		step(&cpus[k], k, graph);
		done++;
		if (done % 3000000 == 0)	/* the target repeats its metadata */
			put_meta(ncpus, WIRE_VERSION);
	}
	for (unsigned i = 0; i < ncpus; i++) {
		if (cpus[i].o.len > wire_varint_len(cpus[i].base) + wire_varint_len(cpus[i].first))
			block_close(&cpus[i], i);
		end[i] = (struct wire_end_cpu){ .cpu = i, .produced = cpus[i].events,
						.blocks = cpus[i].blocks };
	}
	n = wire_end_encode(body, sizeof(body), end, ncpus, &run);
	put_frame(WIRE_FRAME_END, 0, 0, body, n);
	return fclose(out) ? 1 : 0;
}
