/* kernel/bootargs.c: the kernel side of boot arguments (see bootargs.h). */
#include <stddef.h>

#include "bootargs.h"
#include "fdt.h"
#include "kprintf.h"
#include "power.h"

extern const struct kernel_param __kparams_start[], __kparams_end[];

static struct bootargs args;

#define SYS_GET_CMDLINE	0x15	/* Arm semihosting */

/* Without a DTB (QEMU raspi3b passes none) the arguments come from the
 * semihosting host, if there is one: QEMU answers SYS_GET_CMDLINE with
 * the -kernel file name, a space and the -append text. NULL if no host
 * answers. */
static const char *semihost_bootargs(void)
{
	static char line[BOOTARGS_MAX_LEN + 256];	/* + the file name */
	struct { char *buf; unsigned long len; } block = { line, sizeof(line) - 1 };
	const char *s = line;

	if (semihost_call(SYS_GET_CMDLINE, &block) != 0)
		return NULL;
	line[sizeof(line) - 1] = '\0';
	while (*s && *s != ' ')
		s++;
	return *s ? s + 1 : s;
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
		kprintf("bootargs: ignored: %s\n", err);
		return;
	}
	size_t n = (size_t)(__kparams_end - __kparams_start);

	for (int i = 0; i < args.nkernel; i++) {
		const char *w = args.kernel[i];

		switch (bootargs_apply_word(__kparams_start, n, w)) {
		case -1:
			kprintf("bootargs: unknown kernel parameter '%s' (known:", w);
			for (size_t k = 0; k < n; k++)
				kprintf(" %s", __kparams_start[k].name);
			kprintf(")\n");
			break;
		case -2:
			kprintf("bootargs: invalid value in '%s', ignored\n", w);
			break;
		}
	}
}

int bootargs_app_argc(void)
{
	return args.napp;
}

char **bootargs_app_argv(void)
{
	return args.app;
}
