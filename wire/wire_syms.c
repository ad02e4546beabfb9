/*
 * wire/wire_syms.c: symbol dump entries of version 4 (docs/wire.md 2.3),
 * written and read: each coded against the entry before it in its frame.
 * Shared by the kernel's exporter, the host tool and gentrace.
 * Freestanding.
 */
#include "wire_syms.h"

void wire_sym_begin(struct wire_sym_state *s)
{
	s->end = 0;
	s->len = 0;
}

/* The name becomes the one the next entry is coded against. */
void wire_sym_took(struct wire_sym_state *s, size_t shared, const uint8_t *rest, size_t rest_len)
{
	size_t i;

	for (i = 0; shared + i < WIRE_SYM_SHARED_MAX && i < rest_len; i++)
		s->name[shared + i] = rest[i];
	s->len = shared + i;
}

void wire_out_sym(struct wire_out *o, struct wire_sym_state *s, uint64_t off, uint64_t size,
		  const void *name, size_t n)
{
	const uint8_t *b = name;
	size_t shared = 0;

	while (shared < s->len && shared < n && s->name[shared] == b[shared])
		shared++;
	wire_out_varint(o, wire_zigzag((int64_t)(off - s->end)));
	wire_out_varint(o, size);
	wire_out_u8(o, (uint8_t)shared);
	wire_out_str(o, b + shared, n - shared);
	s->end = off + size;
	wire_sym_took(s, shared, b + shared, n - shared);
}

static int sym_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	int n = *p < end ? wire_varint_get(*p, (size_t)(end - *p), v) : -1;

	if (n < 0)
		return -1;
	*p += n;
	return 0;
}

int wire_sym_get(const uint8_t **p, const uint8_t *end, struct wire_sym_state *s,
		 uint64_t *off, uint64_t *size, size_t *shared, const uint8_t **rest,
		 size_t *rest_len)
{
	uint64_t gap, n;

	if (sym_varint(p, end, &gap) || sym_varint(p, end, size) || *p >= end)
		return -1;
	*shared = *(*p)++;
	if (*shared > s->len || sym_varint(p, end, &n) || n > (uint64_t)(end - *p))
		return -1;
	*off = s->end + (uint64_t)wire_unzigzag(gap);
	s->end = *off + *size;
	*rest = *p;
	*rest_len = (size_t)n;
	*p += n;
	return 0;
}
