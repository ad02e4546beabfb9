/*
 * trace/glob.h: ftrace-style glob matching for filters (pure; also
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

#endif /* TRACE_GLOB_H */
