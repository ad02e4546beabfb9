/*
 * tools/baretrace/model/filter_check.c: after a filtered read, which part
 * of the filter matched nothing in this trace: a -F or -N pattern that
 * names no function of its symbol table (with the nearest name), a --cpu
 * list of CPUs the trace does not have. Said on stderr by the printing
 * pass only. Such a part that left nothing kept makes the read fail
 * (status 1), so that a CI job's empty report of a mistyped name is not
 * a pass; valid parts that together keep nothing are only said.
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"
#include "../decode/decode.h"
#include "../decode/symtab.h"

#include "filter_int.h"
#include "model.h"

static int names_any(const struct bt_symtab *t, const char *glob)
{
	for (size_t s = 0; s < t->nsites; s++) {
		const struct bt_sym *y = &t->by_site[s];

		if (y->name && (!fnmatch(glob, y->name, 0) || (y->raw && !fnmatch(glob, y->raw, 0))))
			return 1;
	}
	return 0;
}

/* The trace's function name nearest 'word', or NULL. */
const char *bt_filter_near_name(const struct bt_symtab *t, const char *word)
{
	const char **names = bt_alloc((t->nsites + 1) * sizeof(*names));
	const char *near;
	size_t n = 0;

	for (size_t s = 0; s < t->nsites; s++)
		if (t->by_site[s].name)
			names[n++] = t->by_site[s].name;
	near = bt_nearest(word, names, n);
	free(names);
	return near;
}

static unsigned globs_unmatched(struct bt_decoder *d, const char *flag,
				const char *const *globs, unsigned n)
{
	unsigned bad = 0;

	for (unsigned i = 0; i < n; i++) {
		const char *near;

		if (names_any(&d->syms, globs[i]))
			continue;
		near = bt_filter_near_name(&d->syms, globs[i]);
		fprintf(stderr, "baretrace: %s %s: no function of the trace %s", flag, globs[i],
			strpbrk(globs[i], "*?[") ? "matches that pattern" : "has that name");
		if (near)
			fprintf(stderr, "; did you mean '%s'?", near);
		fputc('\n', stderr);
		bad++;
	}
	return bad;
}

/* --cpu names none of the trace's CPUs (metadata, or those seen). */
static unsigned cpus_unmatched(struct bt_decoder *d)
{
	unsigned ncpus = (unsigned)d->meta.ncpus;

	if (!CONF->have_cpu)
		return 0;
	for (unsigned c = 0; c < BT_MAX_CPUS; c++)
		if (CONF->cpu[c] && (c < ncpus || d->cpus_seen[c]))
			return 0;
	if (ncpus)
		fprintf(stderr, "baretrace: --cpu matches none of the trace's CPUs (it has %u: "
			"0-%u)\n", ncpus, ncpus - 1);
	else
		fprintf(stderr, "baretrace: --cpu matches none of the CPUs that have events\n");
	return 1;
}

int bt_filter_check(struct bt_decoder *d)
{
	const struct bt_filter *fi = d->filter;
	unsigned bad;

	if (d->quiet || !fi)
		return 0;
	fflush(stdout);
	bad = cpus_unmatched(d) +
	      globs_unmatched(d, "-F", CONF->func, CONF->nfunc) +
	      globs_unmatched(d, "-N", CONF->notrace, CONF->nnotrace);
	if (bt_events(d) && fi->left_out >= bt_events(d)) {
		if (bad)	/* a name or CPU the trace has not: a mistake */
			return -1;
		/* Every part is there, and together they keep nothing (a
		 * time range before the run's events): said, not an error. */
		fprintf(stderr, "baretrace: the filter (%s) kept none of the trace's "
			"%llu event%s\n", CONF->desc, (unsigned long long)bt_events(d),
			bt_plural(bt_events(d)));
	}
	return 0;
}
