/*
 * wire/wire_syms.h: symbol dump entries (docs/wire.md 2.3), version 4.
 * Freestanding, as wire.h.
 */
#ifndef WIRE_SYMS_H
#define WIRE_SYMS_H

#include "wire.h"

/* ---- symbol dumps (section 2.3) ------------------------------------------ */

/*
 * From version 4 a symbol dump entry is coded against the previous entry
 * of its frame: the gap from that entry's end (zigzag), the size, the
 * bytes its name shares with the previous name (u8), then the rest of
 * the name (varint length + bytes). Each frame starts afresh
 * (wire_sym_begin), so a frame decodes on its own.
 */
#define WIRE_SYM_SHARED_MAX	255

struct wire_sym_state {
	uint64_t end;		/* the previous entry's offset + size */
	size_t len;		/* bytes of name[] that hold its name */
	uint8_t name[WIRE_SYM_SHARED_MAX];
};

void wire_sym_begin(struct wire_sym_state *s);
/* Writes one entry: 'off' from _text, 'size', the n-byte 'name'. */
void wire_out_sym(struct wire_out *o, struct wire_sym_state *s, uint64_t off, uint64_t size,
		  const void *name, size_t n);
/*
 * Reads one entry at *p (advanced): its offset and size, and its name as
 * the first *shared bytes of s->name before this call, then *rest_len
 * bytes at *rest. Returns 0, or -1 if it is malformed or cut short.
 * Call wire_sym_took once the name is copied, before the next entry.
 */
int wire_sym_get(const uint8_t **p, const uint8_t *end, struct wire_sym_state *s,
		 uint64_t *off, uint64_t *size, size_t *shared, const uint8_t **rest,
		 size_t *rest_len);
void wire_sym_took(struct wire_sym_state *s, size_t shared, const uint8_t *rest, size_t rest_len);

#endif
