/*
 * trace/wire.c: the baretrace wire format (docs/wire.md), shared by the
 * kernel and the host tool. Freestanding: no allocation, no I/O, no
 * floating point, no library calls.
 *
 * One file because both sides build it as one unit; it falls into five
 * parts along the spec: integers and CRC, records, extension records and
 * profile dumps, frames and escaping, and the stream decoder.
 */
#include "wire.h"

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

/* CRC of each nibble value, reflected polynomial 0xEDB88320. */
static const uint32_t crc_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
	0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
	0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t wire_crc32(uint32_t crc, const void *p, size_t n)
{
	const uint8_t *b = p;

	crc = ~crc;
	while (n--) {
		crc ^= *b++;
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
		crc = (crc >> 4) ^ crc_nibble[crc & 15];
	}
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
	for (size_t i = 0; i < n; i++)
		o->buf[o->len + i] = s[i];
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

int wire_rec_encode(struct wire_out *o, const struct wire_record *r)
{
	size_t start = o->len;

	if (r->kind > WIRE_REC_EXT || (r->kind == WIRE_REC_PRINTF && r->count > 255))
		return -1;
	wire_rec_header(o, r->kind, r->delta);
	switch (r->kind) {
	case WIRE_REC_FUNC:
		wire_out_varint(o, r->site);
		break;
	case WIRE_REC_FUNC_CALLER:
		wire_out_varint(o, r->site);
		wire_out_varint(o, r->caller);
		break;
	case WIRE_REC_EXIT:
		wire_out_varint(o, r->site);
		wire_out_varint(o, r->duration);
		wire_out_u8(o, r->flags);
		if (r->flags & WIRE_EXIT_HAS_RETVAL)
			wire_out_varint(o, wire_zigzag(r->retval));
		break;
	case WIRE_REC_GRAPH_ENTRY:
		wire_out_varint(o, r->site);
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

/* A cursor over untrusted bytes: any read past the end sets 'bad'. */
struct rd {
	const uint8_t *p, *end;
	int bad;
};

static uint64_t rd_varint(struct rd *r)
{
	uint64_t v = 0;
	int n = r->bad ? -1 : wire_varint_get(r->p, (size_t)(r->end - r->p), &v);

	if (n < 0) {
		r->bad = 1;
		return 0;
	}
	r->p += n;
	return v;
}

static uint8_t rd_u8(struct rd *r)
{
	if (r->bad || r->p >= r->end) {
		r->bad = 1;
		return 0;
	}
	return *r->p++;
}

static void rd_skip(struct rd *r, uint64_t n)
{
	if (r->bad || n > (uint64_t)(r->end - r->p))
		r->bad = 1;
	else
		r->p += n;
}

/* Skips tracepoint fields of the given types. */
static void skip_fields(struct rd *r, const uint8_t *types, int n)
{
	for (int i = 0; i < n && !r->bad; i++) {
		if (types[i] >= WIRE_FIELD_U8 && types[i] <= WIRE_FIELD_PTR)
			rd_varint(r);
		else if (types[i] == WIRE_FIELD_STRING)
			rd_skip(r, rd_varint(r));
		else
			r->bad = 1;
	}
}

/* Parses one record at it->p without resolving kind-0 callers. */
static int rec_parse(const struct wire_rec_iter *it, const uint8_t *p,
		     struct wire_record *out, const uint8_t **next)
{
	struct rd r = { p, it->end, 0 };
	struct wire_record z = { 0 };
	uint8_t h = rd_u8(&r);
	const uint8_t *types;
	int n;

	z.kind = h >> 5;
	z.delta = h & 31;
	if (z.delta == WIRE_DELTA_ESCAPE)
		z.delta = rd_varint(&r);
	switch (z.kind) {
	case WIRE_REC_FUNC:
		z.site = rd_varint(&r);
		break;
	case WIRE_REC_FUNC_CALLER:
		z.site = rd_varint(&r);
		z.caller = rd_varint(&r);
		z.has_caller = 1;
		break;
	case WIRE_REC_EXIT:
		z.site = rd_varint(&r);
		z.duration = rd_varint(&r);
		z.flags = rd_u8(&r);
		if (z.flags & WIRE_EXIT_HAS_RETVAL)
			z.retval = wire_unzigzag(rd_varint(&r));
		break;
	case WIRE_REC_GRAPH_ENTRY:
		z.site = rd_varint(&r);
		z.depth = rd_varint(&r);
		break;
	case WIRE_REC_EVENT:
		z.id = rd_varint(&r);
		if (r.bad)
			break;
		n = it->event_types ? it->event_types(it->ctx, z.id, &types) : -1;
		if (n < 0)
			return WIRE_REC_EEVENT;
		z.data = r.p;
		skip_fields(&r, types, n);
		z.data_len = (size_t)(r.p - z.data);
		break;
	case WIRE_REC_PRINTF:
		z.id = rd_varint(&r);
		z.count = rd_u8(&r);
		z.data = r.p;
		for (uint64_t i = 0; i < z.count && !r.bad; i++)
			rd_varint(&r);
		z.data_len = r.bad ? 0 : (size_t)(r.p - z.data);
		break;
	case WIRE_REC_LOST:
		z.count = rd_varint(&r);
		break;
	default:
		z.subtype = rd_u8(&r);
		z.data_len = (size_t)rd_varint(&r);
		z.data = r.p;
		rd_skip(&r, z.data_len);
		break;
	}
	if (r.bad)
		return WIRE_REC_EBAD;
	*out = z;
	*next = r.p;
	return WIRE_REC_OK;
}

int wire_rec_begin(struct wire_rec_iter *it, const uint8_t *body, size_t len,
		   wire_event_types_fn event_types, void *ctx)
{
	struct rd r = { body, body + len, 0 };

	it->ts = rd_varint(&r);
	it->first = it->p = r.p;
	it->end = body + len;
	it->error = r.bad ? WIRE_REC_EBAD : 0;
	it->event_types = event_types;
	it->ctx = ctx;
	for (unsigned i = 0; i < WIRE_CALLER_CACHE; i++)
		it->callers[i].site_plus1 = 0;
	return it->error;
}

/* The caller of the last kind-1 entry for 'site' before 'stop'. */
static int rescan_caller(const struct wire_rec_iter *it, uint64_t site,
			 const uint8_t *stop, uint64_t *caller)
{
	const uint8_t *p = it->first;
	struct wire_record r;
	int found = 0;

	while (p < stop && rec_parse(it, p, &r, &p) == WIRE_REC_OK) {
		if (r.kind == WIRE_REC_FUNC_CALLER && r.site == site) {
			*caller = r.caller;
			found = 1;
		}
	}
	return found;
}

int wire_rec_next(struct wire_rec_iter *it, struct wire_record *r)
{
	const uint8_t *at = it->p;
	int rc;

	if (it->error)
		return it->error;
	if (at >= it->end)
		return WIRE_REC_DONE;
	rc = rec_parse(it, at, r, &it->p);
	if (rc != WIRE_REC_OK) {
		it->error = rc;
		return rc;
	}
	it->ts += r->delta;
	r->ts = it->ts;
	if (r->kind == WIRE_REC_FUNC || r->kind == WIRE_REC_FUNC_CALLER) {
		unsigned slot = (unsigned)(r->site & (WIRE_CALLER_CACHE - 1));
		uint64_t key = r->site + 1;	/* site ~0 wraps to 0: never cached */

		if (r->kind == WIRE_REC_FUNC_CALLER) {
			it->callers[slot].site_plus1 = key;
			it->callers[slot].caller = r->caller;
		} else if (key && it->callers[slot].site_plus1 == key) {
			r->caller = it->callers[slot].caller;
			r->has_caller = 1;
		} else if (rescan_caller(it, r->site, at, &r->caller)) {
			r->has_caller = 1;
			it->callers[slot].site_plus1 = key;
			it->callers[slot].caller = r->caller;
		}
	}
	return WIRE_REC_OK;
}

int wire_arg_next(const uint8_t **p, const uint8_t *end, int64_t *v)
{
	uint64_t u;
	int n = *p < end ? wire_varint_get(*p, (size_t)(end - *p), &u) : -1;

	if (n < 0)
		return -1;
	*p += n;
	*v = wire_unzigzag(u);
	return 0;
}

/* ---- extension records and profile dumps ------------------------------- */

int wire_ext_parse(const struct wire_record *r, struct wire_ext *x)
{
	struct rd d;
	struct wire_ext z = { 0 };

	if (r->subtype < WIRE_EXT_ARGS || r->subtype > WIRE_EXT_TRIGGER)
		return 0;
	if (!r->data)	/* every known subtype has at least one byte */
		return -1;
	d = (struct rd){ r->data, r->data + r->data_len, 0 };
	z.subtype = r->subtype;
	switch (r->subtype) {
	case WIRE_EXT_ARGS:
		z.site = rd_varint(&d);
		z.count = rd_u8(&d);
		break;
	case WIRE_EXT_STACK:
		z.count = rd_u8(&d);
		break;
	case WIRE_EXT_TRIGGER:
		z.site = rd_varint(&d);
		z.action = rd_u8(&d);
		break;
	}
	z.values = d.p;
	z.end = d.end;
	/* Every value must be there before anyone reads one. */
	for (unsigned i = 0; i < z.count && !d.bad; i++)
		rd_varint(&d);
	if (d.bad)
		return -1;
	*x = z;
	return 1;
}

int wire_ext_value(struct wire_ext *x, uint64_t *v)
{
	int n = x->values < x->end ? wire_varint_get(x->values, (size_t)(x->end - x->values), v)
				   : -1;

	if (n < 0)
		return -1;
	x->values += n;
	return 0;
}

int wire_profile_begin(struct wire_profile_iter *it, const uint8_t *body, size_t len)
{
	struct rd d = { body, body + len, 0 };

	it->left = rd_varint(&d);
	it->p = d.p;
	it->end = d.end;
	if (d.bad) {
		it->left = 0;
		return WIRE_REC_EBAD;
	}
	return 0;
}

int wire_profile_next(struct wire_profile_iter *it, struct wire_profile_entry *e)
{
	struct rd d = { it->p, it->end, 0 };
	struct wire_profile_entry z;

	if (!it->left)
		return WIRE_REC_DONE;
	z.site = rd_varint(&d);
	z.calls = rd_varint(&d);
	z.total = rd_varint(&d);
	z.min = rd_varint(&d);
	z.max = rd_varint(&d);
	if (d.bad) {
		it->left = 0;
		it->p = it->end;
		return WIRE_REC_EBAD;
	}
	it->left--;
	it->p = d.p;
	*e = z;
	return WIRE_REC_OK;
}

/* ---- frames and escaping ---------------------------------------------- */

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

int wire_frame_parse(const uint8_t *payload, size_t len, struct wire_frame *f)
{
	struct rd r;
	const uint8_t *c;
	uint64_t body_len;

	if (len < 2 + 1 + 1 + WIRE_CRC_SIZE)
		return WIRE_DMG_SHORT;
	if (len > WIRE_MAX_PAYLOAD)
		return WIRE_DMG_OVERSIZE;
	c = payload + len - WIRE_CRC_SIZE;
	r = (struct rd){ payload + 2, c, 0 };
	if (wire_crc32(0, payload, len - WIRE_CRC_SIZE) !=
	    ((uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 |
	     (uint32_t)c[3] << 24))
		return WIRE_DMG_CRC;
	f->type = payload[0];
	f->cpu = payload[1];
	f->seq = rd_varint(&r);
	body_len = rd_varint(&r);
	if (r.bad || body_len != (uint64_t)(r.end - r.p))
		return WIRE_DMG_LENGTH;
	f->body = r.p;
	f->body_len = (size_t)body_len;
	return WIRE_DMG_NONE;
}

static int needs_escape(uint8_t b)
{
	return b == WIRE_STX || b == WIRE_ETX || b == WIRE_DLE;
}

size_t wire_escape_bytes(uint8_t *out, const uint8_t *p, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (needs_escape(p[i])) {
			out[k++] = WIRE_DLE;
			out[k++] = p[i] ^ WIRE_ESCAPE_XOR;
		} else {
			out[k++] = p[i];
		}
	}
	return k;
}

size_t wire_escape(uint8_t *out, size_t cap, const uint8_t *payload, size_t len)
{
	size_t need = 2;

	for (size_t i = 0; i < len; i++)
		need += 1 + (size_t)needs_escape(payload[i]);
	if (need > cap)
		return 0;
	out[0] = WIRE_STX;
	wire_escape_bytes(out + 1, payload, len);
	out[need - 1] = WIRE_ETX;
	return need;
}

/* ---- the stream decoder ------------------------------------------------ */

void wire_dec_init(struct wire_dec *d, uint8_t *buf, size_t cap)
{
	*d = (struct wire_dec){ 0 };
	d->buf = buf;
	d->cap = cap < WIRE_MAX_PAYLOAD ? cap : WIRE_MAX_PAYLOAD;
}

static void dec_drop(struct wire_dec *d, enum wire_damage why, struct wire_ev *ev)
{
	d->damaged++;
	d->by_reason[why]++;
	ev->type = WIRE_EV_DAMAGED;
	ev->damage = why;
}

static void dec_open(struct wire_dec *d)
{
	d->in_frame = 1;
	d->escaped = 0;
	d->damage = WIRE_DMG_NONE;
	d->len = 0;
}

/* ETX: the frame is complete; report it or why it was dropped. */
static void dec_close(struct wire_dec *d, struct wire_ev *ev)
{
	int why = d->damage;

	d->in_frame = 0;
	if (!why)
		why = wire_frame_parse(d->buf, d->len, &ev->frame);
	if (why) {
		dec_drop(d, (enum wire_damage)why, ev);
		return;
	}
	d->frames++;
	ev->type = WIRE_EV_FRAME;
	ev->payload = d->buf;
	ev->payload_len = d->len;
}

static void dec_append(struct wire_dec *d, uint8_t b)
{
	if (d->len < d->cap)
		d->buf[d->len++] = b;
	else if (!d->damage)
		d->damage = WIRE_DMG_OVERSIZE;
}

size_t wire_dec_feed(struct wire_dec *d, const uint8_t *in, size_t n, struct wire_ev *ev)
{
	size_t i = 0;

	ev->type = WIRE_EV_NONE;
	while (i < n) {
		uint8_t b = in[i];

		if (!d->in_frame) {
			size_t j = i;

			while (j < n && !needs_escape(in[j]))
				j++;
			if (j > i) {
				ev->type = WIRE_EV_TEXT;
				ev->text = in + i;
				ev->text_len = j - i;
				d->text_bytes += j - i;
				return j;
			}
			if (b == WIRE_STX)
				dec_open(d);
			i++;	/* a stray ETX or DLE is dropped */
			continue;
		}
		i++;
		if (b == WIRE_STX) {
			dec_drop(d, d->damage ? (enum wire_damage)d->damage : WIRE_DMG_CUT, ev);
			dec_open(d);
			return i;
		}
		if (b == WIRE_ETX) {
			if (d->escaped && !d->damage)
				d->damage = WIRE_DMG_ESCAPE;
			dec_close(d, ev);
			return i;
		}
		if (d->escaped) {
			d->escaped = 0;
			if (!needs_escape(b ^ WIRE_ESCAPE_XOR)) {
				if (!d->damage)
					d->damage = WIRE_DMG_ESCAPE;
				continue;
			}
			dec_append(d, b ^ WIRE_ESCAPE_XOR);
		} else if (b == WIRE_DLE) {
			d->escaped = 1;
		} else {
			dec_append(d, b);
		}
	}
	return n;
}

int wire_dec_finish(struct wire_dec *d, struct wire_ev *ev)
{
	ev->type = WIRE_EV_NONE;
	if (!d->in_frame)
		return 0;
	d->in_frame = 0;
	dec_drop(d, d->damage ? (enum wire_damage)d->damage : WIRE_DMG_CUT, ev);
	return 1;
}
