/* sources: kernel/bootinfo/fdt.c */
/*
 * test/host/test_fdt.c: the DTB reader on the blob QEMU itself produced
 * (argv[1], from "-M virt,dumpdtb=FILE -smp 4 -m 512M"), so the expected
 * values come from QEMU's machine model, not from this file's author
 * re-encoding a tree. Damaged copies live in exact-size heap buffers with
 * the structure block last, so any read past it lands in an ASan redzone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fdt.h"
#include "tap.h"

/* Header field offsets, from the devicetree specification v0.4 5.2. */
enum { H_TOTAL = 4, H_STRUCT = 8, H_STRINGS = 12, H_VERSION = 20,
       H_STRINGS_LEN = 32, H_STRUCT_LEN = 36 };

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint8_t *load(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	uint8_t *b = NULL;
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) <= 0 ||
	    fseek(f, 0, SEEK_SET) || !(b = malloc((size_t)n)) ||
	    fread(b, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "test_fdt: cannot read DTB '%s'\n", path);
		exit(2);
	}
	fclose(f);
	*size = (size_t)n;
	return b;
}

/*
 * A copy laid out as header+reserve map, strings, then structure block,
 * with no padding after it: QEMU pads its blob to 1 MiB and puts the
 * strings after the structure, both of which would hide an over-read.
 */
static uint8_t *compact(const uint8_t *fdt, size_t *size)
{
	uint32_t st = fdt_be32(fdt + H_STRUCT), st_len = fdt_be32(fdt + H_STRUCT_LEN);
	uint32_t sr = fdt_be32(fdt + H_STRINGS), sr_len = fdt_be32(fdt + H_STRINGS_LEN);
	uint32_t new_st = (st + sr_len + 3) & ~3u;	/* blocks are 4-aligned */
	uint8_t *c = malloc(new_st + st_len);

	memcpy(c, fdt, st);			/* header and reserve map */
	memcpy(c + st, fdt + sr, sr_len);
	memset(c + st + sr_len, 0, new_st - st - sr_len);
	memcpy(c + new_st, fdt + st, st_len);
	put_be32(c + H_TOTAL, new_st + st_len);
	put_be32(c + H_STRINGS, st);
	put_be32(c + H_STRUCT, new_st);
	*size = new_st + st_len;
	return c;
}

static uint32_t cell_prop(const void *fdt, int node, const char *name)
{
	int len = 0;
	const void *p = fdt_prop(fdt, node, name, &len);

	return p && len == 4 ? fdt_be32(p) : 0xffffffffu;
}

