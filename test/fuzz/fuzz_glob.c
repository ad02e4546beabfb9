/* sources: trace/glob.c */
/*
 * test/fuzz/fuzz_glob.c: a filter pattern and a name from arbitrary
 * bytes (split at the first NUL). glob_valid and glob_match must never
 * read outside either; a pattern glob_valid rejects may still be matched
 * (the core never does that, but the matcher must stay in bounds).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../trace/glob.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	size_t plen = nul ? (size_t)(nul - data) : size;
	char *pat = malloc(plen ? plen : 1);
	size_t slen = nul ? size - plen - 1 : 0;
	char *name = malloc(slen + 1);

	memcpy(pat, data, plen);
	if (nul)
		memcpy(name, nul + 1, slen);
	name[slen] = '\0';
	glob_valid(pat, plen);
	glob_match(pat, plen, name);
	free(pat);
	free(name);
	return 0;
}
