/*
 * trace/control/probe_ctl.c: probes from the kernel command line and the
 * console (trace/core/probe.c plants them).
 *
 *   trace_probe=NAME=SYMBOL[+OFFSET][,FETCH]...[;NAME=...]   (one word)
 *   probe                                  list, with hit counts
 *   probe NAME=SYMBOL[+OFFSET] [FETCH]...  add
 *   probe NAME=SYMBOL%return [FETCH]...    add a return probe
 *                                          (trace/tracers/retprobe.c)
 *   probe -NAME                            remove
 *
 * Every probe's text is parsed in full before anything is planted; a
 * refused probe plants nothing (and at boot, as every refused trace_*
 * setting, ends the run before main()).
 */
#include <string.h>

#include <baretrace_trace.h>

#include "bootargs.h"
#include "core/probe.h"
#include "events/tracepoint.h"
#include "tracers/retprobe.h"
#include "kprintf.h"
#include "shell.h"
#include "control.h"

#define PROBE_TEXT_MAX	SHELL_LINE_MAX

/* The trace_probe= values, kept by the boot arguments' buffer. */
static const char *boot_probes[PROBE_MAX];
static unsigned int nboot;

/* The i-th ';'-separated part of 'list' into buf; false after the last. */
static bool part(const char *list, unsigned int i, char *buf, size_t size, bool *too_long)
{
	const char *s = list, *e;

	for (;; s = e + 1, i--) {
		e = strchr(s, ';');
		if (!e)
			e = s + strlen(s);
		if (!i)
			break;
		if (!*e)
			return false;
	}
	*too_long = (size_t)(e - s) >= size;
	if (*too_long)
		return true;
	memcpy(buf, s, (size_t)(e - s));
	buf[e - s] = '\0';
	return true;
}

static int param_probe(const char *v)
{
	char text[PROBE_TEXT_MAX];
	struct probe_spec s;
	const char *why;
	bool too_long;

	if (nboot == PROBE_MAX)
		return kprintf("trace_probe: at most %d values\n", PROBE_MAX), -1;
	for (unsigned int i = 0; part(v, i, text, sizeof(text), &too_long); i++) {
		if (too_long)
			return kprintf("trace_probe: a probe is longer than %d characters\n",
				       PROBE_TEXT_MAX - 1), -1;
		if (probe_spec_parse(text, &s, &why))
			return kprintf("trace_probe: '%s': %s\n", text, why), -1;
	}
	boot_probes[nboot++] = v;
	return 0;
}
KERNEL_PARAM("trace_probe", param_probe,
	     "NAME=SYMBOL[+OFFSET|%return][,FETCH]...[;...]: probes at instructions "
	     "and returns (see 'probe')");

/* A fetch's location as the spec would write it: "+8(+0(x1))". */
static void location(const struct probe_fetch *f, char *buf, size_t size)
{
	char in[64];

	int off = f->deref == 1 ? (int)f->disp : (int)f->idisp[0];

	if (f->reg == PROBE_REG_GLOBAL && off)
		ksnprintf(buf, size, "@%s+%d", f->gsym, off);
	else if (f->reg == PROBE_REG_GLOBAL)
		ksnprintf(buf, size, "@%s", f->gsym);
	else if (f->reg == PROBE_REG_SP || f->reg == PROBE_REG_PC || f->reg == PROBE_REG_RETVAL)
		ksnprintf(buf, size, "%s", f->reg == PROBE_REG_SP ? "sp" :
			  f->reg == PROBE_REG_PC ? "pc" : "$retval");
	else
		ksnprintf(buf, size, "x%u", f->reg);
	for (unsigned int l = f->reg == PROBE_REG_GLOBAL; l < f->deref; l++) {
		int d = l + 1 == f->deref ? (int)f->disp : (int)f->idisp[l];

		strcpy(in, buf);
		ksnprintf(buf, size, "%s%d(%s)", d < 0 ? "" : "+", d, in);
	}
}

static void describe(const struct probe_spec *s)
{
	for (unsigned int k = 0; k < s->nfetch; k++) {
		const struct probe_fetch *f = &s->fetch[k];
		char loc[64];

		location(f, loc, sizeof(loc));
		kprintf(" %s=%s:%s", f->name, loc, probe_type_name(f->type));
	}
}

