/* kernel/lib/nearest.c: the nearest known name (see nearest.h). */
#include <string.h>

#include "nearest.h"

/*
 * The edit count by rows of the usual table: cell j of row i is the
 * edits from the word's first i bytes to the name's first j. A swap of
 * two neighbours looks two rows back, so three rows are kept (on the
 * stack: 99 bytes, where a whole table would be 1 KiB).
 */
unsigned int nearest_edits(const char *word, size_t len, const char *name)
{
	unsigned char rows[3][NEAREST_MAX_LEN + 1];
	size_t lb = strlen(name);

	if (len > NEAREST_MAX_LEN || lb > NEAREST_MAX_LEN)
		return NEAREST_MAX_LEN + 1;
	for (size_t j = 0; j <= lb; j++)
		rows[0][j] = (unsigned char)j;
	for (size_t i = 1; i <= len; i++) {
		unsigned char *cur = rows[i % 3], *up = rows[(i - 1) % 3];
		unsigned char *up2 = rows[(i + 1) % 3];		/* row i - 2 */

		cur[0] = (unsigned char)i;
		for (size_t j = 1; j <= lb; j++) {
			unsigned int best = up[j - 1] + (word[i - 1] != name[j - 1]);

			if (up[j] + 1u < best)
				best = up[j] + 1u;
			if (cur[j - 1] + 1u < best)
				best = cur[j - 1] + 1u;
			if (i > 1 && j > 1 && word[i - 1] == name[j - 2] &&
			    word[i - 2] == name[j - 1] && up2[j - 2] + 1u < best)
				best = up2[j - 2] + 1u;
			cur[j] = (unsigned char)best;
		}
	}
	return rows[len % 3][lb];
}

void nearest_start(struct nearest *n, const char *word, size_t len)
{
	n->word = word;
	n->len = len;
	n->limit = len / 3 < 1 ? 1 : len / 3 > 2 ? 2 : (unsigned int)(len / 3);
	n->edits = NEAREST_MAX_LEN + 1;
	n->best = NULL;
}

void nearest_try(struct nearest *n, const char *name)
{
	unsigned int k = nearest_edits(n->word, n->len, name);

	if (k > n->limit || k > n->edits)
		return;
	if (k < n->edits || strcmp(name, n->best) < 0) {
		n->best = name;
		n->edits = k;
	}
}

const char *nearest_in_list(const char *names, const char *word, size_t len)
{
	struct nearest n;

	nearest_start(&n, word, len);
	for (; *names; names += strlen(names) + 1)
		nearest_try(&n, names);
	return n.best;
}
