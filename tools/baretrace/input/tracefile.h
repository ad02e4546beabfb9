/*
 * tools/baretrace/input/tracefile.h: the lowest layer that reads a trace:
 * the .bt file (tracefile.c), its magic and its whole, checked frames.
 * It knows nothing of what a frame means (decode/ does).
 */
#ifndef TOOLS_BARETRACE_INPUT_TRACEFILE_H
#define TOOLS_BARETRACE_INPUT_TRACEFILE_H

#include <stdint.h>
#include <stdio.h>

extern const uint8_t bt_file_magic[8];
FILE *bt_file_create(const char *path);
int bt_file_write(FILE *f, const uint8_t *payload, size_t len);
/* Opens and checks the magic; dies with a clear message otherwise. "-"
 * is standard input; it and pipes are read once into a temporary file. */
FILE *bt_file_open(const char *path);
/* The same bytes again, from the start, without checks (NULL: cannot). */
FILE *bt_file_reopen(const char *path);
/* How messages name it: "standard input" for "-". */
const char *bt_file_name(const char *path);
/*
 * 1: a checked frame in buf, 0: end of file, -1: the rest of the file
 * holds no whole frame (cut short or damaged). Bytes that are not a
 * frame whose length and CRC check (a damaged length field, say) are
 * skipped up to the next one that does; *skipped counts them.
 */
int bt_file_next(FILE *f, uint8_t *buf, size_t *len, uint64_t *skipped);

#endif /* TOOLS_BARETRACE_INPUT_TRACEFILE_H */
