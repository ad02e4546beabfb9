/*
 * tools/baretrace/output/export/chrome_fields.c: a tracepoint record as Chrome
 * trace-event JSON (export_chrome.c writes the rest). The event's "cat"
 * is "tracepoint,SYSTEM" for a "system:event" name, so a viewer can
 * filter on either; its fields become typed "args" members: integers as
 * JSON numbers, strings as strings, pointers as "0x..." strings (a
 * JavaScript number holds only 53 bits, and an address is no quantity).
 * With --counters every integer field also feeds a counter track ("C"
 * event) named "system:event.field", which Perfetto draws as a graph.
 */
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../decode/decode.h"
#include "../../decode/units.h"
#include "../render/render.h"

#include "export.h"

/* One field: its value as a number or as bytes (a string's). */
struct field {
	uint8_t type;
	int64_t i;
	const uint8_t *str;
	size_t len;
};

/* The next field of a record; 0, or -1 if the record ends early (the
 * decoder checked every record it passes on, so only a bug gets here). */
static int next_field(const uint8_t **p, const uint8_t *end, struct field *f)
{
	uint64_t u = 0;
	int k = *p < end ? wire_varint_get(*p, (size_t)(end - *p), &u) : -1;

	if (k < 0)
		return -1;
	*p += k;
	if (f->type != WIRE_FIELD_STRING) {
		f->i = wire_unzigzag(u);
		return 0;
	}
	if (u > (uint64_t)(end - *p))
		return -1;
	f->str = *p;
	f->len = (size_t)u;
	*p += u;
	return 0;
}

static void json_field(FILE *f, const struct field *v)
{
	if (v->type == WIRE_FIELD_STRING)
		bt_json_strn(f, (const char *)v->str, v->len);
	else if (v->type == WIRE_FIELD_PTR)
		fprintf(f, "\"0x%llx\"", (unsigned long long)v->i);
	else if (v->type >= WIRE_FIELD_S8)
		fprintf(f, "%lld", (long long)v->i);
	else
		fprintf(f, "%llu", (unsigned long long)v->i);
}

void bt_chrome_category(const char *event, char *buf, size_t n)
{
	const char *colon = strchr(event, ':');

	if (colon && colon > event)
		snprintf(buf, n, "tracepoint,%.*s", (int)(colon - event), event);
	else
		snprintf(buf, n, "tracepoint");
}

int bt_chrome_fields(FILE *f, struct bt_decoder *d, const struct wire_record *r)
{
	const struct bt_schema *sc = bt_meta_schema(&d->meta, r->id);
	const uint8_t *p = r->data, *end = r->data + r->data_len;
	struct field v;

	if (!sc)
		return -1;
	fputs(",\"args\":{", f);
	for (unsigned i = 0; i < sc->nfields; i++) {
		v.type = sc->types[i];
		if (next_field(&p, end, &v))
			break;
		fputs(i ? "," : "", f);
		bt_json_str(f, sc->fields[i].name);
		fputc(':', f);
		json_field(f, &v);
	}
	fputs("}", f);
	return 0;
}

void bt_chrome_counters(FILE *f, struct bt_decoder *d, const struct wire_record *r,
			unsigned tid)
{
	const struct bt_schema *sc = bt_meta_schema(&d->meta, r->id);
	const uint8_t *p = r->data, *end = r->data + r->data_len;
	struct field v;
	char name[160];

	for (unsigned i = 0; sc && i < sc->nfields; i++) {
		v.type = sc->types[i];
		if (next_field(&p, end, &v))
			break;
		if (v.type == WIRE_FIELD_STRING || v.type == WIRE_FIELD_PTR)
			continue;
		snprintf(name, sizeof(name), "%s.%s", sc->name, sc->fields[i].name);
		fputs(",\n{\"name\":", f);
		bt_json_str(f, name);
		fprintf(f, ",\"cat\":\"counter\",\"ph\":\"C\",\"pid\":1,\"tid\":%u,\"ts\":", tid);
		bt_json_ns(f, bt_ticks_ns(r->ts, bt_freq(d)));
		fputs(",\"args\":{", f);
		bt_json_str(f, sc->fields[i].name);
		fputc(':', f);
		json_field(f, &v);
		fputs("}}", f);
	}
}
