/* sources: kernel/bootinfo/fdt.c kernel/bootinfo/fdt_addr.c */
/*
 * test/fuzz/fuzz_fdt.c: every fdt.c and fdt_addr.c entry point on
 * arbitrary bytes.
 *
 * An input that starts with the DTB magic is used as the blob itself, so
 * fdt_check is fuzzed too. Any other input is a structure block and a
 * strings block under a header built here (its first two bytes,
 * big-endian, give the structure block's length modulo what is left),
 * so mutations spend their effort on tokens, not on the header.
 *
 * Each accepted blob is also rebuilt twice in exact-size heap buffers,
 * once with the structure block last and once with the strings block
 * last, so a read past the end of either block hits an ASan redzone
 * instead of the neighbouring block. Beyond "does not crash", every name
 * and property value the reader returns must lie inside the structure
 * block: the promise fdt.h makes ("a damaged DTB gives errors, never a
 * wild read").
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fdt.h"
#include "fdt_addr.h"
#include "fuzz.h"

/* Header fields, devicetree specification v0.4 5.2. */
enum { H_MAGIC = 0, H_TOTAL = 4, H_STRUCT = 8, H_STRINGS = 12,
       H_VERSION = 20, H_STRINGS_LEN = 32, H_STRUCT_LEN = 36, H_LEN = 40 };

/* The structure block of the blob being walked. */
static const uint8_t *block_start, *block_end;

static void check_span(const void *p, int len)
{
	const uint8_t *b = p;

	must(len >= 0 && b >= block_start && b <= block_end &&
	     (size_t)len <= (size_t)(block_end - b));
}

static void visit(const void *fdt, int node)
{
	static const char *const props[] = {
		"compatible", "reg", "#address-cells", "#size-cells",
		"device_type", "bootargs", "",
	};
	const char *name = fdt_name(fdt, node);

	if (name)
		check_span(name, (int)strlen(name) + 1);
	for (size_t i = 0; i < sizeof(props) / sizeof(props[0]); i++) {
		int len = -1;
		const void *v = fdt_prop(fdt, node, props[i], &len);

		if (v)
			check_span(v, len);
	}
	/* Results are discarded; the walk itself is what is under test. */
	(void)fdt_prop(fdt, node, "reg", NULL);
	(void)fdt_prop_has_string(fdt, node, "compatible", "arm,pl011");
	(void)fdt_prop_has_string(fdt, node, "compatible", "");
	(void)fdt_prop_has_string(fdt, node, "device_type", "cpu");
	/* A parent comes before its child in the blob. */
	int parent = fdt_parent(fdt, node);

	must(parent < node);
	for (int i = 0; i < 2; i++) {
		uint64_t addr, size;

		(void)fdt_reg_cpu(fdt, node, i, &addr, &size);
	}
}

/*
 * Depth-first over children and siblings. The depth bound is past the
 * reader's own limit of 64 so that limit is exercised; the node budget
 * keeps a pathological wide tree from turning one input into a timeout.
 */
static void walk(const void *fdt, int node, int depth, int *budget)
{
	int prev = -1;

	if (depth > 70)
		return;
	for (int c = fdt_first_child(fdt, node); c >= 0 && (*budget)-- > 0;
	     c = fdt_next_sibling(fdt, c)) {
		/* Offsets only move forward, so the walk always ends. */
		must(c > node && c > prev);
		prev = c;
		visit(fdt, c);
		walk(fdt, c, depth + 1, budget);
	}
}

/* Walks a blob that fdt_check accepted. */
static void exercise(const uint8_t *fdt, size_t size)
{
	static const char *const paths[] = {
		"/", "/chosen", "/cpus", "/cpus/cpu@0", "/cpus/cpu", "/memory",
		"/pl011", "/psci", "//chosen//", "/a/b/c/d", "/@", "relative",
	};
	int budget = 4096;

	block_start = fdt + fdt_be32(fdt + H_STRUCT);
	block_end = block_start + fdt_be32(fdt + H_STRUCT_LEN);
	must(fdt_totalsize(fdt) <= size);
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		int node = fdt_path(fdt, paths[i]);

		if (node >= 0)
			visit(fdt, node);
	}
	int root = fdt_path(fdt, "/");

	if (root >= 0) {
		visit(fdt, root);
		walk(fdt, root, 0, &budget);
	}
	(void)fdt_stdout(fdt);
	(void)fdt_alias(fdt, "serial0");
	(void)fdt_find_compatible(fdt, "arm,pl011");
	/* Handles that are not node offsets must be refused, not followed. */
	for (int off = -8; off < 64; off += 3) {
		(void)fdt_name(fdt, off);
		(void)fdt_first_child(fdt, off);
		(void)fdt_next_sibling(fdt, off);
		(void)fdt_prop(fdt, off, "reg", NULL);
	}
}

static void put_be32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (24 - 8 * i));
}

/*
 * A blob holding copies of the two blocks, 'last' of them at the very
 * end of an exact-size allocation; the header is copied from 'hdr' with
 * offsets and sizes rewritten. The structure block stays 4-aligned.
 */
static void relayout(const uint8_t *hdr, const uint8_t *st, uint32_t st_len,
		     const uint8_t *sr, uint32_t sr_len, int struct_last)
{
	uint32_t st_off = struct_last ? (H_LEN + sr_len + 3) & ~3u : H_LEN;
	uint32_t sr_off = struct_last ? H_LEN : H_LEN + st_len;
	uint32_t total = struct_last ? st_off + st_len : sr_off + sr_len;
	uint8_t *b = calloc(1, total);

	memcpy(b, hdr, H_LEN);
	memcpy(b + st_off, st, st_len);
	memcpy(b + sr_off, sr, sr_len);
	put_be32(b + H_TOTAL, total);
	put_be32(b + H_STRUCT, st_off);
	put_be32(b + H_STRUCT_LEN, st_len);
	put_be32(b + H_STRINGS, sr_off);
	put_be32(b + H_STRINGS_LEN, sr_len);
	must(fdt_check(b, total) == 0);
	exercise(b, total);
	free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size >= 4 && fdt_be32(data) == FDT_MAGIC) {
		if (fdt_check(data, size) != 0)
			return 0;
		exercise(data, size);
		const uint8_t *st = data + fdt_be32(data + H_STRUCT);
		const uint8_t *sr = data + fdt_be32(data + H_STRINGS);
		uint32_t st_len = fdt_be32(data + H_STRUCT_LEN);
		uint32_t sr_len = fdt_be32(data + H_STRINGS_LEN);

		relayout(data, st, st_len, sr, sr_len, 1);
		relayout(data, st, st_len, sr, sr_len, 0);
		return 0;
	}
	if (size < 2)
		return 0;
	uint8_t hdr[H_LEN] = { 0 };
	uint32_t n = (uint32_t)size - 2;
	uint32_t split = ((uint32_t)data[0] << 8 | data[1]) % (n + 1);

	put_be32(hdr + H_MAGIC, FDT_MAGIC);
	put_be32(hdr + H_VERSION, 17);
	relayout(hdr, data + 2, split, data + 2 + split, n - split, 1);
	relayout(hdr, data + 2, split, data + 2 + split, n - split, 0);
	return 0;
}
