/*
 * tools/mktables_map.c: which folder each function's object comes from,
 * read from the link map of the first link (ld -Map).
 *
 * Why the map: every function is in its own input section
 * (-ffunction-sections), and the map lists each input section with its
 * address, size and the object it came from, whose path under obj/ is
 * the source's. The ELF's own FILE symbols carry only the source's
 * base name, and a global symbol is not tied to one; DWARF would give
 * the source file too, but needs libdw for what one line of the map
 * says.
 *
 * The lines read (input sections of output sections; others are
 * skipped):
 *   " .text.fn      0x0000000000039068       0x24 build/qemu-virt/obj/app/t.c.o"
 * or, with a long section name, the name alone on its line and the
 * three fields on the next.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mktables_map.h"

struct range {
	unsigned long addr, size;
	char *folder;
};

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* "boot" from ".../obj/boot/head.S.o", "app" from ".../obj/app/...". */
static char *folder_of(const char *obj)
{
	const char *p = strstr(obj, "/obj/");
	size_t n;

	if (!p)
		return strdup("other");
	p += 5;
	n = strcspn(p, "/");
	if (!p[n])
		return strdup("other");
	return strndup(p, n);
}

/* Address, size and object of an input-section line, after its name. */
static int fields(const char *s, unsigned long *addr, unsigned long *size, char *obj, size_t cap)
{
	char a[32], z[32], o[4096];

	if (sscanf(s, " %31s %31s %4095s", a, z, o) != 3 || strncmp(a, "0x", 2) ||
	    strncmp(z, "0x", 2) || !strncmp(o, "0x", 2) || strlen(o) >= cap)
		return 0;
	*addr = strtoul(a, NULL, 16);
	*size = strtoul(z, NULL, 16);
	strcpy(obj, o);
	return 1;
}

size_t map_folders(const char *path, const unsigned long *addrs, size_t n,
		   unsigned char *folder, const char **names)
{
	FILE *f = fopen(path, "r");
	char line[8192], obj[4096];
	struct range *r = NULL;
	size_t nr = 0, cap = 0, nnames = 0;
	int pending = 0;	/* the previous line was a section name alone */

	if (!f) {
		fprintf(stderr, "mktables: cannot open the link map %s\n", path);
		exit(1);
	}
	while (fgets(line, sizeof(line), f)) {
		unsigned long a, z;
		const char *rest = NULL;

		if (pending) {
			rest = line;
			pending = 0;
		} else if (line[0] == ' ' && line[1] == '.' && strncmp(line + 1, ".debug", 6)) {
			rest = line + 1 + strcspn(line + 1, " \t\n");
			if (!*rest || *rest == '\n') {
				pending = 1;	/* the fields are on the next line */
				continue;
			}
		}
		if (!rest || !fields(rest, &a, &z, obj, sizeof(obj)) || !z)
			continue;
		if (nr == cap && !(r = realloc(r, (cap = cap * 2 + 256) * sizeof(*r)))) {
			fprintf(stderr, "mktables: out of memory\n");
			exit(1);
		}
		r[nr++] = (struct range){ a, z, folder_of(obj) };
	}
	fclose(f);
	qsort(r, nr, sizeof(*r), cmp_range);
	for (size_t i = 0; i < n; i++) {
		size_t lo = 0, hi = nr;
		const char *name = "other";

		while (lo < hi) {	/* the last range starting at or before addrs[i] */
			size_t mid = (lo + hi) / 2;

			if (r[mid].addr <= addrs[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo && addrs[i] < r[lo - 1].addr + r[lo - 1].size)
			name = r[lo - 1].folder;
		size_t k = 0;

		while (k < nnames && strcmp(names[k], name))
			k++;
		if (k == nnames) {
			if (nnames == MAP_FOLDERS_MAX) {
				fprintf(stderr, "mktables: more than %d folders in %s\n",
					MAP_FOLDERS_MAX, path);
				exit(1);
			}
			names[nnames++] = strdup(name);
		}
		folder[i] = (unsigned char)k;
	}
	for (size_t i = 0; i < nr; i++)
		free(r[i].folder);
	free(r);
	return nnames;
}
