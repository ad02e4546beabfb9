/*
 * trace/output/export_meta.c: the frames that let a host decode the rest: the
 * metadata set (docs/wire.md 2.2, over several frames as 2.9 says) and
 * the symbol dump (2.3). Called only by the holder of the exporter's lock
 * (trace/output/export.c), like everything that sends.
 */
#include <string.h>

#include "core/core.h"
#include "core/probe.h"
#include "tracers/retprobe.h"
#include "export_int.h"
#include "ktime.h"
#include "smp.h"
#include "events/tracepoint.h"
#include "wire.h"
#include "wire_syms.h"

/* The exporter lock's holder only. */
static uint8_t body[EXPORT_PAYLOAD_MAX];
static uint64_t meta_seq, syms_seq;

/* The app's name (wire.md 2.2 key 9): the build links it in from
 * $(OUT)/app_name.S (the Makefile); an image without one sends none. */
__attribute__((weak)) const char bt_app_name[] = "";
/* The board's name (key 11), from the same file. */
__attribute__((weak)) const char bt_board_name[] = "";

/* Metadata items after the fixed head: each writes its items from
 * number 'from' on while they fit in o and returns the next one. */
unsigned int trace_printf_meta(struct wire_out *o, unsigned int from);	/* trace/events/printf.c */
unsigned int trace_format_count(void);

/* Probe schemas (wire.md 2.2 key 10) from probe slot 'from' on while
 * they fit in o; the next slot to write. A probe planted or removed
 * meanwhile is in the next set (probe_ctl sends one after each). */
#define PROBE_META_SLOTS	(PROBE_MAX + RETPROBE_MAX)	/* return probes after */

static unsigned int probe_meta(struct wire_out *o, unsigned int from)
{
	struct probe_view v;

	for (; from < PROBE_META_SLOTS; from++) {
		size_t before = o->len;
		bool ret = from >= PROBE_MAX;

		if (ret ? !retprobe_get(from - PROBE_MAX, &v) : !probe_get(from, &v))
			continue;
		wire_out_varint(o, WIRE_META_PROBE);
		wire_out_varint(o, v.number);
		wire_out_str(o, v.spec.name, strlen(v.spec.name));
		wire_out_varint(o, v.addr - (uintptr_t)_text);
		/* Bit 7: a return probe (the address is the function's). */
		wire_out_u8(o, (uint8_t)(v.spec.nfetch | (ret ? WIRE_PROBE_RETURN : 0)));
		for (unsigned int k = 0; k < v.spec.nfetch; k++) {
			wire_out_str(o, v.spec.fetch[k].name, strlen(v.spec.fetch[k].name));
			wire_out_u8(o, v.spec.fetch[k].type);
		}
		if (o->overflow) {
			o->len = before;
			o->overflow = 0;
			break;
		}
	}
	return from;
}

/*
 * The CRC of .bt_tables (the image hash, wire.md 2.2), worked out once:
 * the tables are read-only, the image's own from the second link on,
 * and every metadata set carries the hash (one every 256 blocks), where
 * the CRC of an application's tables, tens of KiB, cost more than the
 * blocks it came with (the bench's 4,212 sites: about 97,000
 * instructions a set). Any CPU: callers that race both compute it.
 */
uint32_t export_image_hash(void)
{
	extern char bt_tables_start[], bt_tables_end[];
	static uint64_t known;	/* bit 32 set once computed, the hash below */
	uint64_t k = __atomic_load_n(&known, __ATOMIC_RELAXED);

	if (!(k >> 32)) {
		k = 1ULL << 32 | wire_crc32(0, bt_tables_start,
					    (size_t)(bt_tables_end - bt_tables_start));
		__atomic_store_n(&known, k, __ATOMIC_RELAXED);
	}
	return (uint32_t)k;
}

/*
 * The metadata set (wire.md 2.2): the head in the first frame, then the
 * format strings and event schemas in as many frames as they need
 * (wire.md 2.9), every item whole in one frame.
 */
unsigned int export_send_meta(void)
{
	struct wire_out o;
	unsigned int fmt = 0, ev = 0, nfmt = trace_format_count(), nev = tp_count(), frames = 0;
	unsigned int pr = 0;

	wire_out_init(&o, body, sizeof(body));
	wire_out_varint(&o, WIRE_META_VERSION);
	wire_out_varint(&o, WIRE_VERSION);
	wire_out_varint(&o, WIRE_META_FREQ);
	wire_out_varint(&o, time_counter_hz());
	wire_out_varint(&o, WIRE_META_NCPUS);
	wire_out_varint(&o, smp_num_cpus());
	wire_out_varint(&o, WIRE_META_IMAGE_HASH);
	wire_out_u32le(&o, export_image_hash());
	wire_out_varint(&o, WIRE_META_NSITES);
	wire_out_varint(&o, trace_site_count());
	wire_out_varint(&o, WIRE_META_TEXT_BASE);
	wire_out_varint(&o, (uintptr_t)_text);
	if (bt_app_name[0]) {
		wire_out_varint(&o, WIRE_META_APP_NAME);
		wire_out_str(&o, bt_app_name, strlen(bt_app_name));
	}
	if (bt_board_name[0]) {
		wire_out_varint(&o, WIRE_META_BOARD_NAME);
		wire_out_str(&o, bt_board_name, strlen(bt_board_name));
	}
	for (;;) {
		size_t head = o.len;

		fmt = trace_printf_meta(&o, fmt);
		if (fmt == nfmt)
			ev = tp_meta(&o, ev);
		if (fmt == nfmt && ev == nev)
			pr = probe_meta(&o, pr);
		if (!head && !o.len)
			break;	/* one item larger than a frame: never fits */
		export_send(WIRE_FRAME_META, 0, meta_seq++, body, o.len);
		frames++;
		if (fmt == nfmt && ev == nev && pr == PROBE_META_SLOTS)
			break;
		wire_out_init(&o, body, sizeof(body));
	}
	return frames;
}

/* Symbol dump: as many sites per frame as fit, each coded against the
 * one before it in the frame (wire.md 2.3). */
void export_send_symbols(void)
{
	unsigned int n = trace_site_count();

	for (unsigned int first = 0; first < n;) {
		struct wire_out o;
		struct wire_sym_state prev;
		unsigned int count = 0;
		size_t mark;

		wire_out_init(&o, body, sizeof(body));
		wire_out_varint(&o, first);
		mark = o.len;
		wire_out_varint(&o, 0);	/* count, patched below (1 byte) */
		wire_sym_begin(&prev);
		for (unsigned int i = first; i < n && count < 127; i++) {
			const char *name = trace_site_name(i);
			size_t before = o.len;

			/* Against the entry before it (wire.md 2.3): a
			 * rolled-back one ends the frame, which the next
			 * starts afresh. */
			wire_out_sym(&o, &prev, trace_site_addr(i) - (uintptr_t)_text,
				     bt_syms[bt_sites[i]].size, name, strlen(name));
			if (o.overflow || o.len > sizeof(body) - 64) {
				o.len = before;
				o.overflow = 0;
				break;
			}
			count++;
		}
		body[mark] = (uint8_t)count;
		export_send(WIRE_FRAME_SYMS, 0, syms_seq++, body, o.len);
		first += count;
	}
}
