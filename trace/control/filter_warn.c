/*
 * trace/control/filter_warn.c: telling the user that a filter pattern names no
 * function. The control layer accepts such a pattern (it is well formed,
 * and the function may be a typo the user wants to see traced nothing
 * for), so the boot arguments and the console warn instead; an "@GLOB"
 * that names no source folder gets the folders there are.
 */
#include <stdbool.h>
#include <string.h>

#include <baretrace_trace.h>

#include "base/glob.h"
#include "core/core.h"
#include "kprintf.h"
#include "tables.h"
#include "control.h"

static bool matches_some(const char *pat, size_t n)
{
	for (unsigned int i = 0; i < trace_site_count(); i++)
		if (trace_site_selected(i, pat, n))
			return true;
	return false;
}

/* " (folders with functions: @app @boot ...)" into buf, for the line of
 * an unmatched "@GLOB". */
static void folders_with_sites(char *buf, size_t size)
{
	const char *name = bt_folder_names;
	size_t len = (size_t)ksnprintf(buf, size, " (folders with functions:");

	for (unsigned int k = 0; k < bt_folder_count; k++, name += strlen(name) + 1)
		for (unsigned int i = 0; i < trace_site_count(); i++)
			if (bt_site_folder[i] == k) {
				if (len < size)
					len += (size_t)ksnprintf(buf + len, size - len, " @%s", name);
				break;
			}
	if (len < size)
		ksnprintf(buf + len, size - len, ")");
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
		char folders[160] = "";

		if (pat[neg] == '@')
			folders_with_sites(folders, sizeof(folders));
		kprintf("%s '%s' matches no function%s\n", what, shown, folders);
		none++;
	}
	return none;
}
