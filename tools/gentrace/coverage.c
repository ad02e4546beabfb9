/*
 * tools/gentrace/coverage.c: gentrace's MODE coverage[,hash=H][,sites=N]
 * [,prev][,chunk=C]: coverage frames (wire.md 2.11) where EVENTS
 * distinct sites, drawn at random, were reached; an earlier partial set,
 * then the whole set, C sites a frame (1024; a multiple of 8). With hash, the metadata names that image (an
 * ELF's .bt_tables CRC) and no symbol dump is sent; prev adds the
 * previous boot's frames (type 9), of EVENTS / 2 random sites. The sites
 * reached in either boot go to OUT.sites, one a line, for the tests to
 * compare against.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gentrace.h"

static uint64_t chunk = 1024;	/* sites a frame */

static void put_bits(unsigned type, uint64_t *seq, const uint8_t *bits)
{
	for (uint64_t first = 0; first < nsites; first += chunk) {
		uint8_t body[2 * WIRE_VARINT_MAX + 128];
		uint64_t n = nsites - first < chunk ? nsites - first : chunk;
		unsigned len = wire_varint_put(body, first);

		len += wire_varint_put(body + len, n);
		memcpy(body + len, bits + first / 8, (size_t)(n + 7) / 8);
		put_frame(type, 0, (*seq)++, body, len + (size_t)(n + 7) / 8);
	}
}

static void draw(uint8_t *bits, uint64_t count)
{
	for (uint64_t got = 0; got < count && got < nsites;) {
		uint64_t s = rnd() % nsites;

		got += !(bits[s / 8] >> (s % 8) & 1);
		bits[s / 8] |= (uint8_t)(1u << (s % 8));
	}
}

int coverage(const char *path, const char *mode, uint64_t reached)
{
	const char *p;
	int prev = strstr(mode, ",prev") != NULL;
	uint8_t *now, *before, *half;
	uint64_t seq8 = 0, seq9 = 0;
	char name[4096];
	FILE *list;

	if ((p = strstr(mode, ",hash=")))
		image_hash = (uint32_t)strtoul(p + 6, NULL, 0), have_hash = 1;
	if ((p = strstr(mode, ",sites=")))
		nsites = strtoull(p + 7, NULL, 0);
	if ((p = strstr(mode, ",chunk=")))
		chunk = strtoull(p + 7, NULL, 0);
	if (!chunk || chunk % 8 || chunk > 1024)
		return 1;
	if (!(now = calloc(3, nsites / 8 + 1)))
		return 1;
	before = now + nsites / 8 + 1;
	half = before + nsites / 8 + 1;
	put_meta(1, 3);		/* version 3: coverage frames */
	if (!have_hash)
		put_symbols();
	if (prev) {		/* sent right after the metadata, as 2.10's */
		draw(before, reached / 2);
		put_bits(WIRE_FRAME_PREV_COVERAGE, &seq9, before);
	}
	draw(now, reached);
	/* A 'coverage send' halfway: a subset, bits only go 0 -> 1. */
	for (uint64_t s = 0, k = 0; s < nsites; s++)
		if (now[s / 8] >> (s % 8) & 1 && k++ % 2 == 0)
			half[s / 8] |= (uint8_t)(1u << (s % 8));
	put_bits(WIRE_FRAME_COVERAGE, &seq8, half);
	put_bits(WIRE_FRAME_COVERAGE, &seq8, now);
	snprintf(name, sizeof(name), "%s.sites", path);
	list = fopen(name, "w");
	for (uint64_t s = 0; list && s < nsites; s++)
		if ((now[s / 8] | before[s / 8]) >> (s % 8) & 1)
			fprintf(list, "%llu\n", (unsigned long long)s);
	return !list || fclose(list);
}
