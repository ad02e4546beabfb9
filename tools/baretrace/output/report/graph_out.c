/*
 * tools/baretrace/output/report/graph_out.c: `baretrace graph [FUNC]`, the call
 * graph as text, in the spirit of `uftrace graph` (our own layout):
 *
 *   #    TOTAL TIME     CALLS  FUNCTION
 *         80.000 us         1  main
 *         48.000 us         1  +-filter_apply
 *         33.600 us         2  | +-filter_step
 *          0.960 us         1  |   +-uart_send
 *         16.000 us         1  +-sensor_read
 *
 * One line per call path: how many calls took it and their total
 * (inclusive) time. A call that had not returned when the trace ends
 * has no time of its own: its line shows its children's, and "open", or
 * "open at the crash" (hang, exit, ...) when the trace says how it ended.
 */
#include <string.h>

#include "../../base/util.h"
#include "../../decode/decode.h"
#include "../../decode/units.h"
#include "../../input/tracefile.h"
#include "../../model/flame.h"

#include "report.h"

#define MAX_LEVELS	200	/* tree levels drawn */

static void print_node(struct bt_decoder *d, const struct bt_flame *fl, uint32_t i,
		       char *bars, unsigned level)
{
	const struct bt_fnode *n = &fl->n[i];
	char us[32], field[40], open[48] = "", wb[24];
	unsigned outcome;
	int64_t status;

	bt_fmt_usecs(us, sizeof(us), n->calls ? n->ticks : n->value, bt_freq(d));
	snprintf(field, sizeof(field), "%s us", us);
	/* Open when the run ended: say how it ended, if the trace does. */
	if (!n->calls && bt_outcome(d, &outcome, &status))
		snprintf(open, sizeof(open), " (open at the %s)",
			 bt_outcome_word(outcome, wb, sizeof(wb)));
	else if (!n->calls)
		snprintf(open, sizeof(open), " (open)");
	printf("  %13s  %8llu  %.*s%s%s%s\n", field, (unsigned long long)n->calls,
	       (int)(level ? 2 * (level - 1) : 0), bars, level ? "+-" : "", n->name, open);
	if (level >= MAX_LEVELS)
		return;
	for (uint32_t c = n->child; c; c = fl->n[c].next) {
		/* Below this node's line, a bar while it has siblings to come. */
		if (level) {
			bars[2 * (level - 1)] = n->next ? '|' : ' ';
			bars[2 * (level - 1) + 1] = ' ';
		}
		print_node(d, fl, c, bars, level + 1);
	}
}

int bt_graph(const char *trace, const char *elf, const char *func)
{
	static struct bt_decoder d;
	static struct bt_flame fl;
	static char bars[2 * MAX_LEVELS + 2];
	int rc = bt_graph_read(&fl, &d, trace, elf);

	if (!rc && !fl.exits) {
		fflush(stdout);
		fprintf(stderr, "baretrace: %s holds no graph calls%s (the function_graph "
			"tracer records them: 'trace=function_graph' at boot, or 'tracer "
			"function_graph' at the target's shell)\n", bt_file_name(trace),
			func ? " of that function" : "");
		rc = BT_EXIT_INPUT;
	}
	if (!rc) {
		if (func)
			printf("# call graph beneath %s: calls and total time per call path, "
			       "all CPUs\n", func);
		else
			printf("# call graph: calls and total time per call path, all CPUs\n");
		printf("#\n#%14s  %8s  %s\n", "TOTAL TIME", "CALLS", "FUNCTION");
		for (uint32_t c = fl.n[BT_FLAME_GRAPH].child; c; c = fl.n[c].next)
			print_node(&d, &fl, c, bars, 0);
		printf("# %llu event%s\n", (unsigned long long)bt_events(&d), bt_plural(bt_events(&d)));
		bt_loss_print(stdout, &d, "# ", d.bad_frames);
		bt_outcome_print(stdout, &d, "# ");
	}
	bt_flame_free(&fl);
	bt_dec_free(&d);
	return rc;
}