/* Probes and return probes share one name space (probe -NAME). */
static bool name_taken(const char *name)
{
	struct probe_view v;

	for (unsigned int i = 0; i < PROBE_MAX; i++)
		if ((probe_get(i, &v) && !strcmp(v.spec.name, name)) ||
		    (i < RETPROBE_MAX && retprobe_get(i, &v) && !strcmp(v.spec.name, name)))
			return true;
	return false;
}

static int add(const char *text)
{
	struct probe_spec s;
	const char *why;
	int err;

	if (probe_spec_parse(text, &s, &why)) {
		kprintf("probe: '%s': %s\n", text, why);
		return TRACE_EINVAL;
	}
	if (name_taken(s.name)) {
		kprintf("probe: %s: a probe of that name exists; nothing planted\n", s.name);
		return TRACE_EINVAL;
	}
	if (trace_console_refuses())
		return TRACE_ENOCAPTURE;
	trace_export_ready();	/* rings for its records; without them it only counts */
	if (s.ret && (err = retprobe_plant(&s, &why))) {
		kprintf("probe: %s at %s%%return: %s; nothing planted\n", s.name, s.sym, why);
		return err;
	}
	if (!s.ret && (err = probe_plant(&s, &why, tp_site_word))) {
		kprintf("probe: %s at %s+0x%x: %s; nothing planted\n", s.name, s.sym,
			(unsigned int)s.offset, why);
		return err;
	}
	trace_send_meta_only();	/* its schema, before its records are sent */
	return 0;
}

int trace_probe_boot_start(void)
{
	char text[PROBE_TEXT_MAX];
	bool too_long;

	for (unsigned int b = 0; b < nboot; b++)
		for (unsigned int i = 0; part(boot_probes[b], i, text, sizeof(text), &too_long); i++)
			if (add(text))
				return -1;
	return 0;
}

static void list(void)
{
	struct probe_view v;

	if (!probe_count() && !retprobe_count())
		kprintf("no probes\n");
	for (unsigned int i = 0; i < PROBE_MAX; i++) {
		if (!probe_get(i, &v))
			continue;
		kprintf("%s %s+0x%x insn %08x hits %llu unrecorded %llu", v.spec.name, v.spec.sym,
			(unsigned int)v.spec.offset, (unsigned int)v.insn,
			(unsigned long long)v.hits, (unsigned long long)v.unrecorded);
		describe(&v.spec);
		kprintf("\n");
	}
	for (unsigned int i = 0; i < RETPROBE_MAX; i++) {
		if (!retprobe_get(i, &v))
			continue;
		kprintf("%s %s%%return hits %llu unrecorded %llu", v.spec.name, v.spec.sym,
			(unsigned long long)v.hits, (unsigned long long)v.unrecorded);
		describe(&v.spec);
		kprintf("\n");
	}
	if (retprobe_missed())
		kprintf("return probes: %llu calls not hooked (return hooks stopped or "
			"the shadow stack full)\n", (unsigned long long)retprobe_missed());
}

static int cmd_probe(int argc, char **argv)
{
	char text[PROBE_TEXT_MAX] = "";
	size_t n = 0;
	const char *why;

	if (argc == 1) {
		list();
		return 0;
	}
	if (argv[1][0] == '-') {
		if (argc != 2)
			return shell_usage("probe", "-NAME takes nothing after it");
		int err = probe_remove(argv[1] + 1, &why);

		if (err == TRACE_EINVAL && !strcmp(why, "no probe of that name"))
			err = retprobe_remove(argv[1] + 1, &why);
		if (err) {
			kprintf("probe: %s: %s\n", argv[1] + 1, why);
			return 1;
		}
		return 0;
	}
	for (int i = 1; i < argc; i++) {	/* the words, joined by spaces */
		size_t l = strlen(argv[i]);

		if (n + l + 2 > sizeof(text))
			return shell_usage("probe", "the probe is too long");
		if (n)
			text[n++] = ' ';
		memcpy(text + n, argv[i], l + 1);
		n += l;
	}
	return add(text) ? 1 : 0;
}
SHELL_CMD(probe, cmd_probe, "[NAME=SYMBOL[+OFFSET|%return] [FETCH...] | -NAME]",
	  "probes at instructions and returns: add, remove, or list with hit counts");
