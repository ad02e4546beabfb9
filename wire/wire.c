/*
 * wire/wire.c: the baretrace wire format (docs/wire.md), shared by the
 * kernel and the host tool: what both sides write. Freestanding: no
 * allocation, no I/O, no floating point, no library calls. Reading is in
 * wire_read.c (records, extension records, profile dumps) and
 * wire_stream.c (the UART stream decoder).
 */
#include "wire.h"
#include "wire_crc.h"

#ifdef WIRE_CRC_INSN
int wire_crc_insn;

int wire_crc_insn_probe(void)
{
	uint64_t isar0;

	__asm__ volatile("mrs %0, id_aa64isar0_el1" : "=r"(isar0));
	int known = (isar0 >> 16 & 0xf) ? 1 : -1;

	__atomic_store_n(&wire_crc_insn, known, __ATOMIC_RELAXED);
	return known > 0;
}

static uint32_t crc_insn_run(uint32_t crc, const uint8_t *b, size_t n)
{
	for (; n >= 8; n -= 8, b += 8) {
		uint64_t w;

		__builtin_memcpy(&w, b, 8);
		crc = wire_crc_word_insn(crc, w);
	}
	for (; n; n--, b++)
		crc = wire_crc_byte_insn(crc, *b);
	return crc;
}
#endif

/* ---- integers and CRC ------------------------------------------------- */

