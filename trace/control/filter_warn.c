/*
 * trace/control/filter_warn.c: telling the user that a filter pattern names no
 * function. The control layer accepts such a pattern (it is well formed,
 * and the function may be a typo the user wants to see traced nothing
 * for), so the boot arguments and the console warn instead.
 */
#include <stdbool.h>

#include <baretrace_trace.h>

#include "base/glob.h"
#include "kprintf.h"
#include "control.h"

static bool matches_some(const char *pat, size_t n)
{
	for (unsigned int i = 0; i < trace_site_count(); i++)
		if (glob_match(pat, n, trace_site_name(i)))
			return true;
	return false;
}

unsigned int trace_warn_unmatched(const char *what, const char *list)
{
	const char *p = list, *pat;
	unsigned int none = 0;
	size_t n;

	while ((n = glob_list_next(&p, &pat)) != 0) {
		bool neg = *pat == '!';
		char shown[TRACE_PATTERN_MAX];

		if (n == neg || matches_some(pat + neg, n - neg))
			continue;
		if (n >= sizeof(shown))
			n = sizeof(shown) - 1;
		for (size_t i = 0; i < n; i++)
			shown[i] = pat[i];
		shown[n] = '\0';
		kprintf("%s '%s' matches no function\n", what, shown);
		none++;
	}
	return none;
}
