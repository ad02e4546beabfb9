/*
 * test/bench/workload.c: a whole-program figure. A workload of small
 * functions of the kinds firmware is made of (a CRC over a buffer, a
 * linked list, a matrix product, a state machine), about 120,000 calls,
 * run untraced and then with each tracer on every one of its functions;
 * the slowdown is traced instructions over untraced. The rings are large
 * enough (stop mode, so a loss would show as a drop) that nothing is
 * lost, which is checked. The function tracer and function_graph run
 * twice: with the exporter held off (recording alone) and with it
 * running (idle CPUs send frames while the workload runs; what is left
 * is flushed and counted), so the exporter's cost is separate.
 */
#include <stdio.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "bench.h"
#include "output/export.h"
#include "ring/ring.h"
#include "pmu.h"

#define WL(name)	wl_##name
#define WL_PREFIX	"wl_"
#include "workload.inc"

struct wl_sites {
	int min, max;
	unsigned int count;
	unsigned int low, high;	/* below BENCH_SITE_LOW_MAX, above BENCH_SITE_HIGH_MIN */
};

/* Where the traced workload's functions sit, found by name (wl_*, GCC's
 * clones such as wl_crc8.constprop.0 included): taking their addresses
 * would change how GCC compiles them (workload.inc). */
static struct wl_sites wl_sites(void)
{
	struct wl_sites w = { .min = -1, .max = -1 };

	for (unsigned int i = 0; i < trace_site_count(); i++) {
		const char *name = trace_site_name(i);
		int s = (int)i;

		if (!name || strncmp(name, "wl_", 3))
			continue;
		w.count++;
		if (w.min < 0 || s < w.min)
			w.min = s;
		w.max = s > w.max ? s : w.max;
		w.low += s < BENCH_SITE_LOW_MAX;
		w.high += s > BENCH_SITE_HIGH_MIN;
	}
	return w;
}

#define WL_RING		(2UL << 20)	/* bytes per CPU */

static volatile uint32_t workload_sink;

/* Every copy of the workload is measured through this one loop (an
 * indirect call costs the BL's one instruction), so copies compare
 * instruction for instruction. */
__attribute__((noipa)) uint32_t bench_workload_insns(uint32_t (*round)(unsigned int))
{
	uint32_t t0 = (uint32_t)pmu_insns();
	uint32_t acc = 0;

	for (unsigned int r = 0; r < WL_ROUNDS; r++)
		acc += round(r);
	workload_sink = acc;
	return (uint32_t)pmu_insns() - t0;
}

/* Under -icount every run repeats exactly, but a timer or IPI interrupt
 * landing in a run adds its handler: the cheapest of 4 is the workload's
 * own cost. */
uint32_t bench_workload_best(uint32_t (*round)(unsigned int))
{
	uint32_t best = UINT32_MAX;

	for (int i = 0; i < 4; i++) {
		uint32_t r = bench_workload_insns(round);

		best = r < best ? r : best;
	}
	return best;
}

static uint32_t run_workload(void)
{
	return bench_workload_insns(wl_round);
}

static uint64_t lost_now(uint64_t *produced)
{
	uint64_t lost = 0;

	*produced = 0;
	for (unsigned int c = 0; c < smp_num_cpus(); c++) {
		struct ring_totals tt;

		ring_get_totals(c, &tt);
		*produced += tt.produced;
		lost += tt.overwritten + tt.dropped;
	}
	return lost;
}

/* One traced run: instructions of the workload (and of the flush that
 * sends what is left, when the exporter runs), events and losses. */
struct wl_run {
	uint32_t insns, flush;
	uint64_t events, lost;
};

static struct wl_run traced(const char *tracer, bool exporting)
{
	struct wl_run w = { 0 };
	uint64_t before, after;

	trace_set_buffer(WL_RING, 1);	/* empty rings, stop mode */
	uint64_t lost_before = lost_now(&before);	/* totals run on across runs */
	if (!exporting)
		export_hold();
	trace_set_tracer(tracer);
	trace_set_filter("wl_*");
	trace_start();
	w.insns = run_workload();
	trace_stop();
	w.lost = lost_now(&after) - lost_before;
	w.events = after - before;
	if (!exporting) {
		export_release();
	} else {
		uint32_t t0 = (uint32_t)pmu_insns();

		export_flush();
		w.flush = (uint32_t)pmu_insns() - t0;
	}
	trace_set_tracer("nop");
	return w;
}


