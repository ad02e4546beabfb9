/*
 * tools/baretrace/output/export/export_tracecmd_page.c: one CPU's events as the
 * Linux ring buffer lays them out in pages (trace-cmd.dat(5), "CPU
 * DATA"), the layout export_tracecmd_head.c's header_page and
 * header_event texts describe.
 *
 * A page is BT_TC_PAGE bytes: a 64-bit timestamp (the time of its first
 * event), a 64-bit "commit" word (bytes of event data used; bit 31: events
 * were lost before this page, bit 30: their count is stored as a 64-bit
 * word right after the data), then the events, each 4-byte aligned:
 *
 *   word 0: type_len (bits 0-4) | time delta from the previous event (bits 5-31)
 *   type_len 1..28: data of type_len * 4 bytes follows
 *   type_len 0:     word 1 holds the data length + 4, data follows it
 *   type_len 30:    time extend, word 1 holds delta >> 27 (no data)
 *
 * Everything is little-endian. The last 8 bytes of every page stay free
 * so a loss count always fits.
 *
 * Only the open page is in memory: a page that closes goes to its CPU's
 * spill file, a temporary file beside the output (unlinked as soon as it
 * is made, so nothing stays behind), and the export copies the spill
 * files into the .dat, each CPU's section whole, once their lengths are
 * known (export_tracecmd.c). Memory is a page per CPU however long the
 * trace is.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../base/util.h"

#include "bt_tracecmd.h"

#define PAGE_HEAD	16		/* timestamp, commit */
#define PAGE_ROOM	(BT_TC_PAGE - PAGE_HEAD - 8)	/* 8: a loss count */
#define DELTA_BITS	27
#define TYPE_MAX_SMALL	28		/* type_len 1..28: length in words */
#define TYPE_TIME_EXT	30
#define MISSED_EVENTS	(1ull << 31)
#define MISSED_STORED	(1ull << 30)

static void put_le(uint8_t *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static const char *spill_near;	/* the output's path */

void bt_tc_spill_near(const char *out)
{
	spill_near = out;
}

static uint8_t *page(struct bt_tc_cpu *c)
{
	return c->page;
}

/* A closed page goes to the CPU's spill file, made on first use. */
static void spill(struct bt_tc_cpu *c)
{
	if (!c->spill) {
		size_t n = strlen(spill_near) + 16;
		char *path = bt_alloc(n);
		int fd;

		snprintf(path, n, "%s.tmp-XXXXXX", spill_near);
		fd = mkstemp(path);
		if (fd < 0 || !(c->spill = fdopen(fd, "w+b")))
			bt_die(BT_EXIT_INPUT, "cannot create a temporary file beside %s: %s",
			       spill_near, strerror(errno));
		unlink(path);
		free(path);
	}
	if (fwrite(c->page, 1, BT_TC_PAGE, c->spill) != BT_TC_PAGE)
		bt_die(BT_EXIT_INPUT, "cannot write a temporary file beside %s: %s", spill_near,
		       strerror(errno));
}

int bt_tc_copy(struct bt_tc_cpu *c, FILE *out)
{
	static uint8_t buf[1 << 16];
	uint64_t left = c->len;

	if (!c->spill)
		return 0;
	if (fflush(c->spill) || fseek(c->spill, 0, SEEK_SET))
		return -1;
	while (left) {
		size_t n = left < sizeof(buf) ? (size_t)left : sizeof(buf);

		if (fread(buf, 1, n, c->spill) != n || fwrite(buf, 1, n, out) != n)
			return -1;
		left -= n;
	}
	return 0;
}

void bt_tc_free(struct bt_tc_cpu *c)
{
	if (c->spill)
		fclose(c->spill);
	c->spill = NULL;
}

/* Ends the open page: its commit word, the loss mark it carries. */
static void page_close(struct bt_tc_cpu *c)
{
	uint8_t *p;
	uint64_t commit;

	if (!c->open)
		return;
	p = page(c);
	commit = c->used;
	if (c->page_lost) {
		commit |= MISSED_EVENTS | MISSED_STORED;
		put_le(p + PAGE_HEAD + c->used, c->page_lost, 8);
	}
	put_le(p + 8, commit, 8);
	c->open = 0;
	spill(c);
}

static void page_open(struct bt_tc_cpu *c, uint64_t ns)
{
	memset(c->page, 0, BT_TC_PAGE);
	c->len += BT_TC_PAGE;
	put_le(page(c), ns, 8);
	c->open = 1;
	c->used = 0;
	c->last_ns = ns;
	c->page_lost = c->lost;	/* the new page carries the losses before it */
	c->lost = 0;
}

static void put_word(struct bt_tc_cpu *c, uint32_t w)
{
	put_le(page(c) + PAGE_HEAD + c->used, w, 4);
	c->used += 4;
}

void bt_tc_event(struct bt_tc_cpu *c, uint64_t ns, const void *data, size_t len)
{
	size_t words = (len + 3) / 4, need;
	uint64_t delta;

	if (ns < c->last_ns)	/* a step back (a restart): ring buffers never go back */
		ns = c->last_ns;
	need = 4 + (words > TYPE_MAX_SMALL ? 4 : 0) + words * 4;
	if (need > PAGE_ROOM)
		bt_die(BT_EXIT_INPUT, "internal error: trace-cmd event of %zu bytes", len);
	if (c->open && c->lost)	/* a loss starts a page, which carries its mark */
		page_close(c);
	delta = c->open ? ns - c->last_ns : 0;
	need += delta >> DELTA_BITS ? 8 : 0;
	if (!c->open || c->used + need > PAGE_ROOM) {
		page_close(c);
		page_open(c, ns);
		delta = 0;
	}
	if (delta >> DELTA_BITS) {	/* too big for 27 bits: a time extend first */
		put_word(c, TYPE_TIME_EXT | (uint32_t)(delta & ((1u << DELTA_BITS) - 1)) << 5);
		put_word(c, (uint32_t)(delta >> DELTA_BITS));
		delta = 0;
	}
	if (words > TYPE_MAX_SMALL) {
		put_word(c, (uint32_t)delta << 5);
		put_word(c, (uint32_t)(len + 4));
	} else {
		put_word(c, (uint32_t)words | (uint32_t)delta << 5);
	}
	memcpy(page(c) + PAGE_HEAD + c->used, data, len);
	c->used += words * 4;
	c->last_ns = ns;
	c->events++;
}

void bt_tc_lost(struct bt_tc_cpu *c, uint64_t events)
{
	c->lost += events;
}

void bt_tc_finish(struct bt_tc_cpu *c)
{
	page_close(c);
}
