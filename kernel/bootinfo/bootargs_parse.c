/*
 * kernel/bootinfo/bootargs_parse.c: the pure part of boot-argument handling
 * (splitting, lookup, numbers). Also built into the host unit tests and
 * the bootargs fuzz target.
 */
#include <stddef.h>
#include <stdint.h>

#include "bootargs.h"

static int is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

int bootargs_split(const char *line, struct bootargs *out, const char **err)
{
	size_t w = 0;
	int after_dashes = 0;
	const char *p = line, *word_start;

	out->nkernel = out->napp = 0;
	out->app[0] = NULL;
	out->ignored_at = 0;
	for (;;) {
		while (is_space(*p))
			p++;
		if (!*p)
			break;
		char *word = out->buf + w;
		int quoted = 0, had_quote = 0;

		word_start = p;
		/* Room for each byte and for the word's NUL is checked before
		 * storing: an empty quoted word stores only the NUL. */
		while (*p && (quoted || !is_space(*p))) {
			if (*p == '"') {
				quoted = !quoted;
				had_quote = 1;
				p++;
				continue;
			}
			if (w + 2 > sizeof(out->buf))
				goto too_long;
			out->buf[w++] = *p++;
		}
		if (quoted) {
			*err = "unterminated quote";
			goto stop;
		}
		if (w + 1 > sizeof(out->buf))
			goto too_long;
		out->buf[w++] = '\0';
		/* Only a bare -- separates; "--" in quotes is an argument. */
		if (!after_dashes && !had_quote && word[0] == '-' && word[1] == '-' &&
		    !word[2]) {
			after_dashes = 1;
			continue;
		}
		if (out->nkernel + out->napp >= BOOTARGS_MAX_WORDS) {
			*err = "too many words";
			goto stop;
		}
		if (after_dashes) {
			out->app[out->napp++] = word;
			out->app[out->napp] = NULL;
		} else {
			out->kernel[out->nkernel++] = word;
		}
	}
	return 0;
too_long:
	*err = "line too long";
stop:
	/* The words before this one stay: a long line keeps what fits. */
	out->ignored_at = (size_t)(word_start - line);
	return -1;
}

static int name_is(const char *word, const char *name)
{
	size_t i;

	for (i = 0; name[i]; i++)
		if (word[i] != name[i])
			return 0;
	return word[i] == '\0' || word[i] == '=';
}

int bootargs_apply_word(const struct kernel_param *table, size_t n,
			const char *word)
{
	for (size_t i = 0; i < n; i++) {
		if (!name_is(word, table[i].name))
			continue;
		const char *eq = word;

		while (*eq && *eq != '=')
			eq++;
		return table[i].set(*eq ? eq + 1 : "") ? -2 : 0;
	}
	return -1;
}

int bootargs_parse_ulong(const char *s, unsigned long *out)
{
	unsigned long v = 0, base = 10;
	int digits = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	for (;; s++, digits++) {
		unsigned long d;

		if (*s >= '0' && *s <= '9')
			d = (unsigned long)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned long)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned long)(*s - 'A' + 10);
		else
			break;
		if (v > (UINT64_MAX - d) / base)
			return -1;
		v = v * base + d;
	}
	if (!digits)
		return -1;
	unsigned int shift = 0;

	switch (*s) {
	case 'K': case 'k': shift = 10; s++; break;
	case 'M': case 'm': shift = 20; s++; break;
	case 'G': case 'g': shift = 30; s++; break;
	}
	if (*s || (shift && v > (UINT64_MAX >> shift)))
		return -1;
	*out = v << shift;
	return 0;
}
