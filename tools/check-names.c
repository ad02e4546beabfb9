/*
 * tools/check-names.c: make's check of the names a run passes, before
 * anything boots (make run, run-direct, run-uboot; docs/running.md).
 *
 *   check-names ELF [--what 'make run'] [--trace NAME] [--bootargs LINE]
 *
 * TRACE= must be a tracer, and every kernel word of BOOTARGS (before a
 * lone --) a kernel parameter, of the image ELF: the names come from the
 * image itself, never from a list kept by hand. Each KERNEL_PARAM leaves
 * a symbol kparam_name_<setter> holding its name (kernel/bootinfo/
 * bootargs.h), and trace_tracer_names holds the tracers' names
 * (trace/control/tracer_names.c). The line is split by the kernel's own
 * splitter (bootargs_split), and a near name is found by the kernel's
 * own search (nearest.h), so make and the target name the same word and
 * suggest the same name.
 *
 * Prints "ok" and exits 0, or prints the refusal on one line (every
 * problem, each with the nearest known name) and exits 2; a problem with
 * the ELF itself: a line saying so, exit 1. The Makefile turns anything
 * but "ok" into its own error, the last line make prints.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bootargs.h"
#include "nearest.h"

#define PARAM_PREFIX	"kparam_name_"
#define TRACERS_SYMBOL	"trace_tracer_names"

/* The names read from the image: each ended by a NUL, the list by an
 * empty name (the layout of trace_tracer_names). */
struct names {
	char *buf;
	size_t len, cap;
};

static void add_name(struct names *l, const char *s, size_t n)
{
	if (l->len + n + 2 > l->cap) {
		l->cap = (l->len + n + 2) * 2;
		if (!(l->buf = realloc(l->buf, l->cap))) {
			printf("check-names: out of memory\n");
			exit(1);
		}
	}
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	l->buf[l->len++] = '\0';
	l->buf[l->len] = '\0';
}

/* The bytes of a sized object symbol, or NULL (no bytes in the file). */
static const char *symbol_bytes(Elf *e, const GElf_Sym *s)
{
	Elf_Scn *scn = elf_getscn(e, s->st_shndx);
	GElf_Shdr sh;
	Elf_Data *d;

	if (!scn || !gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
	    !(d = elf_getdata(scn, NULL)) || s->st_value < sh.sh_addr ||
	    s->st_value - sh.sh_addr + s->st_size > d->d_size)
		return NULL;
	return (const char *)d->d_buf + (s->st_value - sh.sh_addr);
}

/* Every kparam_name_* into params, trace_tracer_names into tracers;
 * an error message, or NULL. */
static const char *read_names(const char *path, struct names *params, struct names *tracers)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	const char *err = NULL;

	if (fd < 0)
		return "cannot open";
	elf_version(EV_CURRENT);
	if (!(e = elf_begin(fd, ELF_C_READ, NULL)) || elf_kind(e) != ELF_K_ELF) {
		close(fd);
		return "not an ELF file";
	}
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			const char *name, *bytes;

			if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_OBJECT ||
			    !(name = elf_strptr(e, sh.sh_link, s.st_name)))
				continue;
			int is_param = !strncmp(name, PARAM_PREFIX, strlen(PARAM_PREFIX));

			if (!is_param && strcmp(name, TRACERS_SYMBOL))
				continue;
			if (!(bytes = symbol_bytes(e, &s)) || !s.st_size || bytes[s.st_size - 1]) {
				err = "has a name symbol without its bytes";
				continue;
			}
			if (is_param) {
				add_name(params, bytes, strlen(bytes));
				continue;
			}
			for (size_t k = 0; k < s.st_size && bytes[k]; k += strlen(bytes + k) + 1)
				add_name(tracers, bytes + k, strlen(bytes + k));
		}
	}
	elf_end(e);
	close(fd);
	if (!err && !params->len)
		err = "holds no kernel parameter names (" PARAM_PREFIX "*)";
	if (!err && !tracers->len)
		err = "holds no tracer names (" TRACERS_SYMBOL ")";
	return err;
}

