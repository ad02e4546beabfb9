/*
 * tools/baretrace/output/render/render.h: the lowest output layer, what
 * every output writes records' values with: tracepoint fields and
 * trace_printf text (render.c), extension records (render_ext.c),
 * arguments and return values by name and type (typed.c), JSON pieces
 * (json.c). It writes no file and runs no command.
 */
#ifndef TOOLS_BARETRACE_OUTPUT_RENDER_H
#define TOOLS_BARETRACE_OUTPUT_RENDER_H
#include "../../../../wire/wire.h"
#include "../../decode/decode.h"
#include "../../model/model.h"

/* ---- render.c ---------------------------------------------------------- */

/* A tracepoint record's fields as "a=1 b=str"; returns 0 or -1. */
int bt_fmt_event(struct bt_decoder *d, const struct wire_record *r, char *buf, size_t n,
		 const char **name);
/* A trace_printf record rendered through its format string. */
void bt_fmt_printf(struct bt_decoder *d, const struct wire_record *r, char *buf, size_t n);

/* ---- render_ext.c ------------------------------------------------------ */

#define BT_ARGS_SHOWN	255	/* an arguments record holds at most this many */

/* "traceoff", or "action#N" written into buf for one this tool does not know. */
const char *bt_trigger_action(uint8_t action, char *buf, size_t n);
/* Argument values as "0x1<sep>0x2", truncated to cap. */
void bt_fmt_arg_values(const int64_t *v, unsigned n, const char *sep, char *buf, size_t cap);
/* A probe record (subtype 5) as "probe NAME: f1=v1 f2=v2", by the schema
 * the metadata holds now (read it when the record is read: a probe
 * number is reused); "probe #N: arg1=0x.." without one. */
void bt_fmt_probe(const struct bt_decoder *d, const struct wire_ext *x, char *buf, size_t cap);
/* One fetched value as its type says: decimal, 0x hex; an unreadable
 * one (its bit in the record's mask) by its reason, the value: 0
 * "(fault)", else "(unreadable)" (not RAM, never read). */
void bt_fmt_probe_value(uint8_t type, int64_t v, int unreadable, char *buf, size_t n);
#define BT_PROBE_FIELD_MAX	72
/* The names of p's fetches in the report and every export: words, each
 * distinct and none an export's own field. */
void bt_probe_field_names(const struct bt_probe *p, char (*names)[BT_PROBE_FIELD_MAX]);
/* report's line(s) for an extension record on its own: "[000] ts: ..." */
void bt_print_ext(struct bt_decoder *d, unsigned cpu, const char *ts, struct wire_ext *x);

/* ---- typed.c: arguments and return values by name and type ------------- */

/* One register's value as type t prints it: "-22", "true", "MODE_FAST", "{...}". */
void bt_typed_value(const struct bt_ctype *t, uint64_t raw, char *buf, size_t n);
/* A string an argument register points to (docs/wire.md 2.6 subtype 6). */
struct bt_argstr {
	int have;
	const uint8_t *bytes;
	unsigned len;
	uint8_t flags;		/* WIRE_STR_* */
};
/* The strings recorded with one call's arguments, kept by an exporter
 * until it writes the call (export_chrome.c). */
struct bt_strs {
	uint8_t have;			/* bit r: register r's string came */
	uint8_t flags[8], len[8];
	uint8_t bytes[8][32];		/* the wire's at most 32 */
};
/* Adds a parsed subtype-6 record to *s (allocated on first use). */
void bt_strs_add(struct bt_strs **s, const struct wire_ext *x);
/* *s as the argstr array bt_typed_* take (all absent if s is NULL). */
void bt_strs_view(const struct bt_strs *s, struct bt_argstr out[8]);
/* As a C string literal: "sensor", "0123..."... (cut), 0x10 <unreadable>. */
void bt_argstr_text(const struct bt_argstr *str, uint64_t raw, char *buf, size_t n);
/* "id=3, buf=0x40081230, ..." from n recorded registers of site's
 * function, pointers with a string recorded (strs[reg], or strs NULL)
 * as the string; 0, or -1: no signature (print them raw). */
int bt_typed_args(struct bt_decoder *d, uint64_t site, const int64_t *v, unsigned n,
		  const struct bt_argstr *strs, char *buf, size_t cap);
/* The return value's text: 1, 0 for a void function (nothing to show),
 * -1 no signature (raw). */
int bt_typed_retval(struct bt_decoder *d, uint64_t site, int64_t v, char *buf, size_t n);
/* The same as JSON object members ("id":3,"ok":true), preceded by a comma
 * if lead: how many were written, or -1 (no signature: nothing written). */
int bt_typed_json_args(FILE *f, struct bt_decoder *d, uint64_t site, const int64_t *v,
		       unsigned n, const struct bt_argstr *strs, int lead);
int bt_typed_json_retval(FILE *f, struct bt_decoder *d, uint64_t site, int64_t v, int lead);

/* ---- json.c ------------------------------------------------------------ */

/* A JSON string; bytes outside printable ASCII as \u00XX, so any input
 * stays valid JSON. */
void bt_json_str(FILE *f, const char *s);
/* The same for n bytes that may hold NULs (written as '?'). */
void bt_json_strn(FILE *f, const char *s, size_t n);
/* Nanoseconds as microseconds with three decimals. */
void bt_json_ns(FILE *f, uint64_t ns);
/* "args":["0x1",...]: register values in hex */
void bt_json_args(FILE *f, const int64_t *v, unsigned n);

#endif /* TOOLS_BARETRACE_OUTPUT_RENDER_H */
