/*
 * tools/baretrace/output/report/args_spec.c: `baretrace args-spec`, the
 * trace_args= boot argument for some functions, chosen by their types:
 * how many argument registers their parameters take (model/functypes.c
 * reads that from the ELF's DWARF) and which of those hold a char *, so
 * the target records the strings too (docs/wire.md 2.6 subtype 6). The
 * target cannot read types; the host can, before the run.
 *
 *   $ baretrace args-spec --elf build/qemu-virt/baretrace.elf fmt_fixed fsm_step
 *   trace_args=fmt_fixed:3:s0,fsm_step:2
 *
 * A name that is no traceable function, or one DWARF does not describe,
 * is refused and nothing is printed.
 */
#include <string.h>

#include "../../bt.h"
#include "../../base/util.h"
#include "../../decode/symtab.h"
#include "../../model/model.h"

#include "report.h"

#define SPECS_MAX	8	/* what trace_args takes (trace/tracers/args.c) */

static int site_named(const struct bt_symtab *t, const char *name, uint64_t *site)
{
	for (size_t i = 0; i < t->nsites; i++) {
		const struct bt_sym *s = &t->by_site[i];

		if (s->name && (!strcmp(s->name, name) || (s->raw && !strcmp(s->raw, name)))) {
			*site = i;
			return 0;
		}
	}
	return -1;
}

/* "name:N[:sRR]" for one function into buf; dies if it has no signature. */
static void spec_of(const char *elf, struct bt_symtab *t, const char *name, char *buf, size_t n)
{
	const struct bt_sig *s;
	unsigned regs = 0, strings = 0;
	uint64_t site;
	size_t len;

	if (site_named(t, name, &site))
		bt_die(BT_EXIT_INPUT, "args-spec: %s has no traceable function '%s'", elf, name);
	if (!(s = bt_sig_find(elf, t, site)))
		bt_die(BT_EXIT_INPUT, "args-spec: %s's DWARF does not describe '%s' (assembly, "
		       "a GCC clone such as .constprop, or an image built without -g)", elf, name);
	for (size_t i = 0; i < s->np; i++) {
		const struct bt_param *p = &s->p[i];

		if (p->reg < 0)
			continue;
		if (regs < (unsigned)(p->reg + p->nregs))
			regs = (unsigned)(p->reg + p->nregs);
		if (p->type.char_ptr)
			strings |= 1u << p->reg;
	}
	if (!regs)
		bt_die(BT_EXIT_INPUT, "args-spec: '%s' takes nothing in x0-x7: no argument "
		       "register to record", name);
	len = (size_t)snprintf(buf, n, "%s:%u", bt_site_raw(t, site) ? bt_site_raw(t, site) : name,
			       regs);
	if (strings && len + 2 < n)
		len += (size_t)snprintf(buf + len, n - len, ":s");
	for (unsigned r = 0; r < 8 && len + 1 < n; r++)
		if (strings & (1u << r))
			buf[len++] = (char)('0' + r), buf[len] = 0;
}

/* An option of another command (main.c's words), or the nearest. */
static void __attribute__((noreturn)) unknown_option(const char *arg)
{
	const char *near = bt_option_nearest(arg);

	if (near && !strcmp(near, arg))
		bt_die(BT_EXIT_USAGE, "args-spec: unknown option '%s': not one of args-spec", arg);
	bt_die(BT_EXIT_USAGE, "args-spec: unknown option '%s'%s%s%s", arg,
	       near ? "; did you mean '" : " (--elf ELF FUNC...)", near ? near : "", near ? "'?" : "");
}

/* args-spec --elf ELF FUNC... [--no-demangle] */
int bt_args_spec_main(int argc, char **argv)
{
	const char *elf = NULL, *names[SPECS_MAX];
	char out[SPECS_MAX * 64 + 16] = "trace_args=", one[64];
	size_t nnames = 0;
	struct bt_symtab t;
	uint32_t hash;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--elf") && i + 1 < argc)
			elf = argv[++i];
		else if (!strncmp(argv[i], "--elf=", 6))
			elf = argv[i] + 6;
		else if (!strcmp(argv[i], "--elf"))
			bt_die(BT_EXIT_USAGE, "args-spec: option --elf needs a value");
		else if (!strcmp(argv[i], "--no-demangle"))
			bt_sym_demangler = NULL;
		else if (bt_is_option(argv[i]))
			unknown_option(argv[i]);
		else if (nnames == SPECS_MAX)
			bt_die(BT_EXIT_USAGE, "args-spec: at most %d functions (what trace_args "
			       "takes)", SPECS_MAX);
		else
			names[nnames++] = argv[i];
	}
	if (!elf || !nnames)
		bt_die(BT_EXIT_USAGE, "args-spec: needs --elf ELF (the image's baretrace.elf) and "
		       "at least one function name");
	bt_symtab_init(&t);
	bt_symtab_load_elf(&t, elf, &hash);
	for (size_t i = 0; i < nnames; i++) {
		spec_of(elf, &t, names[i], one, sizeof(one));
		strcat(out, i ? "," : "");
		strcat(out, one);
	}
	printf("%s\n", out);
	bt_sig_cache_free();
	bt_symtab_free(&t);
	return 0;
}