static void real_tree(const uint8_t *fdt, size_t size, const char *label)
{
	char what[96];
	int root = fdt_path(fdt, "/");

#define WHAT(s) (snprintf(what, sizeof(what), "%s: %s", label, s), what)
	tap_eq_int(fdt_check(fdt, size), 0, WHAT("fdt_check accepts it"));
	tap_eq_int(root, 0, WHAT("root is the first structure token"));
	tap_eq_str(fdt_name(fdt, fdt_path(fdt, "/chosen")), "chosen",
		   WHAT("/chosen found"));

	int cpus = fdt_path(fdt, "/cpus"), ncpu = 0, names_ok = 1;

	for (int c = fdt_first_child(fdt, cpus); c >= 0;
	     c = fdt_next_sibling(fdt, c)) {
		char want[16];

		if (!fdt_prop_has_string(fdt, c, "device_type", "cpu"))
			continue;	/* cpu-map has no device_type */
		snprintf(want, sizeof(want), "cpu@%d", ncpu++);
		names_ok &= fdt_name(fdt, c) && !strcmp(fdt_name(fdt, c), want);
	}
	tap_eq_int(ncpu, 4, WHAT("/cpus has 4 device_type=cpu children"));
	tap_ok(names_ok, "%s", WHAT("they are cpu@0..cpu@3 in order"));
	tap_ok(fdt_path(fdt, "/cpus/cpu@2") > cpus,
	       "%s", WHAT("/cpus/cpu@2 found inside /cpus"));

	int len = -1;
	const char *method = fdt_prop(fdt, fdt_path(fdt, "/psci"), "method", &len);

	tap_ok(method && len == 4 && !memcmp(method, "hvc", 4),
	       "%s", WHAT("/psci method is \"hvc\""));

	uint32_t ac = cell_prop(fdt, root, "#address-cells");
	uint32_t sc = cell_prop(fdt, root, "#size-cells");

	tap_ok(ac == 2 && sc == 2, "%s", WHAT("root #address-cells and #size-cells are 2"));
	int mem = fdt_path(fdt, "/memory");
	const uint8_t *reg = fdt_prop(fdt, mem, "reg", &len);

	tap_eq_str(fdt_name(fdt, mem), "memory@40000000",
		   WHAT("/memory matches memory@40000000"));
	tap_ok(reg && len == 16 && fdt_cells(reg, 2) == 0x40000000 &&
	       fdt_cells(reg + 8, 2) == 512u << 20,
	       "%s", WHAT("/memory reg is 0x40000000 + 512 MiB"));

	int uart = fdt_path(fdt, "/pl011");

	tap_eq_str(fdt_name(fdt, uart), "pl011@9000000",
		   WHAT("/pl011 finds pl011@9000000"));
	tap_ok(fdt_prop_has_string(fdt, uart, "compatible", "arm,pl011") &&
	       fdt_prop_has_string(fdt, uart, "compatible", "arm,primecell"),
	       "%s", WHAT("pl011 compatible has both of its strings"));
	tap_ok(!fdt_prop_has_string(fdt, uart, "compatible", "arm,pl01") &&
	       !fdt_prop_has_string(fdt, uart, "compatible", "arm,pl0111") &&
	       !fdt_prop_has_string(fdt, uart, "no-such-prop", "arm,pl011"),
	       "%s", WHAT("compatible needs a whole-string match"));
	reg = fdt_prop(fdt, uart, "reg", NULL);
	tap_ok(reg && fdt_cells(reg, 2) == 0x09000000,
	       "%s", WHAT("pl011 reg base is 0x09000000 (len pointer NULL)"));

	tap_ok(fdt_path(fdt, "/nonexistent") == -1 &&
	       fdt_path(fdt, "/cpus/cpu@4") == -1 &&
	       fdt_path(fdt, "/pl01") == -1 &&
	       fdt_path(fdt, "/chosen/stdout-path") == -1 &&
	       fdt_path(fdt, "chosen") == -1,
	       "%s", WHAT("missing, partial, property and relative paths give -1"));
	tap_ok(fdt_prop(fdt, root, "no-such-prop", NULL) == NULL,
	       "%s", WHAT("missing property gives NULL"));
#undef WHAT
}

/* A fresh damaged copy per case, so one corruption never hides another. */
static uint8_t *copy_of(const uint8_t *c, size_t size)
{
	uint8_t *d = malloc(size);

	memcpy(d, c, size);
	return d;
}

static void bad_headers(const uint8_t *c, size_t size)
{
	uint32_t total = (uint32_t)size;
	static const struct { const char *what; int field; uint32_t value; } cases[] = {
		{ "bad magic", 0, 0xd00dfeeeu },
		{ "version 16", H_VERSION, 16 },
		{ "totalsize below the header", H_TOTAL, 39 },
		{ "struct offset unaligned", H_STRUCT, 0x42 },
		{ "struct offset inside the header", H_STRUCT, 0x24 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t *d = copy_of(c, size);

		put_be32(d + cases[i].field, cases[i].value);
		tap_eq_int(fdt_check(d, size), -1, cases[i].what);
		free(d);
	}
	/* Cases whose value depends on the blob's own layout. */
	struct { const char *what; int field; uint32_t value; } rel[] = {
		{ "struct offset beyond totalsize", H_STRUCT, total + 4 },
		{ "struct block overruns totalsize", H_STRUCT_LEN,
		  total - fdt_be32(c + H_STRUCT) + 1 },
		{ "strings offset beyond totalsize", H_STRINGS, total + 1 },
		{ "strings block overruns totalsize", H_STRINGS_LEN,
		  total - fdt_be32(c + H_STRINGS) + 1 },
		{ "huge sizes that wrap in 32 bits", H_STRUCT_LEN, 0xfffffffcu },
	};
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		uint8_t *d = copy_of(c, size);

		put_be32(d + rel[i].field, rel[i].value);
		tap_eq_int(fdt_check(d, size), -1, rel[i].what);
		free(d);
	}
	tap_eq_int(fdt_check(c, size - 1), -1, "buffer one byte short of totalsize");
	tap_eq_int(fdt_check(c, 39), -1, "buffer shorter than a header");
	tap_eq_int(fdt_check(NULL, size), -1, "NULL blob");
}

