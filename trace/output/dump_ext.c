/*
 * trace/output/dump_ext.c: the console dump's line for an extension
 * record (kind 7, docs/wire.md 2.6), every subtype the wire parses, in
 * the words 'baretrace report' gives it (the host's render_ext.c and
 * report_line.c): a call's arguments, a string an argument points to, a
 * fired trigger, a stack trace (return addresses named by the call
 * before them), where the run ended, a probe hit with its fetched
 * values by name. A subtype this version does not know and a malformed
 * record still get their line: the dump counts every record it reads.
 *
 * A probe hit is named by the probe's schema as the target holds it
 * now (trace/core/probe.c, trace/tracers/retprobe.c): numbers are never
 * reused in a boot, so a number found is the probe that wrote the
 * record; one removed since shows its number and values, as the host
 * shows a hit read before its schema.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/probe.h"
#include "kfmt.h"
#include "mmu.h"
#include "outcome.h"
#include "symbols.h"
#include "tracers/retprobe.h"
#include "tracers/trigger.h"
#include "wire.h"
#include "dump_int.h"
#include "dump_text.h"

/* dump_lock held (dump.c): one of each at a time. */
static char line[256];
static struct probe_view view;

/* Appends to buf (cap bytes) at *len, cut at its end, NUL-terminated. */
static void append(char *buf, size_t cap, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t cap, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len + 1 >= cap)
		return;
	va_start(ap, fmt);
	n = kvsnprintf(buf + *len, cap - *len, fmt, ap);
	va_end(ap);
	*len = n < 0 ? *len : *len + (size_t)n < cap ? *len + (size_t)n : cap - 1;
}

void dump_text_args(char *buf, size_t cap, const struct wire_ext *x)
{
	struct wire_ext walk = *x;
	size_t len = 0;
	uint64_t v;

	buf[0] = '\0';
	for (unsigned int i = 0; i < x->count && !wire_ext_value(&walk, &v); i++)
		append(buf, cap, &len, "%s0x%lx", i ? " " : "", (unsigned long)wire_unzigzag(v));
}

/* The probe numbered 'number', instruction or return probe, into view. */
static bool find_probe(uint64_t number)
{
	for (unsigned int i = 0; i < PROBE_MAX; i++)
		if (probe_get(i, &view) && view.number == number)
			return true;
	for (unsigned int i = 0; i < RETPROBE_MAX; i++)
		if (retprobe_get(i, &view) && view.number == number)
			return true;
	return false;
}

void dump_text_probe(char *buf, size_t cap, const struct wire_ext *x)
{
	bool known = find_probe(x->probe);
	struct wire_ext walk = *x;
	size_t len = 0;
	uint64_t u;

	buf[0] = '\0';
	if (known)
		append(buf, cap, &len, "probe %s%s:", view.spec.name,
		       view.spec.ret ? " (return)" : "");
	else
		append(buf, cap, &len, "probe #%lu:", (unsigned long)x->probe);
	for (unsigned int i = 0; i < x->count && !wire_ext_value(&walk, &u); i++) {
		bool named = known && i < view.spec.nfetch;
		uint8_t type = named ? view.spec.fetch[i].type : PROBE_X64;
		int64_t v = wire_unzigzag(u);

		if (named)
			append(buf, cap, &len, " %s=", view.spec.fetch[i].name);
		else
			append(buf, cap, &len, " arg%u=", i + 1);
		if (i < 8 && (x->faulted >> i & 1))
			append(buf, cap, &len, "(fault)");
		else if (type == PROBE_X32 || type == PROBE_X64)
			append(buf, cap, &len, "0x%llx", (unsigned long long)v);
		else if (type >= PROBE_S8 && type <= PROBE_S64)
			append(buf, cap, &len, "%lld", (long long)v);
		else
			append(buf, cap, &len, "%llu", (unsigned long long)v);
	}
}

/* Its bytes, printable ones as they are (kprintf has no %.*s). */
static void string_text(const struct wire_ext *x)
{
	unsigned int n = 0;

	for (; n < x->count && n + 1 < sizeof(line); n++) {
		uint8_t c = x->values[n];

		line[n] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	line[n] = '\0';
}

void dump_ext(const char *ts, const struct wire_record *r)
{
	struct wire_ext x;
	const char *s;
	uint64_t v;
	int rc = wire_ext_parse(r, &x);

	if (rc == 0) {
		dump_line("%s extension record of subtype %u, unknown to this version (length %lu)",
			  ts, r->subtype, (unsigned long)r->data_len);
		return;
	}
	if (rc < 0) {
		dump_line("%s malformed extension record of subtype %u (length %lu)", ts,
			  r->subtype, (unsigned long)r->data_len);
		return;
	}
	switch (x.subtype) {
	case WIRE_EXT_ARGS:
		dump_text_args(line, sizeof(line), &x);
		dump_line("%s args of %s: %s", ts, dump_site_name(x.site), line);
		break;
	case WIRE_EXT_STRING:
		string_text(&x);
		dump_line("%s string x%u of %s: \"%s\"%s", ts, x.reg, dump_site_name(x.site), line,
			  x.str_flags & WIRE_STR_UNREADABLE ? " (unreadable)" :
			  x.str_flags & WIRE_STR_CUT ? "..." : "");
		break;
	case WIRE_EXT_TRIGGER:
		s = trigger_action_name(x.action);
		dump_line("%s trigger %s on %s", ts, s ? s : "?", dump_site_name(x.site));
		break;
	case WIRE_EXT_STACK:
		dump_line("%s <stack trace>", ts);
		while (!wire_ext_value(&x, &v)) {
			s = sym_lookup((uintptr_t)_text + v * 4 - 4, NULL, NULL);
			dump_line(" => %s", s ? s : "?");
		}
		break;
	case WIRE_EXT_OUTCOME:
		s = run_outcome_name(x.outcome);
		if (x.outcome == RUN_EXIT)
			dump_line("%s ==== run ended: exit, status %ld ====", ts, (long)x.status);
		else
			dump_line("%s ==== run ended: %s ====", ts, s ? s : "?");
		break;
	case WIRE_EXT_PROBE:
		dump_text_probe(line, sizeof(line), &x);
		dump_line("%s %s", ts, line);
		break;
	default:	/* parsed by the wire, not worded here: still one line */
		dump_line("%s extension record of subtype %u (length %lu)", ts, x.subtype,
			  (unsigned long)r->data_len);
		break;
	}
}
