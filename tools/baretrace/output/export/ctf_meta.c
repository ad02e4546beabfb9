/*
 * tools/baretrace/output/export/ctf_meta.c: the TSDL metadata of a CTF 1.8
 * export (export_ctf.c writes the streams it describes). Fixed event
 * classes for the record kinds and the known extension records (arguments,
 * stack traces, fired triggers), then one class per tracepoint schema slot,
 * its fields named as the schema says (prefixed '_', which CTF readers
 * strip, so a field may be called like a TSDL keyword), and one class per
 * probe schema, "probe:NAME" with its fetches by name.
 *
 * The clock counts nanoseconds (freq 1000000000, offset 0: time since
 * the counter started, as the target's report shows it); its description
 * names the counter and its real frequency. The env says domain "ust"
 * and tracer "lttng-ust" 2.13 because Trace Compass picks its LTTng-UST
 * trace type, and with it the call-stack and flame-chart views, by them;
 * tracer_name alone would be a lie, so "producer" says who wrote it.
 */
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../decode/decode.h"
#include "../../decode/units.h"
#include "../../input/tracefile.h"
#include "../render/render.h"

#include "export.h"

static const char prologue[] =
	"/* CTF 1.8 */\n\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; base = 16; } := uint64_hex_t;\n"
	"typealias integer { size = 32; align = 8; signed = true; } := int32_t;\n"
	"typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n\n";

static const char stream_and_events[] =
	"typealias integer { size = 64; align = 8; signed = false; "
	"map = clock.cntvct.value; } := uint64_clock_t;\n\n"
	"stream {\n"
	"\tid = 0;\n"
	"\tpacket.context := struct {\n"
	"\t\tuint64_clock_t timestamp_begin;\n"
	"\t\tuint64_clock_t timestamp_end;\n"
	"\t\tuint64_t content_size;\n"
	"\t\tuint64_t packet_size;\n"
	"\t\tuint64_t packet_seq_num;\n"
	"\t\tuint32_t cpu_id;\n"
	"\t};\n"
	"\tevent.header := struct {\n"
	"\t\tuint32_t id;\n"
	"\t\tuint64_clock_t timestamp;\n"
	"\t};\n"
	"\tevent.context := struct {\n"
	"\t\tint32_t _vpid;\n"
	"\t\tint32_t _vtid;\n"
	"\t\tstring _procname;\n"
	"\t};\n"
	"};\n\n"
	"event {\n\tname = \"function\";\n\tid = 0;\n\tstream_id = 0;\n"
	"\tfields := struct {\n\t\tstring func;\n\t\tstring caller;\n"
	"\t\tuint64_t site;\n\t\tuint64_hex_t caller_offset;\n\t};\n};\n\n"
	"event {\n\tname = \"lttng_ust_cyg_profile:func_entry\";\n\tid = 1;\n\tstream_id = 0;\n"
	"\tfields := struct {\n\t\tuint64_hex_t addr;\n\t\tuint64_hex_t call_site;\n"
	"\t\tstring func;\n\t\tuint64_t depth;\n\t};\n};\n\n"
	"event {\n\tname = \"lttng_ust_cyg_profile:func_exit\";\n\tid = 2;\n\tstream_id = 0;\n"
	"\tfields := struct {\n\t\tuint64_hex_t addr;\n\t\tuint64_hex_t call_site;\n"
	"\t\tstring func;\n\t\tuint64_t duration_ns;\n"
	"\t\tuint8_t has_retval;\n\t\tint64_t retval;\n\t\tstring retval_typed;\n\t};\n};\n\n"
	"event {\n\tname = \"lost_events\";\n\tid = 3;\n\tstream_id = 0;\n"
	"\tfields := struct {\n\t\tuint64_t count;\n\t};\n};\n\n"
	"event {\n\tname = \"printf\";\n\tid = 4;\n\tstream_id = 0;\n"
	"\tfields := struct {\n\t\tstring msg;\n\t};\n};\n\n"
	"event {\n\tname = \"func_args\";\n\tid = 6;\n\tstream_id = 0;\n"
	"\tfields := struct {\n\t\tstring func;\n\t\tuint8_t nargs;\n"
	"\t\tuint64_hex_t args[nargs];\n\t\tstring typed;\n\t};\n};\n\n"
	"event {\n\tname = \"stack_trace\";\n\tid = 7;\n\tstream_id = 0;\n"
	"\tfields := struct {\n\t\tstring frames;\n\t\tuint8_t depth;\n"
	"\t\tuint64_hex_t return_offsets[depth];\n\t};\n};\n\n"
	"event {\n\tname = \"trigger\";\n\tid = 8;\n\tstream_id = 0;\n"
	"\tfields := struct {\n\t\tstring func;\n\t\tstring action;\n"
	"\t\tuint8_t action_id;\n\t};\n};\n\n"
	"event {\n\tname = \"run_outcome\";\n\tid = 9;\n\tstream_id = 0;\n"
	"\tfields := struct {\n\t\tstring outcome;\n\t\tint64_t status;\n\t};\n};\n\n";

/* A TSDL string literal: quotes and backslashes escaped, control and
 * non-ASCII bytes dropped to '?'. */
static void tsdl_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else
			fputc(*p >= 0x20 && *p < 0x7f ? *p : '?', f);
	}
	fputc('"', f);
}

/* "_" + the name with anything but [A-Za-z0-9_] as '_', made unique in
 * its schema by appending the field's index when needed. */
