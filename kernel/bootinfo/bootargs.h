/*
 * kernel/bootinfo/bootargs.h: boot arguments from the DTB's /chosen/bootargs.
 *
 * Words before a lone "--" are kernel parameters ("name" or "name=value");
 * the words after it become the application's argv. Double quotes group
 * a word with spaces ("msg=hello world" or msg="hello world"). Each
 * kernel parameter is declared where it is used with KERNEL_PARAM; its
 * setter validates the value and changes nothing when it returns nonzero.
 * An unknown parameter or a rejected value is reported on the console,
 * an unknown one with the nearest known name ("did you mean"), and the
 * boot goes on: a loader may put words of its own on the line (the Pi
 * firmware puts Linux's ahead of cmdline.txt), so an unknown word is not
 * proof of a mistake. Trace settings are the exception: one not applied
 * ends the run before main() (trace/control/params.c). make checks every
 * kernel word before the boot, where each word is the user's
 * (docs/running.md).
 */
#ifndef KERNEL_BOOTARGS_H
#define KERNEL_BOOTARGS_H

#include <stddef.h>

/* Room for a few long glob lists (trace_filter= takes up to 1023
 * characters, trace/base/glob.h). QEMU's -append and U-Boot's bootargs
 * carry such a line whole (Debian's qemu_arm64 U-Boot passed 4.5 KiB
 * through boot.scr). */
#define BOOTARGS_MAX_LEN	4096
#define BOOTARGS_MAX_WORDS	32

struct kernel_param {
	const char *name;
	int (*set)(const char *value);	/* value "" when absent; 0 = accepted */
	const char *help;
};

/* The name is also an array of its own, kparam_name_<setter>: make's
 * pre-boot check (tools/check-names.c) reads every such symbol from the
 * built image, so it knows exactly the parameters this image knows
 * (a pointer in .kparams would need the loader's relocation to read). */
#define KERNEL_PARAM(pname, fn, text)					\
	static const char kparam_name_##fn[] = pname;			\
	static const struct kernel_param kparam_##fn			\
	__attribute__((used, section(".kparams"), aligned(8))) =	\
		{ kparam_name_##fn, fn, text }

struct bootargs {
	char buf[BOOTARGS_MAX_LEN];		/* words, NUL-separated */
	char *kernel[BOOTARGS_MAX_WORDS];
	int nkernel;
	char *app[BOOTARGS_MAX_WORDS + 1];	/* NULL-terminated */
	int napp;
	size_t ignored_at;	/* after a failed split: first byte not used */
};

/* Splits 'line' into words (pure; host-tested). Returns 0, or -1 with
 * *err set when the line is too long, has too many words or an
 * unterminated quote; then 'out' holds every whole word before the
 * problem and ignored_at is where in 'line' the first word left out
 * starts (a long line keeps what fits rather than losing everything). */
int bootargs_split(const char *line, struct bootargs *out, const char **err);

/* Looks up 'word' ("name" or "name=value") in a parameter table and calls
 * its setter. Returns 0, -1 for an unknown name, -2 for a rejected value. */
int bootargs_apply_word(const struct kernel_param *table, size_t n,
			const char *word);

/* Parses an unsigned decimal, hex (0x) number with optional K/M/G
 * suffix. Returns 0 or -1 (nothing written) for anything else. */
int bootargs_parse_ulong(const char *s, unsigned long *out);

/* Kernel side: reads /chosen/bootargs, applies kernel parameters and
 * keeps the application's argv. */
void bootargs_init(const void *fdt);
/* The i-th kernel word (from 0, in line order) that was not applied,
 * being unknown or refused; NULL past the last. A subsystem whose
 * settings must not go half-applied (the tracer) looks for its own. */
const char *bootargs_not_applied(int i);
/* The unread rest of a line cut short (too long, too many words, an
 * unterminated quote), or NULL when the whole line was read. */
const char *bootargs_left_out(void);
int bootargs_app_argc(void);
char **bootargs_app_argv(void);

#endif /* KERNEL_BOOTARGS_H */
