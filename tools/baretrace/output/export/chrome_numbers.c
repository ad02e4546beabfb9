/*
 * tools/baretrace/output/export/chrome_numbers.c: export --numbers: each
 * function entry of a Chrome JSON export carries "event": N, its number
 * in report --numbers, which 'baretrace goto' takes (docs/replay.md).
 * The numbers come from report itself (its text thrown away), so they
 * are report's; an entry is matched by CPU, site and time, entries with
 * all three equal in the order each CPU made them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../base/util.h"
#include "../report/report.h"
#include "export.h"

struct numbered {
	uint64_t site, ts, no;
	unsigned cpu;
	int used;
};

int bt_chrome_numbers;		/* export --numbers (main.c) */
static struct numbered *nums;
static size_t nnums, nums_cap;

static void on_entry(const struct bt_entry_seen *e)
{
	nums = bt_grow(nums, &nums_cap, nnums + 1, sizeof(*nums));
	nums[nnums++] = (struct numbered){ e->site, e->ts, e->no, e->cpu, 0 };
}

static int key_cmp(const struct numbered *a, unsigned cpu, uint64_t site, uint64_t ts)
{
	if (a->cpu != cpu)
		return a->cpu < cpu ? -1 : 1;
	if (a->site != site)
		return a->site < site ? -1 : 1;
	return a->ts < ts ? -1 : a->ts > ts;
}

static int by_key(const void *pa, const void *pb)
{
	const struct numbered *a = pa, *b = pb;
	int k = key_cmp(a, b->cpu, b->site, b->ts);

	return k ? k : a->no < b->no ? -1 : a->no > b->no;
}

void bt_chrome_numbers_load(const char *trace, const char *elf)
{
	int out, null;

	fflush(stdout);
	out = dup(1);
	null = open("/dev/null", O_WRONLY);
	if (out < 0 || null < 0 || dup2(null, 1) < 0)
		bt_die(BT_EXIT_INPUT, "export --numbers: cannot set stdout aside: %s", strerror(errno));
	close(null);
	bt_report_entry_hook = on_entry;
	bt_report(trace, elf);
	bt_report_entry_hook = NULL;
	fflush(stdout);
	dup2(out, 1);
	close(out);
	qsort(nums, nnums, sizeof(*nums), by_key);
}

uint64_t bt_chrome_number(unsigned cpu, uint64_t site, uint64_t ts)
{
	size_t lo = 0, hi = nnums;

	while (lo < hi) {		/* the first entry not below the key */
		size_t mid = lo + (hi - lo) / 2;

		if (key_cmp(&nums[mid], cpu, site, ts) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < nnums && !key_cmp(&nums[lo], cpu, site, ts); lo++)
		if (!nums[lo].used) {
			nums[lo].used = 1;
			return nums[lo].no;
		}
	return 0;
}