unsigned long bench_workload_rounds(unsigned int rounds)
{
	uint32_t acc = 0;

	wl_init();
	for (unsigned int r = 0; r < rounds; r++)
		acc += wl_round(r % WL_ROUNDS);
	workload_sink = acc;
	return (unsigned long)rounds * WL_CALLS_PER_ROUND;
}

void bench_workload(void)
{
	wl_init();
	uint32_t calls = WL_ROUNDS * WL_CALLS_PER_ROUND;
	uint32_t off = bench_workload_best(wl_round);
	struct wl_run fn = traced("function", false);
	struct wl_run graph = traced("function_graph", false);
	struct wl_run fn_x = traced("function", true);
	struct wl_run graph_x = traced("function_graph", true);

	trace_profile(true, "wl_*");
	uint32_t prof = run_workload();

	trace_profile(false, NULL);
	double fx = fn_x.insns + fn_x.flush - (double)fn.insns;
	double gx = graph_x.insns + graph_x.flush - (double)graph.insns;

	struct wl_sites ws = wl_sites();

	printf("\nworkload: %u calls of %u small functions, %u insns untraced (%.1f per call)\n",
	       calls, 11, off, (double)off / calls);
	printf("workload sites (wl_*, wl_init included): %u, sites %d to %d, %u below %d, "
	       "%u above %d\n", ws.count, ws.min, ws.max, ws.low, BENCH_SITE_LOW_MAX, ws.high,
	       BENCH_SITE_HIGH_MIN);
	if (ws.low + ws.high != ws.count || !ws.low || !ws.high)
		printf("bench: FAILED: the workload's sites are not spread below %d and above %d\n",
		       BENCH_SITE_LOW_MAX, BENCH_SITE_HIGH_MIN);
	printf("| tracer on every function | slowdown | events | lost | export insns/event |\n"
	       "|---|---:|---:|---:|---:|\n");
	printf("| function | %.2fx | %lu | %lu | %.1f |\n", (double)fn.insns / off,
	       (unsigned long)fn.events, (unsigned long)(fn.lost + fn_x.lost), fx / fn_x.events);
	printf("| function_graph | %.2fx | %lu | %lu | %.1f |\n", (double)graph.insns / off,
	       (unsigned long)graph.events, (unsigned long)(graph.lost + graph_x.lost),
	       gx / graph_x.events);
	printf("| profiler | %.2fx | | | |\n", (double)prof / off);
	printf("with the exporter running: function %.2fx, function_graph %.2fx\n",
	       (double)(fn_x.insns + fn_x.flush) / off,
	       (double)(graph_x.insns + graph_x.flush) / off);
	if (fn.events != calls || graph.events != 2ULL * calls || fn.lost || graph.lost ||
	    fn_x.lost || graph_x.lost)
		printf("bench: workload: expected %u events per function run and none lost; got "
		       "%lu and %lu (lost %lu, %lu)\n", calls, (unsigned long)fn.events,
		       (unsigned long)graph.events, (unsigned long)fn.lost,
		       (unsigned long)graph.lost);
	printf("BENCH-PART tracers {\"workload_calls\": %u, \"workload_insns_untraced\": %u, "
	       "\"slowdown_function\": %.3f, \"slowdown_graph\": %.3f, \"slowdown_profile\": %.3f, "
	       "\"slowdown_function_exporting\": %.3f, \"slowdown_graph_exporting\": %.3f, "
	       "\"export_insns_per_function_event\": %.1f, \"export_insns_per_graph_record\": %.1f, "
	       "\"workload_lost\": %lu, \"workload_sites\": %u, \"workload_site_min\": %d, "
	       "\"workload_site_max\": %d, \"workload_sites_low\": %u, \"workload_sites_high\": %u}\n",
	       calls, off, (double)fn.insns / off, (double)graph.insns / off, (double)prof / off,
	       (double)(fn_x.insns + fn_x.flush) / off, (double)(graph_x.insns + graph_x.flush) / off,
	       fx / fn_x.events, gx / graph_x.events,
	       (unsigned long)(fn.lost + graph.lost + fn_x.lost + graph_x.lost), ws.count, ws.min,
	       ws.max,
	       ws.low, ws.high);
}
