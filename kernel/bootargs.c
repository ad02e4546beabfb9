/* kernel/bootargs.c: the kernel side of boot arguments (see bootargs.h). */
#include <stddef.h>

#include "bootargs.h"
#include "fdt.h"
#include "kprintf.h"

extern const struct kernel_param __kparams_start[], __kparams_end[];

static struct bootargs args;

void bootargs_init(const void *fdt)
{
	const char *line = NULL, *err = NULL;
	int chosen = fdt ? fdt_path(fdt, "/chosen") : -1;
	int len;

	if (chosen >= 0)
		line = fdt_prop(fdt, chosen, "bootargs", &len);
	if (!line || len <= 0 || line[len - 1] != '\0')
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
