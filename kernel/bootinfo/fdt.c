/*
 * kernel/bootinfo/fdt.c: see fdt.h. Runs before the MMU is on (the boot
 * CPU reads /memory to build its page tables), so it reads the blob
 * bytewise and is built -mstrict-align.
 */
#include <stddef.h>
#include <stdint.h>

#include "fdt.h"

#define TOK_BEGIN_NODE	1
#define TOK_END_NODE	2
#define TOK_PROP	3
#define TOK_NOP		4
#define TOK_END		9

#define HDR_MAGIC	0
#define HDR_TOTALSIZE	4
#define HDR_OFF_STRUCT	8
#define HDR_OFF_STRINGS	12
#define HDR_VERSION	20
#define HDR_SIZE_STRINGS 32
#define HDR_SIZE_STRUCT	36
#define HDR_LEN		40

uint32_t fdt_be32(const void *p)
{
	const uint8_t *b = p;

	return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) |
	       ((uint32_t)b[2] << 8) | b[3];
}

uint64_t fdt_cells(const void *p, int ncells)
{
	const uint8_t *b = p;

	return ncells == 2 ? ((uint64_t)fdt_be32(b) << 32) | fdt_be32(b + 4)
			   : fdt_be32(b);
}

static uint32_t hdr(const void *fdt, int field)
{
	return fdt_be32((const uint8_t *)fdt + field);
}

uint32_t fdt_totalsize(const void *fdt)
{
	return hdr(fdt, HDR_TOTALSIZE);
}

int fdt_check(const void *fdt, size_t size)
{
	if (!fdt || size < HDR_LEN || hdr(fdt, HDR_MAGIC) != FDT_MAGIC)
		return FDT_ERR;
	uint32_t total = hdr(fdt, HDR_TOTALSIZE);
	uint32_t st = hdr(fdt, HDR_OFF_STRUCT), st_len = hdr(fdt, HDR_SIZE_STRUCT);
	uint32_t sr = hdr(fdt, HDR_OFF_STRINGS), sr_len = hdr(fdt, HDR_SIZE_STRINGS);

	if (total > size || total < HDR_LEN || hdr(fdt, HDR_VERSION) < 17)
		return FDT_ERR;
	if (st < HDR_LEN || st % 4 || st_len > total - st || st > total)
		return FDT_ERR;
	if (sr > total || sr_len > total - sr)
		return FDT_ERR;
	return 0;
}

/* Structure-block view: 'off' values are relative to the block start. */
struct fdt_view {
	const uint8_t *st;
	uint32_t st_len;
	const char *strings;
	uint32_t str_len;
};

static struct fdt_view view(const void *fdt)
{
	const uint8_t *b = fdt;
	struct fdt_view v = {
		b + hdr(fdt, HDR_OFF_STRUCT), hdr(fdt, HDR_SIZE_STRUCT),
		(const char *)b + hdr(fdt, HDR_OFF_STRINGS), hdr(fdt, HDR_SIZE_STRINGS),
	};
	return v;
}

static int tok(const struct fdt_view *v, int off)
{
	if (off < 0 || (uint32_t)off + 4 > v->st_len)
		return -1;
	return (int)fdt_be32(v->st + off);
}

/* Length of a NUL-terminated string at st+off, or -1 if it runs out. */
static int str_len_at(const struct fdt_view *v, int off)
{
	for (uint32_t i = (uint32_t)off; i < v->st_len; i++)
		if (!v->st[i])
			return (int)(i - (uint32_t)off);
	return -1;
}

static int align4(int x) { return (x + 3) & ~3; }

/* Offset just after the token at 'off' (and its payload), or -1. */
static int skip_token(const struct fdt_view *v, int off)
{
	int n;

	switch (tok(v, off)) {
	case TOK_BEGIN_NODE:
		n = str_len_at(v, off + 4);
		return n < 0 ? -1 : off + 4 + align4(n + 1);
	case TOK_PROP: {
		if ((uint32_t)off + 12 > v->st_len)
			return -1;
		uint32_t len = fdt_be32(v->st + off + 4);
		if (len > v->st_len - (uint32_t)off - 12)
			return -1;
		return off + 12 + align4((int)len);
	}
	case TOK_END_NODE:
	case TOK_NOP:
		return off + 4;
	default:
		return -1;
	}
}