/* Corrupts a field of /psci's "method" property, found through the API. */
static uint8_t *bad_method(const uint8_t *c, size_t size, int field_off,
			   uint32_t value)
{
	uint8_t *d = copy_of(c, size);
	const uint8_t *v = fdt_prop(d, fdt_path(d, "/psci"), "method", NULL);

	put_be32((uint8_t *)v + field_off, value);
	return d;
}

static void bad_structure(const uint8_t *c, size_t size)
{
	uint32_t st_end = fdt_be32(c + H_STRUCT) + fdt_be32(c + H_STRUCT_LEN);
	const uint8_t *v = fdt_prop(c, fdt_path(c, "/psci"), "method", NULL);
	/* Lengths one byte past the block's end, and far past it. */
	uint32_t over[] = { st_end - (uint32_t)(v - c) + 1, 0x7ffffff0u };

	for (int i = 0; i < 2; i++) {
		uint8_t *d = bad_method(c, size, -8, over[i]);
		int psci = fdt_path(d, "/psci");

		tap_eq_int(fdt_check(d, size), 0, "overrunning length: header still fine");
		tap_ok(psci >= 0 && !fdt_prop(d, psci, "method", NULL) &&
		       !fdt_prop_has_string(d, psci, "compatible", "arm,psci-0.2") &&
		       fdt_path(d, "/memory") == -1 && fdt_next_sibling(d, psci) == -1,
		       "property length 0x%x: lookups past it fail", over[i]);
		free(d);
	}

	uint8_t *d = bad_method(c, size, -4, fdt_be32(c + H_STRINGS_LEN));
	tap_ok(!fdt_prop(d, fdt_path(d, "/psci"), "method", NULL),
	       "name offset past the strings block gives NULL");
	free(d);

	d = bad_method(c, size, -12, 5);	/* 5 is no token at all */
	tap_ok(!fdt_prop(d, fdt_path(d, "/psci"), "method", NULL) &&
	       fdt_path(d, "/memory") == -1, "unknown token stops the walk");
	free(d);

	/* End the structure block three bytes into "chosen". */
	d = copy_of(c, size);
	int chosen = fdt_path(d, "/chosen");
	const char *name = fdt_name(d, chosen);

	put_be32(d + H_STRUCT_LEN,
		 (uint32_t)((const uint8_t *)name - d) + 3 - fdt_be32(d + H_STRUCT));
	tap_ok(fdt_check(d, size) == 0 && fdt_name(d, chosen) == NULL &&
	       fdt_path(d, "/chosen") == -1 && fdt_first_child(d, chosen) == -1 &&
	       !fdt_prop(d, chosen, "stdout-path", NULL),
	       "node name cut off by the block end: no name, no node");
	free(d);

	tap_ok(fdt_first_child(c, 2) == -1 && fdt_name(c, 2) == NULL &&
	       fdt_next_sibling(c, -4) == -1 && !fdt_prop(c, 1 << 30, "reg", NULL),
	       "handles that are not node offsets are refused");
}

int main(int argc, char **argv)
{
	static const uint8_t be[8] = { 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0 };
	size_t size, csize;

	if (argc < 2) {
		fprintf(stderr, "usage: %s qemu-virt.dtb\n", argv[0]);
		return 2;
	}
	tap_ok(fdt_be32(be) == 0x12345678 && fdt_cells(be, 1) == 0x12345678 &&
	       fdt_cells(be, 2) == 0x123456789abcdef0ULL, "big-endian cells");

	uint8_t *fdt = load(argv[1], &size);
	real_tree(fdt, size, "qemu blob");
	uint8_t *c = compact(fdt, &csize);
	real_tree(c, csize, "compact copy");
	bad_headers(c, csize);
	bad_structure(c, csize);
	free(c);
	free(fdt);
	return tap_done();
}
