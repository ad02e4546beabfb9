/*
 * test/host/rpi_dtb.h: what test_rpi3_dtb.c and test_rpi4_dtb.c share to
 * read a real Raspberry Pi device tree with the kernel's FDT reader:
 * finding Debian's DTB under build/debs, parents, phandles, compatible
 * nodes, and a node's register address seen from the CPU, translated
 * through every bus's "ranges" (devicetree specification v0.4 2.3.8).
 * Static functions: each test includes it once, with its own board.h.
 */
#ifndef TEST_HOST_RPI_DTB_H
#define TEST_HOST_RPI_DTB_H

#include <glob.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fdt.h"

/* Debian's arm64 kernel package, unpacked by tools/fetch-pi. */
#define RPI_DTB_DIR "build/debs/linux-image-arm64/usr/lib/linux-image-*/broadcom/"

static const uint8_t *fdt;

/* A board's BOARD_MMIO_WINDOWS entry. */
struct rpi_window {
	uint64_t base, size;
};

/* True if [base, base+size) lies in one of the n windows w. */
static inline int rpi_in_windows(const struct rpi_window *w, size_t n, uint64_t base,
				 uint64_t size)
{
	for (size_t i = 0; i < n; i++)
		if (base >= w[i].base && base + size <= w[i].base + w[i].size)
			return 1;
	return 0;
}

static inline uint8_t *load(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET) || !(b = malloc((size_t)n)) ||
	    fread(b, 1, (size_t)n, f) != (size_t)n)
		return NULL;
	fclose(f);
	*size = (size_t)n;
	return b;
}

/* The parent of 'node' (the reader has no parent links): a search down
 * from the root. */
static inline int parent_of(int from, int node)
{
	for (int c = fdt_first_child(fdt, from); c >= 0; c = fdt_next_sibling(fdt, c)) {
		if (c == node)
			return from;
		int p = parent_of(c, node);
		if (p >= 0)
			return p;
	}
	return -1;
}

static inline int cells_of(int node, const char *name, int dflt)
{
	int len;
	const void *p = fdt_prop(fdt, node, name, &len);

	return p && len == 4 ? (int)fdt_be32(p) : dflt;
}

static inline uint64_t cells_at(const void *p, int i, int n)
{
	return fdt_cells((const uint8_t *)p + 4 * i, n);
}

/*
 * 'addr' in the address space of the children of 'bus', translated up to
 * the root (the ARM's physical addresses). Returns 0 and sets *ok = 0
 * when a bus's ranges do not cover it.
 */
static inline uint64_t to_cpu(int bus, uint64_t addr, int *ok)
{
	int root = fdt_path(fdt, "/");

	*ok = 1;
	while (bus != root) {
		int up = parent_of(root, bus), len;
		int ca = cells_of(bus, "#address-cells", 2), cs = cells_of(bus, "#size-cells", 1);
		int pa = cells_of(up, "#address-cells", 2);
		const void *r = fdt_prop(fdt, bus, "ranges", &len);
		int step = ca + pa + cs, found = 0;

		if (!r) {
			*ok = 0;	/* no ranges: not reachable from the CPU */
			return 0;
		}
		for (int i = 0; len > 0 && i + step <= len / 4; i += step) {
			uint64_t child = cells_at(r, i, ca), parent = cells_at(r, i + ca, pa);
			uint64_t size = cells_at(r, i + ca + pa, cs);

			if (addr >= child && addr - child < size) {
				addr = parent + (addr - child);
				found = 1;
				break;
			}
		}
		if (len > 0 && !found) {	/* empty ranges: identity */
			*ok = 0;
			return 0;
		}
		bus = up;
	}
	return addr;
}

/* The CPU address of entry 'i' of a node's reg. */
static inline uint64_t reg_cpu(int node, int i, int *ok)
{
	int bus = parent_of(fdt_path(fdt, "/"), node), len;
	int ca = cells_of(bus, "#address-cells", 2), cs = cells_of(bus, "#size-cells", 1);
	const void *reg = fdt_prop(fdt, node, "reg", &len);

	*ok = reg && len >= 4 * (ca + cs) * (i + 1);
	return *ok ? to_cpu(bus, cells_at(reg, i * (ca + cs), ca), ok) : 0;
}

static inline int find_compatible(int from, const char *compat)
{
	for (int c = fdt_first_child(fdt, from); c >= 0; c = fdt_next_sibling(fdt, c)) {
		if (fdt_prop_has_string(fdt, c, "compatible", compat))
			return c;
		int n = find_compatible(c, compat);
		if (n >= 0)
			return n;
	}
	return -1;
}

static inline int find_phandle(int from, uint32_t ph)
{
	for (int c = fdt_first_child(fdt, from); c >= 0; c = fdt_next_sibling(fdt, c)) {
		if ((uint32_t)cells_of(c, "phandle", 0) == ph)
			return c;
		int n = find_phandle(c, ph);
		if (n >= 0)
			return n;
	}
	return -1;
}

/* Each /cpus/cpu node against the board's MPIDRs and spin-table release
 * addresses (BOARD_CPU_MPIDRS, BOARD_SPIN_RELEASE_ADDRS), in order; one
 * TAP line. Needs tap.h. */
static inline void rpi_check_cpus(const uint64_t *mpidr, const uint64_t *release, unsigned int count)
{
	int cpus = fdt_path(fdt, "/cpus"), ac = cells_of(cpus, "#address-cells", 1);
	unsigned int n = 0, good = 0;

	for (int c = cpus >= 0 ? fdt_first_child(fdt, cpus) : -1; c >= 0;
	     c = fdt_next_sibling(fdt, c)) {
		int len, rlen;
		const void *reg = fdt_prop(fdt, c, "reg", &len);
		const void *rel = fdt_prop(fdt, c, "cpu-release-addr", &rlen);

		if (!fdt_prop_has_string(fdt, c, "device_type", "cpu"))
			continue;
		if (n < count && reg && len == 4 * ac && fdt_cells(reg, ac) == mpidr[n] &&
		    rel && rlen == 8 && fdt_cells(rel, 2) == release[n] &&
		    fdt_prop_has_string(fdt, c, "enable-method", "spin-table"))
			good++;
		else
			printf("# %s: reg/enable-method/cpu-release-addr differ from the board\n",
			       fdt_name(fdt, c));
		n++;
	}
	tap_ok(n == count && good == n,
	       "%u CPUs, %u of them with enable-method spin-table and the MPIDR and "
	       "cpu-release-addr of BOARD_CPU_MPIDRS / BOARD_SPIN_RELEASE_ADDRS", n, good);
}

/* Loads RPI_DTB_DIR NAME into 'fdt'; prints its path. 0 if not there. */
static inline int rpi_dtb_load(const char *name, size_t *size)
{
	char pattern[256];
	glob_t g;
	int ok;

	snprintf(pattern, sizeof(pattern), "%s%s", RPI_DTB_DIR, name);
	if (glob(pattern, 0, NULL, &g) != 0)
		return 0;
	printf("# %s\n", g.gl_pathv[0]);
	fdt = load(g.gl_pathv[0], size);
	ok = fdt != NULL;
	globfree(&g);
	return ok;
}

#endif /* TEST_HOST_RPI_DTB_H */
