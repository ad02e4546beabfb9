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

#include <baretrace.h>
#include <baretrace_trace.h>

#include "bench.h"
#include "output/export.h"
#include "ring/ring.h"
#include "pmu.h"

#define WL_BYTES	2048
#define WL_NODES	512
#define WL_N		12	/* matrix order */
#define WL_ROUNDS	16
#define WL_RING		(2UL << 20)	/* bytes per CPU */

struct wl_node {
	struct wl_node *next;
	uint32_t value;
};

static uint8_t wl_buf[WL_BYTES];
static struct wl_node wl_nodes[WL_NODES];
static uint32_t wl_a[WL_N][WL_N], wl_b[WL_N][WL_N], wl_c[WL_N][WL_N];
static volatile uint32_t wl_sink;

/* Each function does a little and is called often: the shape tracing
 * costs most on. noinline keeps each call a call. */
static __attribute__((noinline)) uint8_t wl_crc8_step(uint8_t crc, uint8_t byte)
{
	crc ^= byte;
	for (int i = 0; i < 8; i++)
		crc = (uint8_t)(crc & 0x80 ? (crc << 1) ^ 0x07 : crc << 1);
	return crc;
}

static __attribute__((noinline)) uint8_t wl_crc8(const uint8_t *p, unsigned int n)
{
	uint8_t crc = 0;

	for (unsigned int i = 0; i < n; i++)
		crc = wl_crc8_step(crc, p[i]);
	return crc;
}

static __attribute__((noinline)) struct wl_node *wl_list_push(struct wl_node *head,
							      struct wl_node *n, uint32_t v)
{
	n->value = v;
	n->next = head;
	return n;
}

static __attribute__((noinline)) uint32_t wl_node_weight(const struct wl_node *n)
{
	return n->value * 3 + 1;
}

static __attribute__((noinline)) uint32_t wl_list_sum(const struct wl_node *head)
{
	uint32_t s = 0;

	for (; head; head = head->next)
		s += wl_node_weight(head);
	return s;
}

static __attribute__((noinline)) uint32_t wl_mul_add(uint32_t acc, uint32_t a, uint32_t b)
{
	return acc + a * b;
}

static __attribute__((noinline)) uint32_t wl_mat_cell(unsigned int i, unsigned int j)
{
	uint32_t acc = 0;

	for (unsigned int k = 0; k < WL_N; k++)
		acc = wl_mul_add(acc, wl_a[i][k], wl_b[k][j]);
	return acc;
}

static __attribute__((noinline)) void wl_mat_mul(void)
{
	for (unsigned int i = 0; i < WL_N; i++)
		for (unsigned int j = 0; j < WL_N; j++)
			wl_c[i][j] = wl_mat_cell(i, j);
}

enum wl_state { WL_IDLE, WL_HEADER, WL_BODY, WL_CHECK };

static __attribute__((noinline)) enum wl_state wl_fsm_step(enum wl_state s, uint8_t in)
{
	switch (s) {
	case WL_IDLE:
		return in == 0x7e ? WL_HEADER : WL_IDLE;
	case WL_HEADER:
		return in & 1 ? WL_BODY : WL_IDLE;
	case WL_BODY:
		return in == 0x7d ? WL_CHECK : WL_BODY;
	default:
		return WL_IDLE;
	}
}

static __attribute__((noinline)) unsigned int wl_fsm_run(const uint8_t *p, unsigned int n)
{
	enum wl_state s = WL_IDLE;
	unsigned int checks = 0;

	for (unsigned int i = 0; i < n; i++) {
		s = wl_fsm_step(s, p[i]);
		checks += s == WL_CHECK;
	}
	return checks;
}

/* Calls per round: crc 1 + WL_BYTES, list WL_NODES + 1 + WL_NODES, matrix
 * 1 + N*N*(1 + N), fsm 1 + WL_BYTES; and the round itself. */
#define WL_CALLS_PER_ROUND (1 + WL_BYTES + 2 * WL_NODES + 1 + 1 + WL_N * WL_N * (1 + WL_N) + \
			    1 + WL_BYTES + 1)

static __attribute__((noinline)) uint32_t wl_round(unsigned int r)
{
	struct wl_node *head = NULL;
	uint32_t acc = wl_crc8(wl_buf, WL_BYTES);

	for (unsigned int i = 0; i < WL_NODES; i++)
		head = wl_list_push(head, &wl_nodes[i], i + r);
	acc += wl_list_sum(head);
	wl_mat_mul();
	acc += wl_c[r % WL_N][(r * 5) % WL_N];
	return acc + wl_fsm_run(wl_buf, WL_BYTES);
}

static uint32_t run_workload(void)
{
	uint32_t t0 = (uint32_t)pmu_insns();
	uint32_t acc = 0;

	for (unsigned int r = 0; r < WL_ROUNDS; r++)
		acc += wl_round(r);
	wl_sink = acc;
	return (uint32_t)pmu_insns() - t0;
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

static void wl_init(void)
{
	for (unsigned int i = 0; i < WL_BYTES; i++)
		wl_buf[i] = (uint8_t)(i * 37 + (i >> 3));
	for (unsigned int i = 0; i < WL_N; i++)
		for (unsigned int j = 0; j < WL_N; j++) {
			wl_a[i][j] = i + 2 * j;
			wl_b[i][j] = 3 * i + j;
		}
}

unsigned long bench_workload_rounds(unsigned int rounds)
{
	uint32_t acc = 0;

	wl_init();
	for (unsigned int r = 0; r < rounds; r++)
		acc += wl_round(r % WL_ROUNDS);
	wl_sink = acc;
	return (unsigned long)rounds * WL_CALLS_PER_ROUND;
}

void bench_workload(void)
{
	wl_init();
	uint32_t calls = WL_ROUNDS * WL_CALLS_PER_ROUND;
	uint32_t off = run_workload();
	struct wl_run fn = traced("function", false);
	struct wl_run graph = traced("function_graph", false);
	struct wl_run fn_x = traced("function", true);
	struct wl_run graph_x = traced("function_graph", true);

	trace_profile(true, "wl_*");
	uint32_t prof = run_workload();

	trace_profile(false, NULL);
	double fx = fn_x.insns + fn_x.flush - (double)fn.insns;
	double gx = graph_x.insns + graph_x.flush - (double)graph.insns;

	printf("\nworkload: %u calls of %u small functions, %u insns untraced (%.1f per call)\n",
	       calls, 11, off, (double)off / calls);
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
	       "\"workload_lost\": %lu}\n",
	       calls, off, (double)fn.insns / off, (double)graph.insns / off, (double)prof / off,
	       (double)(fn_x.insns + fn_x.flush) / off, (double)(graph_x.insns + graph_x.flush) / off,
	       fx / fn_x.events, gx / graph_x.events,
	       (unsigned long)(fn.lost + graph.lost + fn_x.lost + graph_x.lost));
}
