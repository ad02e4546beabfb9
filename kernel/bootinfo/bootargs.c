/* kernel/bootinfo/bootargs.c: the kernel side of boot arguments (see
 * bootargs.h). */
#include <stddef.h>
#include <string.h>

#include "bootargs.h"
#include "fault.h"
#include "fdt.h"
#include "kprintf.h"
#include "nearest.h"

extern const struct kernel_param __kparams_start[], __kparams_end[];

static struct bootargs args;
/* What bootargs_not_applied() hands out: the kernel words not applied
 * (unknown or refused) in line order, and the unread rest of a line that
 * was cut. Written once, by bootargs_init. */
static const char *not_applied[BOOTARGS_MAX_WORDS];
static int n_not_applied;
static const char *left_out;

#define SYS_GET_CMDLINE	0x15	/* Arm semihosting */

/* Without a DTB (QEMU raspi3b passes none) the arguments come from the
 * semihosting host, if there is one: QEMU answers SYS_GET_CMDLINE with
 * the -kernel file name, a space and the -append text. NULL if no host
 * answers. */
static const char *semihost_bootargs(void)
{
	/* Room for the file name and for a line longer than we use: the
	 * host refuses the call outright when the buffer is too small, and
	 * a long line should lose its tail (reported), not everything. */
	static char line[4 * BOOTARGS_MAX_LEN];
	struct { char *buf; unsigned long len; } block = { line, sizeof(line) - 1 };
	const char *s = line;

	if (semihost_call(SYS_GET_CMDLINE, &block) != 0)
		return NULL;
	line[sizeof(line) - 1] = '\0';
	while (*s && *s != ' ')
		s++;
	return *s ? s + 1 : s;
}

/* "trace_buf=1K": the value, not applied, and what the parameter wants;
 * an earlier accepted value of the same parameter stays in force. */
static void report_refused(const struct kernel_param *t, size_t n, const char *w)
{
	const char *eq = w;

	while (*eq && *eq != '=')
		eq++;
	for (size_t k = 0; k < n; k++) {
		size_t len = (size_t)(eq - w);

		if (!strncmp(t[k].name, w, len) && !t[k].name[len]) {
			kprintf("bootargs: invalid value in '%s' (%s); not applied\n",
				w, t[k].help);
			return;
		}
	}
}

/* "maxcpu=2": the nearest known name when one is near (a typo), else
 * every known name. */
static void report_unknown(const struct kernel_param *t, size_t n, const char *w)
{
	struct nearest near;

	nearest_start(&near, w, strcspn(w, "="));
	for (size_t k = 0; k < n; k++)
		nearest_try(&near, t[k].name);
	if (near.best) {
		kprintf("bootargs: unknown kernel parameter '%s' (did you mean '%s'?)\n",
			w, near.best);
		return;
	}
	kprintf("bootargs: unknown kernel parameter '%s' (known:", w);
	for (size_t k = 0; k < n; k++)
		kprintf(" %s", t[k].name);
	kprintf(")\n");
}

void bootargs_init(const void *fdt)
{
	const char *line = NULL, *err = NULL;
	int chosen = fdt ? fdt_path(fdt, "/chosen") : -1;
	int len;

	if (chosen >= 0)
		line = fdt_prop(fdt, chosen, "bootargs", &len);
	if (!line || len <= 0 || line[len - 1] != '\0')
		line = "";
	if (!fdt && (line = semihost_bootargs()) == NULL)
		line = "";
	kprintf("bootargs: \"%s\"\n", line);
	if (bootargs_split(line, &args, &err)) {
		/* What came before the problem still applies (panic= above all). */
		const char *rest = line + args.ignored_at;
		char word[44];
		size_t k = 0;

		while (rest[k] && rest[k] != ' ' && k < 40) {
			word[k] = rest[k];
			k++;
		}
		word[k] = '\0';
		left_out = rest;
		kprintf("bootargs: %s (at most %d bytes, %d words): ignoring everything "
			"from byte %lu ('%s%s') on; %d kernel and %d app words kept\n",
			err, BOOTARGS_MAX_LEN - 1, BOOTARGS_MAX_WORDS,
			(unsigned long)args.ignored_at, word,
			rest[k] && rest[k] != ' ' ? "..." : "", args.nkernel, args.napp);
	}
	size_t n = (size_t)(__kparams_end - __kparams_start);

	for (int i = 0; i < args.nkernel; i++) {
		const char *w = args.kernel[i];

		int r = bootargs_apply_word(__kparams_start, n, w);

		if (r)
			not_applied[n_not_applied++] = w;
		switch (r) {
		case -1:
			report_unknown(__kparams_start, n, w);
			break;
		case -2:
			report_refused(__kparams_start, n, w);
			break;
		}
	}
}

const char *bootargs_not_applied(int i)
{
	return i >= 0 && i < n_not_applied ? not_applied[i] : NULL;
}

const char *bootargs_left_out(void)
{
	return left_out;
}

int bootargs_app_argc(void)
{
	return args.napp;
}

char **bootargs_app_argv(void)
{
	return args.app;
}
