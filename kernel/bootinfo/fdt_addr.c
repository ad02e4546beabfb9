/*
 * kernel/bootinfo/fdt_addr.c: see fdt_addr.h. Runs on the boot CPU once the MMU
 * is on, before interrupts; reads the blob only through fdt.c.
 */
#include <stddef.h>
#include <stdint.h>

#include "fdt.h"
#include "fdt_addr.h"

#define MAX_DEPTH	16	/* deeper trees are not searched */
#define MAX_PATH	128	/* longest alias or stdout-path used */

/* Depth-first search below 'from' for the parent of 'node'. */
static int parent_below(const void *fdt, int from, int node, int depth)
{
	if (depth > MAX_DEPTH)
		return -1;
	for (int c = fdt_first_child(fdt, from); c >= 0; c = fdt_next_sibling(fdt, c)) {
		if (c == node)
			return from;
		/* Children follow their parent in the blob: skip subtrees
		 * that start after 'node' (the next sibling's). */
		if (c > node)
			return -1;
		int p = parent_below(fdt, c, node, depth + 1);

		if (p >= 0)
			return p;
	}
	return -1;
}

int fdt_parent(const void *fdt, int node)
{
	int root = fdt_path(fdt, "/");

	return root < 0 || node == root ? -1 : parent_below(fdt, root, node, 0);
}

/* A one-cell property like #address-cells, or 'dflt' if absent or odd. */
static int cells(const void *fdt, int node, const char *name, int dflt)
{
	int len;
	const void *p = fdt_prop(fdt, node, name, &len);

	if (!p || len != 4)
		return dflt;
	uint32_t v = fdt_be32(p);

	return v <= 2 ? (int)v : -1;	/* more than 64 bits: not readable */
}

/* 'addr' from the child address space of 'bus' into the space of the
 * bus's own parent, by the bus's ranges. 0 on success. */
static int up_one(const void *fdt, int bus, int parent, uint64_t *addr)
{
	int len;
	const uint8_t *r = fdt_prop(fdt, bus, "ranges", &len);
	int ca = cells(fdt, bus, "#address-cells", 2);
	int cs = cells(fdt, bus, "#size-cells", 1);
	int pa = cells(fdt, parent, "#address-cells", 2);
	int entry = 4 * (ca + pa + cs);

	if (!r || ca < 0 || cs < 0 || pa < 0)
		return -1;	/* no ranges: the bus is not CPU-visible */
	if (len == 0)
		return 0;	/* empty ranges: the same addresses */
	for (int off = 0; entry > 0 && off + entry <= len; off += entry) {
		uint64_t child = ca ? fdt_cells(r + off, ca) : 0;
		uint64_t par = pa ? fdt_cells(r + off + 4 * ca, pa) : 0;
		uint64_t size = cs ? fdt_cells(r + off + 4 * (ca + pa), cs) : 0;

		if (*addr >= child && *addr - child < size) {
			*addr = par + (*addr - child);
			return 0;
		}
	}
	return -1;
}

int fdt_reg_cpu(const void *fdt, int node, int index, uint64_t *addr,
		uint64_t *size)
{
	int bus = fdt_parent(fdt, node), len;
	const uint8_t *reg = fdt_prop(fdt, node, "reg", &len);

	if (bus < 0 || !reg || index < 0)
		return -1;
	int ac = cells(fdt, bus, "#address-cells", 2);
	int sc = cells(fdt, bus, "#size-cells", 1);

	if (ac <= 0 || sc < 0 || len < 4 * (ac + sc) * (index + 1))
		return -1;
	reg += 4 * (ac + sc) * index;
	*addr = fdt_cells(reg, ac);
	*size = sc ? fdt_cells(reg + 4 * ac, sc) : 0;
	for (int depth = 0; depth <= MAX_DEPTH; depth++) {
		int up = fdt_parent(fdt, bus);

		if (up < 0)
			return 0;	/* 'bus' is the root: CPU addresses */
		if (up_one(fdt, bus, up, addr))
			return -1;
		bus = up;
	}
	return -1;
}

static int usable(const void *fdt, int node)
{
	int len;
	const char *s = fdt_prop(fdt, node, "status", &len);

	return !s || fdt_prop_has_string(fdt, node, "status", "okay") ||
	       fdt_prop_has_string(fdt, node, "status", "ok");
}

static int find_below(const void *fdt, int from, const char *compat, int depth)
{
	if (depth > MAX_DEPTH)
		return -1;
	for (int c = fdt_first_child(fdt, from); c >= 0; c = fdt_next_sibling(fdt, c)) {
		if (fdt_prop_has_string(fdt, c, "compatible", compat) && usable(fdt, c))
			return c;
		int n = find_below(fdt, c, compat, depth + 1);

		if (n >= 0)
			return n;
	}
	return -1;
}

int fdt_find_compatible(const void *fdt, const char *compat)
{
	int root = fdt_path(fdt, "/");

	return root < 0 ? -1 : find_below(fdt, root, compat, 0);
}

/* A string property copied into 'buf' up to the first 'stop' character
 * (or its end); 0 if absent, unterminated or too long. */
static int prop_string(const void *fdt, int node, const char *name, char stop,
		       char *buf, int size)
{
	int len, n = 0;
	const char *p = node >= 0 ? fdt_prop(fdt, node, name, &len) : NULL;

	if (!p)
		return 0;
	while (n < len && p[n] && p[n] != stop)
		n++;
	if (n == len || n == 0 || n >= size)	/* unterminated, empty, long */
		return 0;
	for (int i = 0; i < n; i++)
		buf[i] = p[i];
	buf[n] = '\0';
	return 1;
}

int fdt_alias(const void *fdt, const char *alias)
{
	char path[MAX_PATH];

	if (!prop_string(fdt, fdt_path(fdt, "/aliases"), alias, '\0', path, sizeof(path)))
		return -1;
	return path[0] == '/' ? fdt_path(fdt, path) : -1;
}

int fdt_stdout(const void *fdt)
{
	char spec[MAX_PATH];

	if (!prop_string(fdt, fdt_path(fdt, "/chosen"), "stdout-path", ':', spec,
			 sizeof(spec)))
		return -1;
	return spec[0] == '/' ? fdt_path(fdt, spec) : fdt_alias(fdt, spec);
}
