/*
 * tools/baretrace/model/filter_conf.c: the host-side filters as the
 * command line set them (filter_opts.c parses the flags into
 * bt_filter_conf), read by the filter itself (filter.c, filter_check.c,
 * filter_stage.c), and how a name is matched against -F/-N patterns.
 */
#include <fnmatch.h>

#include "model.h"

struct bt_filter_conf bt_filter_conf;

int bt_filter_match(const char *const *globs, unsigned n, const char *name)
{
	for (unsigned i = 0; i < n; i++)
		if (!fnmatch(globs[i], name, 0))
			return 1;
	return 0;
}
