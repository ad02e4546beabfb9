/*
 * tools/baretrace/decode/meta.c: metadata frames (docs/wire.md section 2.2).
 *
 * The target repeats its metadata every few hundred frames, so parsing
 * merges: a repeated definition changes nothing, a changed tracepoint
 * schema gets a new slot (exports that number event classes by slot
 * stay consistent) and the old one is marked replaced. Both tables are
 * capped so an endless stream of new definitions cannot grow them.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../wire/wire.h"
#include "../base/util.h"

#include "decode.h"

#define MAX_DEFS	4096

struct cur {
	const uint8_t *p, *end;
	int bad;
};

static uint64_t get_varint(struct cur *c)
{
	uint64_t v = 0;
	int n = c->bad ? -1 : wire_varint_get(c->p, (size_t)(c->end - c->p), &v);

	if (n < 0)
		c->bad = 1;
	else
		c->p += n;
	return v;
}

static uint8_t get_u8(struct cur *c)
{
	if (c->bad || c->p >= c->end) {
		c->bad = 1;
		return 0;
	}
	return *c->p++;
}

/* A varint-length string, copied and NUL-terminated; NULL if bad. */
static char *get_str(struct cur *c)
{
	uint64_t n = get_varint(c);
	char *s;

	if (c->bad || n > (uint64_t)(c->end - c->p)) {
		c->bad = 1;
		return NULL;
	}
	s = bt_strndup(c->p, (size_t)n);
	c->p += n;
	return s;
}

static void free_schema(struct bt_schema *s)
{
	for (unsigned i = 0; i < s->nfields; i++) {
		free(s->fields[i].name);
		free(s->fields[i].format);
	}
	free(s->fields);
	free(s->types);
	free(s->name);
}

static int same_schema(const struct bt_schema *a, const struct bt_schema *b)
{
	if (a->id != b->id || strcmp(a->name, b->name) || a->nfields != b->nfields)
		return 0;
	for (unsigned i = 0; i < a->nfields; i++)
		if (a->types[i] != b->types[i] || strcmp(a->fields[i].name, b->fields[i].name) ||
		    strcmp(a->fields[i].format, b->fields[i].format))
			return 0;
	return 1;
}

static int parse_schema(struct bt_meta *m, struct cur *c)
{
	struct bt_schema s = { 0 };

	s.id = get_varint(c);
	s.name = get_str(c);
	s.nfields = get_u8(c);
	s.fields = bt_alloc(sizeof(*s.fields) * (s.nfields + 1));
	s.types = bt_alloc(s.nfields + 1);
	for (unsigned i = 0; i < s.nfields && !c->bad; i++) {
		s.fields[i].name = get_str(c);
		s.types[i] = s.fields[i].type = get_u8(c);
		s.fields[i].format = get_str(c);
		if (s.types[i] < WIRE_FIELD_U8 || s.types[i] > WIRE_FIELD_STRING)
			c->bad = 1;
	}
	if (c->bad) {
		free_schema(&s);
		return -1;
	}
	struct bt_schema *old = (struct bt_schema *)bt_meta_schema(m, s.id);

	if ((old && same_schema(old, &s)) || m->nschemas >= MAX_DEFS) {
		free_schema(&s);
		return 0;
	}
	if (old)
		old->replaced = 1;
	m->schemas = bt_grow(m->schemas, &m->schemas_cap, m->nschemas + 1, sizeof(s));
	m->schemas[m->nschemas++] = s;
	return 0;
}

static int parse_format(struct bt_meta *m, struct cur *c)
{
	uint64_t id = get_varint(c);
	char *text = get_str(c);

	if (c->bad)
		return -1;
	for (size_t i = 0; i < m->nformats; i++) {
		if (m->formats[i].id == id) {
			free(m->formats[i].text);
			m->formats[i].text = text;
			return 0;
		}
	}
	if (m->nformats >= MAX_DEFS) {
		free(text);
		return 0;
	}
	m->formats = bt_grow(m->formats, &m->formats_cap, m->nformats + 1, sizeof(*m->formats));
	m->formats[m->nformats++] = (struct bt_format){ id, text };
	return 0;
}

static void free_probe(struct bt_probe *p)
{
	free(p->name);
	for (unsigned i = 0; i < p->nfetch; i++)
		free(p->fetch[i]);
}

/* Key 10: probe varint, name, offset varint, count u8 (bit 7: a return
 * probe), each fetch a name and a type u8. Replaces the probe number's
 * earlier schema. */
