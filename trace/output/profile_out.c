/* trace/output/profile_out.c: the profiler's table on the console and its dump
 * frames to the host (docs/wire.md 2.5). */
#include <stdlib.h>

#include "core/core.h"
#include "export.h"
#include "kprintf.h"
#include "ktime.h"
#include "percpu.h"
#include "tracers/profile.h"
#include "ring/ring.h"
#include "wire.h"

#define FRAME_PROFILE	5	/* docs/wire.md 2.5 */

static uint64_t us(uint64_t ticks)
{
	return ticks * 1000000 / time_counter_hz();
}

void profile_print(unsigned int max_rows)
{
	unsigned int n = trace_site_count(), rows = 0;
	struct profile_stat *sum = calloc(n + 1, sizeof(*sum));
	unsigned int *order = calloc(n + 1, sizeof(*order));

	if (!sum || !order || !profile_of(0)) {
		kprintf("profile: %s\n", profile_of(0) ? "no memory" : "not started");
		free(sum);
		free(order);
		return;
	}
	for (unsigned int c = 0; c < smp_num_cpus(); c++) {
		const struct profile_stat *s = profile_of(c);

		for (unsigned int i = 0; s && i < n; i++) {
			if (!s[i].calls)
				continue;
			if (!sum[i].calls || s[i].min < sum[i].min)
				sum[i].min = s[i].min;
			if (s[i].max > sum[i].max)
				sum[i].max = s[i].max;
			sum[i].calls += s[i].calls;
			sum[i].total += s[i].total;
		}
	}
	for (unsigned int i = 0; i < n; i++)	/* insertion sort by total */
		if (sum[i].calls) {
			unsigned int k = rows++;

			while (k && sum[order[k - 1]].total < sum[i].total) {
				order[k] = order[k - 1];
				k--;
			}
			order[k] = i;
		}
	kprintf("%10s %12s %10s %10s %10s  %s\n", "calls", "total us", "avg us",
		"min us", "max us", "function");
	for (unsigned int k = 0; k < rows && k < max_rows; k++) {
		const struct profile_stat *s = &sum[order[k]];

		kprintf("%10lu %12lu %10lu %10lu %10lu  %s\n", (unsigned long)s->calls,
			(unsigned long)us(s->total), (unsigned long)us(s->total / s->calls),
			(unsigned long)us(s->min), (unsigned long)us(s->max),
			trace_site_name(order[k]));
	}
	kprintf("# %u functions\n", rows);
	free(sum);
	free(order);
}

void profile_send(void)
{
	static uint8_t body[RING_FRAME_BODY_MAX];
	static uint64_t seq[NR_CPUS];

	for (unsigned int c = 0; c < smp_num_cpus(); c++) {
		const struct profile_stat *s = profile_of(c);
		unsigned int n = trace_site_count(), first = 0;

		/* Several frames if one does not hold every function. */
		while (s && first < n) {
			struct wire_out o;
			unsigned int count = 0, i;
			size_t at;

			wire_out_init(&o, body, sizeof(body));
			at = o.len;
			wire_out_varint(&o, 0);	/* count: one byte, patched */
			for (i = first; i < n && count < 127; i++) {
				if (!s[i].calls)
					continue;
				size_t before = o.len;

				wire_out_varint(&o, i);
				wire_out_varint(&o, s[i].calls);
				wire_out_varint(&o, s[i].total);
				wire_out_varint(&o, s[i].min);
				wire_out_varint(&o, s[i].max);
				if (o.overflow) {
					o.len = before;
					o.overflow = 0;
					break;
				}
				count++;
			}
			body[at] = (uint8_t)count;
			export_frame(FRAME_PROFILE, c, seq[c]++, body, o.len);
			first = i;
		}
	}
}
