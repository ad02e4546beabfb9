/*
 * trace/core/ops_filter.c: an ops' filter and notrace patterns, compiled
 * to site bitmaps, and the bitmap of sites it wants (ops.c turns the
 * wants of every registered ops into each site's dispatch).
 *
 * A pattern is a glob over function names, or "@GLOB" over the folder
 * of each function's source (bt_site_folder, from the link map): "@app"
 * is the application's own functions, "@kernel" the kernel's. A C or
 * C++ symbol never holds an '@', so the two cannot be confused.
 */
#include <stdlib.h>

#include "barrier.h"
#include "core.h"
#include "base/glob.h"

bool trace_site_selected(unsigned int site, const char *pat, size_t len)
{
	if (len && *pat == '@')
		return glob_match(pat + 1, len - 1, trace_site_folder(site));
	return glob_match(pat, len, trace_site_name(site));
}

static bool is_sep(char c)
{
	return c == ' ' || c == ',' || c == '\t' || c == '\n';
}

/* Compiles a pattern list into a site bitmap. *out = NULL for an empty
 * list. Returns 0, TRACE_EINVAL (nothing allocated) or TRACE_ENOMEM. */
static int compile_patterns(const char *s, uint64_t **out)
{
	const char *p;
	bool any = false, positive = false;

	for (p = s; *p;) {	/* validate every pattern first */
		while (is_sep(*p))
			p++;
		if (!*p)
			break;
		const char *start = p;

		while (*p && !is_sep(*p))
			p++;
		bool neg = *start == '!';
		size_t len = (size_t)(p - start) - neg;

		if (!len || !glob_valid(start + neg, len) || (len == 1 && start[neg] == '@'))
			return TRACE_EINVAL;
		any = true;
		positive |= !neg;
	}
	*out = NULL;
	if (!any)
		return 0;
	uint64_t *bits = calloc(site_bitmap_words() + 1, sizeof(uint64_t));

	if (!bits)
		return TRACE_ENOMEM;
	for (unsigned int i = 0; i < bt_site_count; i++) {
		bool in = !positive, out_ = false;

		for (p = s; *p;) {
			while (is_sep(*p))
				p++;
			const char *start = p;

			while (*p && !is_sep(*p))
				p++;
			if (p == start)
				continue;
			bool neg = *start == '!';

			if (trace_site_selected(i, start + neg, (size_t)(p - start) - neg)) {
				if (neg)
					out_ = true;
				else
					in = true;
			}
		}
		if (in && !out_)
			bits[i / 64] |= 1ULL << (i % 64);
	}
	*out = bits;
	return 0;
}

uint64_t *trace_ops_want(const struct trace_ops *ops)
{
	uint64_t *want = calloc(site_bitmap_words() + 1, sizeof(uint64_t));

	if (!want)
		return NULL;
	for (unsigned int i = 0; i < bt_site_count; i++)
		if ((!ops->filter_bits || site_bit(ops->filter_bits, i)) &&
		    !(ops->notrace_bits && site_bit(ops->notrace_bits, i)))
			want[i / 64] |= 1ULL << (i % 64);
	return want;
}

/* Replaces *slot (filter or notrace bits) and, if registered, re-patches. */
static int set_bits(struct trace_ops *ops, uint64_t **slot, const char *patterns)
{
	uint64_t *bits;
	int err = patterns ? compile_patterns(patterns, &bits) : TRACE_EINVAL;

	if (err)
		return err;
	spin_lock(&trace_lock);
	uint64_t *old_bits = *slot, *old_want = ops->want;

	*slot = bits;
	if (ops->registered) {
		uint64_t *want = trace_ops_want(ops);

		if (!want) {
			*slot = old_bits;
			spin_unlock(&trace_lock);
			free(bits);
			return TRACE_ENOMEM;
		}
		WRITE_ONCE(ops->want, want);
		err = trace_sites_update();
		if (err) {
			*slot = old_bits;
			WRITE_ONCE(ops->want, old_want);
			trace_sites_update();
			old_bits = bits;
			old_want = want;
		}
	} else {
		old_want = NULL;
	}
	spin_unlock(&trace_lock);
	free(old_bits);		/* past the round: no CPU reads them */
	free(old_want);
	return err;
}

int trace_ops_set_filter(struct trace_ops *ops, const char *patterns)
{
	return ops ? set_bits(ops, &ops->filter_bits, patterns) : TRACE_EINVAL;
}

int trace_ops_set_notrace(struct trace_ops *ops, const char *patterns)
{
	return ops ? set_bits(ops, &ops->notrace_bits, patterns) : TRACE_EINVAL;
}

unsigned int trace_wanted_sites(const struct trace_ops *ops)
{
	unsigned int n = 0;

	for (unsigned int i = 0; ops->want && i < bt_site_count; i++)
		n += site_bit(ops->want, i);
	return n;
}

void trace_ops_release(struct trace_ops *ops)
{
	if (ops->registered)
		return;
	free(ops->filter_bits);
	free(ops->notrace_bits);
	ops->filter_bits = ops->notrace_bits = NULL;
}

unsigned int trace_filter_matches(const struct trace_ops *ops)
{
	unsigned int n = 0;

	if (!ops->filter_bits)
		return bt_site_count;
	for (unsigned int i = 0; i < bt_site_count; i++)
		n += site_bit(ops->filter_bits, i);
	return n;
}