static int parse_probe(struct bt_meta *m, struct cur *c)
{
	struct bt_probe p = { 0 };

	p.id = get_varint(c);
	p.name = get_str(c);
	p.offset = get_varint(c);
	p.nfetch = get_u8(c);
	p.ret = (p.nfetch & WIRE_PROBE_RETURN) != 0;
	p.nfetch &= ~(unsigned)WIRE_PROBE_RETURN;
	if (p.nfetch > BT_PROBE_FETCH_MAX)
		c->bad = 1;
	for (unsigned i = 0; i < p.nfetch && !c->bad; i++) {
		p.fetch[i] = get_str(c);
		p.type[i] = get_u8(c);
		if (!((p.type[i] >= WIRE_FIELD_U8 && p.type[i] <= WIRE_FIELD_S64) ||
		      p.type[i] == BT_PROBE_X32 || p.type[i] == BT_PROBE_X64))
			c->bad = 1;
	}
	if (c->bad) {
		if (p.nfetch > BT_PROBE_FETCH_MAX)
			p.nfetch = 0;
		free_probe(&p);
		return -1;
	}
	for (size_t i = 0; i < m->nprobes; i++) {
		if (m->probes[i].id == p.id) {
			free_probe(&m->probes[i]);
			m->probes[i] = p;
			return 0;
		}
	}
	if (m->nprobes >= MAX_DEFS) {
		free_probe(&p);
		return 0;
	}
	m->probes = bt_grow(m->probes, &m->probes_cap, m->nprobes + 1, sizeof(p));
	m->probes[m->nprobes++] = p;
	return 0;
}

const struct bt_probe *bt_meta_probe(const struct bt_meta *m, uint64_t id)
{
	for (size_t i = 0; i < m->nprobes; i++)
		if (m->probes[i].id == id)
			return &m->probes[i];
	return NULL;
}

int bt_meta_parse(struct bt_meta *m, const uint8_t *body, size_t len)
{
	struct cur c = { body, body + len, 0 };

	m->seen = 1;
	if (!m->version)
		m->version = WIRE_VERSION;	/* a frame without key 1 */
	while (c.p < c.end && !c.bad) {
		uint64_t key = get_varint(&c);

		switch (key) {
		case WIRE_META_VERSION:
			m->version = get_varint(&c);
			m->freq = m->ncpus = m->nsites = m->text_base = 0;
			m->image_hash = 0;
			m->have_hash = 0;
			m->sets++;
			break;
		case WIRE_META_FREQ:
			m->freq = get_varint(&c);
			break;
		case WIRE_META_NCPUS:
			m->ncpus = get_varint(&c);
			break;
		case WIRE_META_IMAGE_HASH:
			if (c.end - c.p < 4) {
				c.bad = 1;
				break;
			}
			m->image_hash = (uint32_t)c.p[0] | (uint32_t)c.p[1] << 8 |
					(uint32_t)c.p[2] << 16 | (uint32_t)c.p[3] << 24;
			m->have_hash = 1;
			c.p += 4;
			break;
		case WIRE_META_NSITES:
			m->nsites = get_varint(&c);
			break;
		case WIRE_META_TEXT_BASE:
			m->text_base = get_varint(&c);
			break;
		case WIRE_META_EVENT_SCHEMA:
			c.bad |= parse_schema(m, &c) != 0;
			break;
		case WIRE_META_FORMAT:
			c.bad |= parse_format(m, &c) != 0;
			break;
		case WIRE_META_PROBE:
			c.bad |= parse_probe(m, &c) != 0;
			break;
		case WIRE_META_APP_NAME: {
			char *app = get_str(&c);

			if (app) {
				free(m->app);
				m->app = app;
			}
			break;
		}
		case WIRE_META_BOARD_NAME: {
			char *board = get_str(&c);

			if (board) {
				free(m->board);
				m->board = board;
			}
			break;
		}
		default:	/* "values are varints unless said" */
			get_varint(&c);
			break;
		}
	}
	return c.bad ? -1 : 0;
}

const struct bt_schema *bt_meta_schema(const struct bt_meta *m, uint64_t id)
{
	for (size_t i = m->nschemas; i-- > 0;)
		if (m->schemas[i].id == id && !m->schemas[i].replaced)
			return &m->schemas[i];
	return NULL;
}

const char *bt_meta_format(const struct bt_meta *m, uint64_t id)
{
	for (size_t i = 0; i < m->nformats; i++)
		if (m->formats[i].id == id)
			return m->formats[i].text;
	return NULL;
}

void bt_meta_free(struct bt_meta *m)
{
	for (size_t i = 0; i < m->nschemas; i++)
		free_schema(&m->schemas[i]);
	for (size_t i = 0; i < m->nformats; i++)
		free(m->formats[i].text);
	for (size_t i = 0; i < m->nprobes; i++)
		free_probe(&m->probes[i]);
	free(m->schemas);
	free(m->formats);
	free(m->probes);
	free(m->app);
	free(m->board);
	memset(m, 0, sizeof(*m));
}
