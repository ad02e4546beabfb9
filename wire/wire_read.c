/*
 * wire/wire_read.c: reading data-block bodies (records, extension
 * records), bounds-checked on untrusted bytes; shared by the kernel
 * (dumps, tests) and the host tool. Whole frames of the other types
 * (profile dumps, end of stream, the previous boot, the frame header)
 * are wire_frames.c. Freestanding.
 */
#include "wire.h"
#include "wire_rd.h"

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

/* The site of a kind 2 or 3: two bytes from version 4, a varint before. */
static uint64_t rd_site(struct rd *r, int slots)
{
	return slots ? rd_u16le(r) : rd_varint(r);
}

/* Parses one record at it->p without resolving kind-0 callers; a
 * version-4 kind 0 gets its slot as its site. */
static int rec_parse(const struct wire_rec_iter *it, const uint8_t *p,
		     struct wire_record *out, const uint8_t **next)
{
	struct rd r = { p, it->end, 0 };
	struct wire_record z = { 0 };
	uint8_t h = rd_u8(&r);
	const uint8_t *types;
	int slots = it->version >= WIRE_VERSION_SLOTS;
	int n;

	z.kind = h >> 5;
	z.delta = h & 31;
	if (z.delta == WIRE_DELTA_ESCAPE)
		z.delta = rd_varint(&r);
	switch (z.kind) {
	case WIRE_REC_FUNC:
		z.site = slots ? rd_u8(&r) : rd_varint(&r);
		break;
	case WIRE_REC_FUNC_CALLER:
		z.site = rd_varint(&r);
		z.caller = rd_varint(&r);
		z.has_caller = 1;
		break;
	case WIRE_REC_EXIT:
		z.site = rd_site(&r, slots);
		z.duration = rd_varint(&r);
		z.flags = rd_u8(&r);
		if (z.flags & WIRE_EXIT_HAS_RETVAL)
			z.retval = wire_unzigzag(rd_varint(&r));
		break;
	case WIRE_REC_GRAPH_ENTRY:
		z.site = rd_site(&r, slots);
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
	case WIRE_REC_LOST:	/* WIRE_KIND_RETURN from version 5 */
		if (it->version >= WIRE_VERSION_RETURN)
			z.kind = WIRE_REC_EXIT, z.paired = 1;	/* no fields */
		else
			z.count = rd_varint(&r);
		break;
	default:
		z.subtype = rd_u8(&r);
		z.data_len = (size_t)rd_varint(&r);
		z.data = r.p;
		rd_skip(&r, z.data_len);
		if (!r.bad && z.subtype == WIRE_EXT_LOST &&
		    it->version >= WIRE_VERSION_RETURN) {
			struct rd c = { z.data, z.data + z.data_len, 0 };

			z.count = rd_varint(&c);
			if (c.bad)
				return WIRE_REC_EBAD;
			z.kind = WIRE_REC_LOST;
			z.subtype = 0;
			z.data = NULL;
			z.data_len = 0;
		}
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
	it->first_event = rd_varint(&r);
	it->first = it->p = r.p;
	it->end = body + len;
	it->version = WIRE_VERSION;
	it->error = r.bad ? WIRE_REC_EBAD : 0;
	it->event_types = event_types;
	it->ctx = ctx;
	for (unsigned i = 0; i < WIRE_CALLER_CACHE; i++)
		it->callers[i].site_plus1 = 0;
	it->open = 0;
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

/* Version 5 (2.1): a kind 3 opens an entry of the block, a return
 * closes the innermost open one and takes its site and duration from
 * it. Nonzero (it->error set) for a return with no open entry kept. */
static int pair_graph(struct wire_rec_iter *it, struct wire_record *r)
{
	if (r->kind == WIRE_REC_GRAPH_ENTRY) {
		if (it->open < WIRE_GRAPH_OPEN) {
			it->open_site[it->open] = (uint16_t)r->site;
			it->open_ts[it->open] = r->ts;
		}
		it->open += it->open != UINT32_MAX;
	} else if (r->kind == WIRE_REC_EXIT && r->paired) {
		if (!it->open || it->open > WIRE_GRAPH_OPEN) {
			it->error = WIRE_REC_EBAD;
			return 1;
		}
		it->open--;
		r->site = it->open_site[it->open];
		r->duration = r->ts - it->open_ts[it->open];
	}
	return 0;
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
	if (r->kind == WIRE_REC_FUNC && it->version >= WIRE_VERSION_SLOTS) {
		/* The slot a kind 1 of this block filled; an empty one is
		 * not a record any writer makes. */
		unsigned slot = (unsigned)r->site;

		if (!it->callers[slot].site_plus1) {
			it->error = WIRE_REC_EBAD;
			return it->error;
		}
		r->site = it->callers[slot].site_plus1 - 1;
		r->caller = it->callers[slot].caller;
		r->has_caller = 1;
	}
	it->ts += r->delta;
	r->ts = it->ts;
	if (it->version >= WIRE_VERSION_RETURN && pair_graph(it, r))
		return it->error;
	if (it->version >= WIRE_VERSION_SLOTS) {
		if (r->kind == WIRE_REC_FUNC_CALLER) {
			unsigned slot = (unsigned)(r->site & (WIRE_CALLER_CACHE - 1));

			it->callers[slot].site_plus1 = r->site + 1;
			it->callers[slot].caller = r->caller;
		}
	} else if (r->kind == WIRE_REC_FUNC || r->kind == WIRE_REC_FUNC_CALLER) {
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

	if (r->subtype < WIRE_EXT_ARGS || r->subtype > WIRE_EXT_STRING)
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
	case WIRE_EXT_OUTCOME:
		z.outcome = rd_u8(&d);
		z.status = wire_unzigzag(rd_varint(&d));
		break;
	case WIRE_EXT_STRING:	/* count: its length; values: its bytes */
		z.site = rd_varint(&d);
		z.reg = rd_u8(&d);
		z.str_flags = rd_u8(&d);
		z.count = rd_u8(&d);
		if (!d.bad && (size_t)(d.end - d.p) < z.count)
			return -1;
		z.values = d.p;
		z.end = d.p + z.count;
		*x = z;
		return d.bad ? -1 : 1;
	case WIRE_EXT_PROBE:
		z.probe = rd_varint(&d);
		z.count = rd_u8(&d);
		z.faulted = rd_u8(&d);
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