static void field_name(char *out, size_t n, const struct bt_schema *sc, unsigned i)
{
	size_t k = 0;

	out[k++] = '_';
	for (const char *p = sc->fields[i].name; *p && k + 8 < n; p++)
		out[k++] = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			   (*p >= '0' && *p <= '9') ? *p : '_';
	out[k] = 0;
	for (unsigned j = 0; j < i; j++) {
		char other[80];

		field_name(other, sizeof(other), sc, j);
		if (!strcmp(other, out)) {
			snprintf(out + k, n - k, "_%u", i);
			break;
		}
	}
}

static void probe_classes(FILE *f, const struct bt_decoder *d)
{
	for (size_t i = 0; i < d->meta.nprobes; i++) {
		const struct bt_probe *p = &d->meta.probes[i];
		char name[96], names[BT_PROBE_FETCH_MAX][BT_PROBE_FIELD_MAX];

		snprintf(name, sizeof(name), "probe:%s", p->name);
		fprintf(f, "event {\n\tname = ");
		tsdl_str(f, name);
		fprintf(f, ";\n\tid = %zu;\n\tstream_id = 0;\n\tfields := struct {\n"
			"\t\tuint8_t _faulted;\n", BT_CTF_FIRST_PROBE + i);
		bt_probe_field_names(p, names);	/* '_' first: TSDL keywords (field_name) */
		for (unsigned k = 0; k < p->nfetch; k++) {
			uint8_t t = p->type[k];

			fprintf(f, "\t\t%s _%s;\n", t == BT_PROBE_X32 || t == BT_PROBE_X64 ?
				"uint64_hex_t" : t >= WIRE_FIELD_S8 ? "int64_t" : "uint64_t", names[k]);
		}
		fprintf(f, "\t};\n};\n\n");
	}
}

void bt_ctf_metadata(FILE *f, struct bt_decoder *d, const uint8_t uuid[16])
{
	fputs(prologue, f);
	fprintf(f, "trace {\n\tmajor = 1;\n\tminor = 8;\n\tuuid = \"");
	for (int i = 0; i < 16; i++)
		fprintf(f, "%s%02x", i == 4 || i == 6 || i == 8 || i == 10 ? "-" : "", uuid[i]);
	fprintf(f, "\";\n\tbyte_order = le;\n"
		"\tpacket.header := struct {\n\t\tuint32_t magic;\n\t\tuint8_t uuid[16];\n"
		"\t\tuint32_t stream_id;\n\t};\n};\n\n");
	fprintf(f, "env {\n\tdomain = \"ust\";\n\ttracer_name = \"lttng-ust\";\n"
		"\ttracer_major = 2;\n\ttracer_minor = 13;\n\tproducer = \"baretrace\";\n"
		"\twire_format_version = %llu;\n\tcpus = %llu;\n\timage_hash = \"0x%08x\";\n};\n\n",
		(unsigned long long)(d->meta.version ? d->meta.version : WIRE_VERSION),
		(unsigned long long)d->meta.ncpus, d->meta.image_hash);
	fprintf(f, "clock {\n\tname = cntvct;\n"
		"\tdescription = \"nanoseconds from the Arm generic timer virtual count "
		"(CNTVCT) at %llu Hz%s\";\n"
		"\tfreq = 1000000000;\n\tprecision = %llu;\n\toffset_s = 0;\n\toffset = 0;\n"
		"\tabsolute = false;\n};\n\n", (unsigned long long)bt_freq(d),
		d->meta.freq ? "" : " (frequency unknown, assumed)",
		(unsigned long long)(bt_ticks_ns(1, bt_freq(d)) ? bt_ticks_ns(1, bt_freq(d)) : 1));
	fputs(stream_and_events, f);
	for (size_t i = 0; i < d->meta.nschemas; i++) {
		const struct bt_schema *sc = &d->meta.schemas[i];

		fprintf(f, "event {\n\tname = ");
		tsdl_str(f, sc->name);
		fprintf(f, ";\n\tid = %zu;\n\tstream_id = 0;\n\tfields := struct {\n",
			BT_CTF_FIRST_TRACEPOINT + i);
		for (unsigned k = 0; k < sc->nfields; k++) {
			char name[80];
			uint8_t t = sc->types[k];

			field_name(name, sizeof(name), sc, k);
			fprintf(f, "\t\t%s %s;\n", t == WIRE_FIELD_STRING ? "string" :
				t == WIRE_FIELD_PTR ? "uint64_hex_t" :
				t >= WIRE_FIELD_S8 ? "int64_t" : "uint64_t", name);
		}
		if (!sc->nfields)	/* TSDL wants a field; a zero-size one */
			fprintf(f, "\t\tstruct { } _none;\n");
		fprintf(f, "\t};\n};\n\n");
	}
	probe_classes(f, d);
}

/* CRCs of the trace file's bytes, laid out as an RFC 4122 UUID. */
void bt_ctf_uuid(const char *trace, uint8_t uuid[16])
{
	static uint8_t buf[65536];
	FILE *f = bt_file_open(trace);
	uint32_t h = 0;
	size_t n;

	while ((n = fread(buf, 1, sizeof(buf), f)))
		h = wire_crc32(h, buf, n);
	fclose(f);
	for (int i = 0; i < 4; i++) {
		h = wire_crc32(h, &i, sizeof(i));
		memcpy(uuid + 4 * i, &h, 4);
	}
	uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x40);	/* RFC 4122 version 4 layout */
	uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80);
}