/* Offset after the END_NODE matching the BEGIN_NODE at 'node', or -1. */
static int skip_node(const struct fdt_view *v, int node)
{
	int depth = 0, off = node;

	do {
		int t = tok(v, off);

		if (t == TOK_BEGIN_NODE)
			depth++;
		else if (t == TOK_END_NODE)
			depth--;
		else if (t != TOK_PROP && t != TOK_NOP)
			return -1;
		off = skip_token(v, off);
		if (off < 0 || depth > 64)
			return -1;
	} while (depth > 0);
	return off;
}

/* From 'off', skip NOPs and properties; return the next BEGIN_NODE at
 * this level, or -1 at END_NODE or on damage. */
static int next_node_from(const struct fdt_view *v, int off)
{
	for (;;) {
		int t = tok(v, off);

		if (t == TOK_BEGIN_NODE)
			return off;
		if (t != TOK_PROP && t != TOK_NOP)
			return -1;
		off = skip_token(v, off);
		if (off < 0)
			return -1;
	}
}

int fdt_first_child(const void *fdt, int node)
{
	struct fdt_view v = view(fdt);

	if (tok(&v, node) != TOK_BEGIN_NODE)
		return -1;
	return next_node_from(&v, skip_token(&v, node));
}

int fdt_next_sibling(const void *fdt, int node)
{
	struct fdt_view v = view(fdt);

	if (tok(&v, node) != TOK_BEGIN_NODE)
		return -1;
	return next_node_from(&v, skip_node(&v, node));
}

const char *fdt_name(const void *fdt, int node)
{
	struct fdt_view v = view(fdt);

	if (tok(&v, node) != TOK_BEGIN_NODE || str_len_at(&v, node + 4) < 0)
		return NULL;
	return (const char *)v.st + node + 4;
}

static int name_matches(const char *name, const char *comp, int len)
{
	int i;

	for (i = 0; i < len; i++)
		if (name[i] != comp[i])
			return 0;
	return name[i] == '\0' || name[i] == '@';
}

int fdt_path(const void *fdt, const char *path)
{
	struct fdt_view v = view(fdt);
	int node = next_node_from(&v, 0);

	if (node < 0 || *path != '/')
		return -1;
	while (*path) {
		while (*path == '/')
			path++;
		if (!*path)
			break;
		int len = 0;

		while (path[len] && path[len] != '/')
			len++;
		int child;

		for (child = fdt_first_child(fdt, node); child >= 0;
		     child = fdt_next_sibling(fdt, child)) {
			const char *name = fdt_name(fdt, child);

			if (name && name_matches(name, path, len))
				break;
		}
		if (child < 0)
			return -1;
		node = child;
		path += len;
	}
	return node;
}

static int streq_bounded(const char *a, const char *b, uint32_t max)
{
	uint32_t i;

	for (i = 0; i < max && a[i] == b[i]; i++)
		if (!a[i])
			return 1;
	return 0;
}

const void *fdt_prop(const void *fdt, int node, const char *name, int *len)
{
	struct fdt_view v = view(fdt);
	int off;

	if (tok(&v, node) != TOK_BEGIN_NODE)
		return NULL;
	for (off = skip_token(&v, node); off >= 0; off = skip_token(&v, off)) {
		int t = tok(&v, off);

		if (t == TOK_NOP)
			continue;
		if (t != TOK_PROP)
			return NULL;
		if ((uint32_t)off + 12 > v.st_len)
			return NULL;
		uint32_t nameoff = fdt_be32(v.st + off + 8);

		if (nameoff >= v.str_len)
			return NULL;
		if (streq_bounded(v.strings + nameoff, name, v.str_len - nameoff)) {
			uint32_t plen = fdt_be32(v.st + off + 4);

			if (plen > v.st_len - (uint32_t)off - 12)
				return NULL;
			if (len)
				*len = (int)plen;
			return v.st + off + 12;
		}
	}
	return NULL;
}

int fdt_prop_has_string(const void *fdt, int node, const char *name,
			const char *s)
{
	int len;
	const char *p = fdt_prop(fdt, node, name, &len);

	while (p && len > 0) {
		int n = 0;

		while (n < len && p[n])
			n++;
		if (n < len && streq_bounded(p, s, (uint32_t)n + 1))
			return 1;
		p += n + 1;
		len -= n + 1;
	}
	return 0;
}