static int in_list(const char *list, const char *word, size_t n)
{
	for (; *list; list += strlen(list) + 1)
		if (strlen(list) == n && !strncmp(list, word, n))
			return 1;
	return 0;
}

/* The problems found so far, "; "-separated, on one line. */
static char said[8192];

static void say(const char *fmt, const char *a, const char *b)
{
	size_t n = strlen(said);

	if (n)
		n += (size_t)snprintf(said + n, sizeof(said) - n, "; ");
	if (n < sizeof(said))
		snprintf(said + n, sizeof(said) - n, fmt, a, b);
}

/* "(did you mean 'x'?)", else "(known: a b c)". */
static void hint(char *buf, size_t cap, const char *list, const char *word, size_t n,
		 const char *sep)
{
	const char *near = nearest_in_list(list, word, n);
	size_t k;

	if (near) {
		snprintf(buf, cap, "(did you mean '%s'?)", near);
		return;
	}
	k = (size_t)snprintf(buf, cap, "(known:");
	for (const char *p = list; *p && k < cap; p += strlen(p) + 1)
		k += (size_t)snprintf(buf + k, cap - k, "%s%s", p == list ? " " : sep, p);
	if (k < cap)
		snprintf(buf + k, cap - k, ")");
}

static void check_tracer(const char *what, const char *name, const struct names *tracers)
{
	char h[512], w[300];

	if (in_list(tracers->buf, name, strlen(name)))
		return;
	hint(h, sizeof(h), tracers->buf, name, strlen(name), ", ");
	snprintf(w, sizeof(w), "%s%s", what, name);
	say("%s: no such tracer %s", w, h);
}

static void check_bootargs(const char *line, const struct names *params,
			   const struct names *tracers)
{
	static struct bootargs a;
	const char *err = NULL;
	char h[4096];

	int cut = bootargs_split(line, &a, &err);

	for (int i = 0; i < a.nkernel; i++) {
		const char *w = a.kernel[i];
		size_t n = strcspn(w, "=");

		if (!in_list(params->buf, w, n)) {
			hint(h, sizeof(h), params->buf, w, n, " ");
			say("BOOTARGS: unknown kernel parameter '%s' %s", w, h);
		} else if (n == 5 && !strncmp(w, "trace", 5) && w[n] == '=') {
			check_tracer("BOOTARGS: trace=", w + n + 1, tracers);
		}
	}
	if (cut) {
		snprintf(h, sizeof(h), "%lu", (unsigned long)a.ignored_at);
		say("BOOTARGS: %s at byte %s (the kernel would ignore the rest)", err, h);
	}
}

int main(int argc, char **argv)
{
	const char *elf = NULL, *what = "make", *trace = NULL, *bootargs = NULL, *err;
	struct names params = { 0 }, tracers = { 0 };

	for (int i = 1; i < argc; i++) {
		const char **slot = !strcmp(argv[i], "--what") ? &what :
				    !strcmp(argv[i], "--trace") ? &trace :
				    !strcmp(argv[i], "--bootargs") ? &bootargs : NULL;

		if (slot && i + 1 < argc)
			*slot = argv[++i];
		else if (!slot && !elf && argv[i][0] != '-')
			elf = argv[i];
		else {
			printf("usage: check-names ELF [--what 'make run'] [--trace NAME] "
			       "[--bootargs LINE]\n");
			return 1;
		}
	}
	if (!elf) {
		printf("usage: check-names ELF [--what 'make run'] [--trace NAME] [--bootargs LINE]\n");
		return 1;
	}
	if ((err = read_names(elf, &params, &tracers))) {
		printf("%s: %s %s; cannot check the names before the boot\n", what, elf, err);
		return 1;
	}
	if (trace && *trace)
		check_tracer("TRACE=", trace, &tracers);
	if (bootargs)
		check_bootargs(bootargs, &params, &tracers);
	if (!*said) {
		printf("ok\n");
		return 0;
	}
	printf("%s: refused before the boot, nothing was run: %s\n", what, said);
	return 2;
}
