/*
 * tools/baretrace/output/export/ctf_packet.c: the CTF packets of export_ctf.c:
 * little-endian, byte-aligned values appended to the packet being
 * built, the event header and context, and each packet's header and
 * context filled in when it closes (the layout ctf_meta.c describes).
 */
#include <errno.h>
#include <string.h>

#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../decode/units.h"

#include "bt_tracecmd.h"

#define CTF_MAGIC	0xC1FC1FC1u
#define CONTEXT_AT	24	/* packet context follows the 24-byte header */

uint64_t bt_ctf_ns(const struct bt_ctf *c, uint64_t ticks)
{
	return bt_ticks_ns(ticks, bt_freq(c->d));
}

void bt_ctf_put_bytes(struct bt_ctf *c, const void *p, size_t n)
{
	c->buf = bt_grow(c->buf, &c->cap, c->len + n, 1);
	memcpy(c->buf + c->len, p, n);
	c->len += n;
}

void bt_ctf_put_u64_at(struct bt_ctf *c, size_t at, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		c->buf[at + i] = (uint8_t)(v >> (8 * i));
}

void bt_ctf_put_u64(struct bt_ctf *c, uint64_t v)
{
	c->buf = bt_grow(c->buf, &c->cap, c->len + 8, 1);
	c->len += 8;
	bt_ctf_put_u64_at(c, c->len - 8, v);
}

void bt_ctf_put_u32(struct bt_ctf *c, uint32_t v)
{
	uint8_t b[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };

	bt_ctf_put_bytes(c, b, 4);
}

/* A CTF string ends at its NUL, so NULs inside become '?'. */
void bt_ctf_put_str(struct bt_ctf *c, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		bt_ctf_put_bytes(c, s[i] ? &s[i] : "?", 1);
	bt_ctf_put_bytes(c, "", 1);
}

void bt_ctf_put_cstr(struct bt_ctf *c, const char *s)
{
	bt_ctf_put_str(c, s, strlen(s));
}

/* ts in ns; then the context (see the head of the file). */
void bt_ctf_event(struct bt_ctf *c, uint32_t id, uint64_t ts)
{
	struct bt_ctf_stream *s = &c->cpu[c->cur];

	if (ts < s->last_ts)
		ts = s->last_ts;
	s->last_ts = ts;
	bt_ctf_put_u32(c, id);
	bt_ctf_put_u64(c, ts);
	bt_ctf_put_u32(c, 1);
	bt_ctf_put_u32(c, c->cur + 1);
	bt_ctf_put_cstr(c, "baretrace");
}

void bt_ctf_packet_open(struct bt_ctf *c, unsigned cpu, uint64_t base_ts)
{
	struct bt_ctf_stream *s = &c->cpu[cpu];

	if (!s->f) {
		char path[4096];

		snprintf(path, sizeof(path), "%s/stream_%u", c->dir, cpu);
		s->f = fopen(path, "wb");
		if (!s->f)
			bt_die(BT_EXIT_INPUT, "cannot create %s: %s", path, strerror(errno));
	}
	c->cur = cpu;
	c->open = 1;
	c->len = 0;
	bt_ctf_put_u32(c, CTF_MAGIC);
	bt_ctf_put_bytes(c, c->uuid, 16);
	bt_ctf_put_u32(c, 0);			/* stream id */
	for (int i = 0; i < 5; i++)	/* begin, end, content, packet size, seq */
		bt_ctf_put_u64(c, 0);
	bt_ctf_put_u32(c, cpu);
	c->begin_ts = base_ts > s->last_ts ? base_ts : s->last_ts;
}

void bt_ctf_packet_close(struct bt_ctf *c)
{
	struct bt_ctf_stream *s = &c->cpu[c->cur];

	bt_ctf_put_u64_at(c, CONTEXT_AT, c->begin_ts);
	bt_ctf_put_u64_at(c, CONTEXT_AT + 8, s->last_ts > c->begin_ts ? s->last_ts : c->begin_ts);
	bt_ctf_put_u64_at(c, CONTEXT_AT + 16, (uint64_t)c->len * 8);
	bt_ctf_put_u64_at(c, CONTEXT_AT + 24, (uint64_t)c->len * 8);
	bt_ctf_put_u64_at(c, CONTEXT_AT + 32, s->packets++);
	if (fwrite(c->buf, 1, c->len, s->f) != c->len)
		bt_die(BT_EXIT_INPUT, "error writing CTF stream %u in %s", c->cur, c->dir);
	c->open = 0;
}