unsigned wire_varint_len(uint64_t v)
{
	unsigned n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

unsigned wire_varint_put(uint8_t *out, uint64_t v)
{
	unsigned n = 0;

	while (v >= 0x80) {
		out[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	out[n++] = (uint8_t)v;
	return n;
}

int wire_varint_get(const uint8_t *p, size_t n, uint64_t *v)
{
	uint64_t x = 0;

	for (unsigned i = 0; i < WIRE_VARINT_MAX; i++) {
		if (i >= n)
			return -1;
		uint8_t b = p[i];

		/* The tenth byte holds bit 63 only, and must be the last. */
		if (i == WIRE_VARINT_MAX - 1 && b > 1)
			return -1;
		x |= (uint64_t)(b & 0x7f) << (7 * i);
		if (!(b & 0x80)) {
			*v = x;
			return (int)i + 1;
		}
	}
	return -1;
}

/*
 * CRC of each byte value, reflected polynomial 0xEDB88320, worked out by
 * the compiler: CRC_BIT is one shift of the register, CRC_BYTE eight.
 * One table look-up per byte instead of two nibble steps: the host's
 * writers and readers run every byte through here (the target uses the
 * CRC32 instructions, wire_crc.h).
 */
#define CRC_POLY	0xEDB88320u
#define CRC_BIT(c)	(((c) >> 1) ^ (CRC_POLY & (0u - ((c) & 1u))))
#define CRC_BYTE(c)	CRC_BIT(CRC_BIT(CRC_BIT(CRC_BIT(CRC_BIT(CRC_BIT(CRC_BIT(CRC_BIT((uint32_t)(c)))))))))
#define CRC_4(b)	CRC_BYTE(b), CRC_BYTE((b) + 1), CRC_BYTE((b) + 2), CRC_BYTE((b) + 3)
#define CRC_16(b)	CRC_4(b), CRC_4((b) + 4), CRC_4((b) + 8), CRC_4((b) + 12)
#define CRC_64(b)	CRC_16(b), CRC_16((b) + 16), CRC_16((b) + 32), CRC_16((b) + 48)
const uint32_t wire_crc_table[256] = {
	CRC_64(0), CRC_64(64), CRC_64(128), CRC_64(192)
};

uint32_t wire_crc32(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;

	crc = ~crc;
#ifdef WIRE_CRC_INSN
	if (wire_crc_insn_present())
		return ~crc_insn_run(crc, b, n);
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* Four bytes a load: the first byte is the low one, as the
	 * reflected CRC takes them. */
	for (; n >= 4; n -= 4, b += 4) {
		uint32_t w;

		__builtin_memcpy(&w, b, 4);
		crc ^= w;
		crc = (crc >> 8) ^ wire_crc_table[crc & 0xff];
		crc = (crc >> 8) ^ wire_crc_table[crc & 0xff];
		crc = (crc >> 8) ^ wire_crc_table[crc & 0xff];
		crc = (crc >> 8) ^ wire_crc_table[crc & 0xff];
	}
#endif
	while (n--)
		crc = (crc >> 8) ^ wire_crc_table[(crc ^ *b++) & 0xff];
	return ~crc;
}

/* ---- bounded output ---------------------------------------------------- */

void wire_out_init(struct wire_out *o, uint8_t *buf, size_t cap)
{
	o->buf = buf;
	o->cap = cap;
	o->len = 0;
	o->overflow = 0;
}

void wire_out_bytes(struct wire_out *o, const void *p, size_t n)
{
	const uint8_t *s = p;

	if (o->overflow || n > o->cap - o->len) {
		o->overflow = 1;
		return;
	}
	uint8_t *d = o->buf + o->len;
	size_t i = 0;

	/* Eight bytes a step (a frame's body goes through here; no memcpy:
	 * this file calls no library). */
	for (; i + 8 <= n; i += 8)
		__builtin_memcpy(d + i, s + i, 8);
	for (; i < n; i++)
		d[i] = s[i];
	o->len += n;
}

void wire_out_u8(struct wire_out *o, uint8_t v)
{
	wire_out_bytes(o, &v, 1);
}

void wire_out_u32le(struct wire_out *o, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16),
			 (uint8_t)(v >> 24) };

	wire_out_bytes(o, b, 4);
}

void wire_out_varint(struct wire_out *o, uint64_t v)
{
	uint8_t b[WIRE_VARINT_MAX];

	wire_out_bytes(o, b, wire_varint_put(b, v));
}

void wire_out_str(struct wire_out *o, const void *p, size_t n)
{
	wire_out_varint(o, n);
	wire_out_bytes(o, p, n);
}

/* ---- records ----------------------------------------------------------- */

void wire_rec_header(struct wire_out *o, unsigned kind, uint64_t delta)
{
	uint8_t b[1 + WIRE_VARINT_MAX];
	unsigned n = 1;

	if (delta < WIRE_DELTA_ESCAPE) {
		b[0] = (uint8_t)(kind << 5 | delta);
	} else {
		b[0] = (uint8_t)(kind << 5 | WIRE_DELTA_ESCAPE);
		n += wire_varint_put(b + 1, delta);
	}
	wire_out_bytes(o, b, n);
}

/* The site of a kind 2 or 3: two bytes from version 4, a varint before. */
static void out_site(struct wire_out *o, uint64_t site, int slots)
{
	if (!slots) {
		wire_out_varint(o, site);
	} else if (site > 0xffff) {
		o->overflow = 1;
	} else {
		wire_out_u8(o, (uint8_t)site);
		wire_out_u8(o, (uint8_t)(site >> 8));
	}
}

int wire_rec_encode(struct wire_out *o, const struct wire_record *r)
{
	return wire_rec_encode_ver(o, r, WIRE_VERSION);
}

int wire_rec_encode_ver(struct wire_out *o, const struct wire_record *r, unsigned version)
{
	size_t start = o->len;
	int slots = version >= WIRE_VERSION_SLOTS;

	int v5 = version >= WIRE_VERSION_RETURN;

	if (r->kind > WIRE_REC_EXT || (r->kind == WIRE_REC_PRINTF && r->count > 255))
		return -1;
	if (v5 && r->kind == WIRE_REC_EXIT && r->paired) {
		/* A return: its entry, the innermost open one, says the rest. */
		wire_rec_header(o, WIRE_KIND_RETURN, r->delta);
		return o->overflow ? (o->len = start, -1) : 0;
	}
	if (v5 && r->kind == WIRE_REC_LOST) {
		uint8_t n[WIRE_VARINT_MAX];

		wire_rec_header(o, WIRE_REC_EXT, r->delta);
		wire_out_u8(o, WIRE_EXT_LOST);
		wire_out_str(o, n, wire_varint_put(n, r->count));
		return o->overflow ? (o->len = start, -1) : 0;
	}
	wire_rec_header(o, r->kind, r->delta);
	switch (r->kind) {
	case WIRE_REC_FUNC:
		if (slots)
			wire_out_u8(o, (uint8_t)(r->site & (WIRE_CALLER_CACHE - 1)));
		else
			wire_out_varint(o, r->site);
		break;
	case WIRE_REC_FUNC_CALLER:
		wire_out_varint(o, r->site);
		wire_out_varint(o, r->caller);
		break;
	case WIRE_REC_EXIT:
		out_site(o, r->site, slots);
		wire_out_varint(o, r->duration);
		wire_out_u8(o, r->flags);
		if (r->flags & WIRE_EXIT_HAS_RETVAL)
			wire_out_varint(o, wire_zigzag(r->retval));
		break;
	case WIRE_REC_GRAPH_ENTRY:
		out_site(o, r->site, slots);
		wire_out_varint(o, r->depth);
		break;
	case WIRE_REC_EVENT:
		wire_out_varint(o, r->id);
		wire_out_bytes(o, r->data, r->data_len);
		break;
	case WIRE_REC_PRINTF:
		wire_out_varint(o, r->id);
		wire_out_u8(o, (uint8_t)r->count);
		wire_out_bytes(o, r->data, r->data_len);
		break;
	case WIRE_REC_LOST:
		wire_out_varint(o, r->count);
		break;
	default:
		wire_out_u8(o, r->subtype);
		wire_out_str(o, r->data, r->data_len);
		break;
	}
	if (o->overflow) {
		o->len = start;
		return -1;
	}
	return 0;
}

/* ---- frames (escaping: wire_escape.c) -------------------------------- */

unsigned wire_block_head_put(uint8_t out[2 * WIRE_VARINT_MAX], uint64_t base_ts,
			     uint64_t first)
{
	unsigned n = wire_varint_put(out, base_ts);

	return n + wire_varint_put(out + n, first);
}

size_t wire_end_encode(uint8_t *out, size_t cap, const struct wire_end_cpu *c,
		       unsigned n, const struct wire_end_run *run)
{
	struct wire_out o;

	wire_out_init(&o, out, cap);
	wire_out_varint(&o, n);
	for (unsigned i = 0; i < n; i++) {
		wire_out_varint(&o, c[i].cpu);
		wire_out_varint(&o, c[i].produced);
		wire_out_varint(&o, c[i].overwritten);
		wire_out_varint(&o, c[i].dropped);
		wire_out_varint(&o, c[i].discarded);
		wire_out_varint(&o, c[i].blocks);
	}
	if (run && run->known) {
		wire_out_u8(&o, (uint8_t)run->outcome);
		wire_out_varint(&o, wire_zigzag(run->status));
	}
	return o.overflow ? 0 : o.len;
}

size_t wire_prev_encode(uint8_t *out, size_t cap, uint64_t boot,
			const struct wire_prev_cpu *c, unsigned n)
{
	struct wire_out o;

	wire_out_init(&o, out, cap);
	wire_out_varint(&o, boot);
	wire_out_varint(&o, n);
	for (unsigned i = 0; i < n; i++) {
		wire_out_varint(&o, c[i].cpu);
		wire_out_varint(&o, c[i].produced);
		wire_out_varint(&o, c[i].sent);
		wire_out_varint(&o, c[i].overwritten);
		wire_out_varint(&o, c[i].dropped);
		wire_out_varint(&o, c[i].discarded);
		wire_out_varint(&o, c[i].kept);
		wire_out_varint(&o, c[i].torn);
	}
	return o.overflow ? 0 : o.len;
}

unsigned wire_frame_head(uint8_t out[WIRE_FRAME_HEAD_MAX], unsigned type,
			 unsigned cpu, uint64_t seq, uint64_t body_len)
{
	unsigned n = 2;

	out[0] = (uint8_t)type;
	out[1] = (uint8_t)cpu;
	n += wire_varint_put(out + n, seq);
	n += wire_varint_put(out + n, body_len);
	return n;
}

size_t wire_frame_build(uint8_t *out, size_t cap, unsigned type, unsigned cpu,
			uint64_t seq, const uint8_t *body, size_t body_len)
{
	uint8_t head[WIRE_FRAME_HEAD_MAX];
	unsigned hn = wire_frame_head(head, type, cpu, seq, body_len);
	struct wire_out o;

	if (body_len > WIRE_MAX_PAYLOAD - hn - WIRE_CRC_SIZE ||
	    hn + body_len + WIRE_CRC_SIZE > cap)
		return 0;
	wire_out_init(&o, out, cap);
	wire_out_bytes(&o, head, hn);
	wire_out_bytes(&o, body, body_len);
	wire_out_u32le(&o, wire_crc32(0, out, o.len));
	return o.len;
}
