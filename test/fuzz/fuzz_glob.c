/* sources: trace/base/glob.c */
/*
 * test/fuzz/fuzz_glob.c: a filter pattern and a name from arbitrary
 * bytes (split at the first NUL). glob_valid and glob_match must never
 * read outside either; a pattern glob_valid rejects may still be matched
 * (the core never does that, but the matcher must stay in bounds).
 * As a list, a bare '!' or '@' ("!@" too) is a bad pattern.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../trace/base/glob.h"
#include "fuzz.h"

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
	/* The name as a pattern list: a bad pattern reported lies inside
	 * the list and really is bad; a list called good has only good ones. */
	size_t blen = 0, n;
	const char *bad = glob_list_bad(name, &blen), *p = name, *one;
	bool all_good = true;

	while ((n = glob_list_next(&p, &one)) != 0) {
		/* A pattern after its '!' and, for a folder, its '@'. */
		size_t skip = *one == '!';

		skip += n > skip && one[skip] == '@';
		must(one >= name && one + n <= name + slen);
		all_good &= n > skip && glob_valid(one + skip, n - skip);
	}
	must(!bad == all_good);
	if (bad)
		must(bad >= name && bad + blen <= name + slen && blen > 0);
	free(pat);
	free(name);
	return 0;
}
