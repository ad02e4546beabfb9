/*
 * trace/base/glob.c: see glob.h. Iterative with one backtrack point for '*',
 * so time is O(len(pat) * len(s)) and there is no recursion.
 */
#include <stdbool.h>
#include <stddef.h>

#include "glob.h"

/* Parses the set starting at pat[i] == '['; returns the index after ']'
 * and whether c is in it, or 0 if the set is not closed. */
static size_t match_set(const char *pat, size_t len, size_t i, char c, bool *in)
{
	bool neg = false, hit = false;
	size_t j = i + 1;

	if (j < len && (pat[j] == '!' || pat[j] == '^')) {
		neg = true;
		j++;
	}
	for (bool first = true; j < len && (first || pat[j] != ']'); first = false) {
		char lo = pat[j];

		if (lo == '\\' && j + 1 < len)
			lo = pat[++j];
		if (j + 2 < len && pat[j + 1] == '-' && pat[j + 2] != ']') {
			char hi = pat[j + 2];

			j += 3;
			if (hi == '\\' && j < len)
				hi = pat[j++];
			hit |= c >= lo && c <= hi;
		} else {
			hit |= c == lo;
			j++;
		}
	}
	if (j >= len)
		return 0;
	*in = hit != neg;
	return j + 1;
}

bool glob_valid(const char *pat, size_t len)
{
	bool in;

	for (size_t i = 0; i < len; i++) {
		if (pat[i] == '\\') {
			if (++i >= len)
				return false;
		} else if (pat[i] == '[') {
			size_t next = match_set(pat, len, i, 0, &in);

			if (!next)
				return false;
			i = next - 1;
		}
	}
	return true;
}

bool glob_match(const char *pat, size_t len, const char *s)
{
	size_t p = 0, star_p = (size_t)-1;
	const char *star_s = NULL;

	while (*s) {
		if (p < len && pat[p] == '*') {
			star_p = ++p;
			star_s = s;
			continue;
		}
		if (p < len) {
			bool ok = false;
			size_t next = p + 1;

			if (pat[p] == '?') {
				ok = true;
			} else if (pat[p] == '[') {
				next = match_set(pat, len, p, *s, &ok);
				if (!next)
					return false;
			} else if (pat[p] == '\\' && p + 1 < len) {
				ok = pat[p + 1] == *s;
				next = p + 2;
			} else {
				ok = pat[p] == *s;
			}
			if (ok) {
				p = next;
				s++;
				continue;
			}
		}
		if (!star_s)
			return false;
		p = star_p;	/* let the last '*' eat one more character */
		s = ++star_s;
	}
	while (p < len && pat[p] == '*')
		p++;
	return p == len;
}

static bool is_list_sep(char c)
{
	return c == ' ' || c == ',' || c == '\t' || c == '\n';
}

size_t glob_list_next(const char **p, const char **pat)
{
	const char *s = *p;

	while (is_list_sep(*s))
		s++;
	*pat = s;
	while (*s && !is_list_sep(*s))
		s++;
	*p = s;
	return (size_t)(s - *pat);
}

const char *glob_list_bad(const char *list, size_t *len)
{
	const char *p = list, *pat;
	size_t n;

	while ((n = glob_list_next(&p, &pat)) != 0) {
		size_t skip = *pat == '!';	/* and "@GLOB"'s '@': a folder */

		skip += n > skip && pat[skip] == '@';
		if (n == skip || !glob_valid(pat + skip, n - skip)) {
			*len = n;
			return pat;
		}
	}
	return NULL;
}
