/*
 * trace/base/glob.h: ftrace-style glob matching for filters (pure; also
 * built into the host tests and a fuzz target).
 *
 * '*' any run of characters, '?' one character, '[abc]' '[a-z]' a set,
 * '[!a-z]' or '[^a-z]' its complement, '\x' a literal x.
 */
#ifndef TRACE_GLOB_H
#define TRACE_GLOB_H

#include <stdbool.h>
#include <stddef.h>

/* True if the pattern is well formed (every '[' closed, no trailing '\'). */
bool glob_valid(const char *pat, size_t len);
/* Matches the first 'len' bytes of pat against all of s. */
bool glob_match(const char *pat, size_t len, const char *s);

/*
 * Pattern lists, as filters take them: patterns separated by spaces,
 * commas, tabs or newlines; '!' in front of one excludes what it matches;
 * '@GLOB' matches the folder of a function's source instead of its name
 * ("@app": the application's functions; trace/core/ops_filter.c).
 * Longer lists than TRACE_PATTERN_MAX - 1 characters are refused, never
 * cut (the control layer keeps each in a buffer of that size,
 * trace/control/control.c): room for a list of a hundred function
 * names, as a real filter of an application's modules needs.
 */
#define TRACE_PATTERN_MAX	1024

/* The next pattern of a list from *p on: returns its length (0 at the
 * end, '!' included) with its start in *pat, and moves *p past it. */
size_t glob_list_next(const char **p, const char **pat);
/* NULL if every pattern of the list is well formed; else the first bad
 * one (a bare '!' or '@' included), its length in *len. */
const char *glob_list_bad(const char *list, size_t *len);

/* Kernel side (trace/control/filter_warn.c): prints "WHAT 'PATTERN' matches no
 * function" for each pattern of the list that names no traceable
 * function; returns how many did not. */
unsigned int trace_warn_unmatched(const char *what, const char *list);

#endif /* TRACE_GLOB_H */
