/*
 * kernel/lib/nearest.h: the known name nearest a mistyped one, for "did
 * you mean". Pure: the kernel's boot arguments and tracer lookup use it,
 * and so does the host's pre-boot check (tools/check-names.c), so make
 * and the target suggest the same name for the same word.
 *
 * Nearness counts edits: a character inserted, deleted or replaced, or
 * two neighbours swapped ("maxcpu" is one from "maxcpus",
 * "function_grpah" one from "function_graph"). A name is near when it is
 * at most a third of the word's length away, at least one edit and at
 * most two: further than that the guess is more often wrong than right.
 */
#ifndef KERNEL_NEAREST_H
#define KERNEL_NEAREST_H

#include <stddef.h>

#define NEAREST_MAX_LEN	32	/* a longer word or name is never near */

struct nearest {
	const char *word;	/* what was typed: its first len bytes */
	size_t len;
	unsigned int limit;	/* edits allowed */
	unsigned int edits;	/* the best name's */
	const char *best;	/* the nearest name so far, or NULL */
};

/* Edits from word[0..len) to name; more than NEAREST_MAX_LEN when
 * either is longer than NEAREST_MAX_LEN. */
unsigned int nearest_edits(const char *word, size_t len, const char *name);

/* One search: start, try each known name (in any order: of two names
 * as near, the one first in strcmp order wins), then read n->best. */
void nearest_start(struct nearest *n, const char *word, size_t len);
void nearest_try(struct nearest *n, const char *name);

/* The same over a list of names, each ended by a NUL, the list by an
 * empty name ("function\0nop\0"): the nearest, or NULL. */
const char *nearest_in_list(const char *names, const char *word, size_t len);

#endif /* KERNEL_NEAREST_H */
