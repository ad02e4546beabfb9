/*
 * test/target/soak.c: every control operation while every CPU writes
 * (issue 10, "soak"). Boot argument `-- soak SECONDS`.
 *
 * CPUs 1..n-1 call traced functions in a loop: one wanted by a counting
 * ops that stays registered, one with a counting direct trampoline that
 * stays attached, one whose trampoline comes and goes, a tracepoint with
 * a counting probe that stays attached, a call chain for the recording
 * tracers, and trace_printf. CPU 0 meanwhile cycles tracers, filters,
 * triggers, argument captures, buffer sizes and modes, clear, snapshot,
 * event recording, the profiler and direct attach/detach. At the end the
 * permanent counters must equal the calls exactly and every control
 * operation must have succeeded; the host then checks that every event
 * is decoded or counted lost (test/end_of_run.py).
 */
#include <stdint.h>
#include <stdio.h>

#include <baretrace.h>
#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "barrier.h"
#include "config.h"
#include "target.h"

#define SOAK __attribute__((noipa))

TP_DECLARE(soak, hit);
TP_DEFINE(soak, hit, TP_FIELD(U32, n, "%u"));

/* soak_tramp.S; each CPU counts in its own slot. */
uint64_t soak_tramp_hits[NR_CPUS], soak_flip_hits[NR_CPUS];
void soak_tramp(void);
void soak_flip_tramp(void);

static volatile int soak_stop;
/* Each slot written by its own CPU only. */
static uint64_t calls[NR_CPUS], wrong[NR_CPUS], ops_hits[NR_CPUS], probe_hits[NR_CPUS];

SOAK int sk_leaf(int x) { return x ^ 0x5a; }
SOAK int sk_mid(int x) { return sk_leaf(x) + 1; }
SOAK int sk_top(int x) { return sk_mid(x) + sk_leaf(x); }
SOAK int sk_count(int x) { return x + 7; }
SOAK int sk_direct(int x) { return x * 5; }
SOAK int sk_flip(int x) { return x - 9; }

static notrace void count_hit(uintptr_t ip, uintptr_t parent, struct trace_ops *ops,
			      struct trace_regs *regs)
{
	(void)ip, (void)parent, (void)ops, (void)regs;
	ops_hits[smp_cpu_id()]++;	/* interrupts masked: not torn */
}

static struct trace_ops count_ops = { .func = count_hit, .flags = TRACE_OPS_NO_FPSIMD };

static notrace void probe_hit(const struct tp_event *ev, const uint64_t *fields)
{
	(void)ev, (void)fields;
	probe_hits[smp_cpu_id()]++;
}

static void worker(void *arg)
{
	unsigned int me = smp_cpu_id();

	(void)arg;
	for (int i = 0; !READ_ONCE(soak_stop); i++) {
		int bad = sk_top(i) != ((i ^ 0x5a) + 1) + (i ^ 0x5a);

		bad |= sk_count(i) != i + 7;
		bad |= sk_direct(i) != i * 5;
		bad |= sk_flip(i) != i - 9;
		trace_event(soak, hit, (uint32_t)i);
		if (!(i & 63))
			trace_printf("soak %d on cpu %u", i, me);
		wrong[me] += bad;
		calls[me]++;
	}
}

/* One control operation; returns its error (0 when it did its job). */
static int control(unsigned int k, unsigned int *what)
{
	static const char *const tracers[] = { "function", "function_graph", "nop" };
	static const size_t sizes[] = { 4096, 16384, 65536, 2048 };
	unsigned int round = k / 12;

	*what = k % 12;
	switch (k % 12) {
	case 0: {
		int err = trace_set_tracer(tracers[round % 3]);

		return err ? err : round % 3 == 2 ? 0 : trace_start();
	}
	case 1:
		return trace_set_filter(round & 1 ? "sk_top sk_mid sk_leaf" : "sk_*");
	case 2:
		return trace_set_triggers(round & 1 ? "" :
					  "sk_mid:snapshot:1,sk_leaf:stacktrace:2");
	case 3:
		return trace_set_args(round & 1 ? "" : "sk_count:2,sk_flip:1");
	case 4:
		return trace_set_buffer(sizes[round % 4], round % 3 == 1);
	case 5:
		return trace_clear();
	case 6:
		return trace_snapshot();
	case 7:
		return tp_enable("soak:*,irq:*,timer:tick", !(round & 1));
	case 8:
		return round & 1 ? trace_direct_detach(sk_flip) :
				   trace_direct_attach(sk_flip, soak_flip_tramp);
	case 9:
		return trace_profile(!(round & 1), "sk_*");
	case 10:
		return trace_set_notrace(round & 1 ? "" : "sk_leaf");
	default:
		return tp_set_filter("soak:hit", round & 1 ? "" : "n!=3");
	}
}

int scenario_soak(unsigned int seconds)
{
	unsigned int n = smp_num_cpus(), failed_ops = 0, what;
	uint64_t ops = 0, end = time_ns() + (uint64_t)seconds * 1000000000ULL;
	static const char *const names[] = {
		"tracer", "filter", "triggers", "args", "buffer", "clear", "snapshot",
		"events", "direct", "profile", "notrace", "event filter" };

	if (n < 2) {
		printf("soak: needs 2 CPUs\n");
		return 1;
	}
	if (trace_ops_set_filter(&count_ops, "sk_count") || trace_ops_register(&count_ops) ||
	    trace_direct_attach(sk_direct, soak_tramp) ||
	    tp_probe_attach(&tp_ev_soak_hit, probe_hit)) {
		printf("soak: setup failed\n");
		return 1;
	}
	for (unsigned int c = 1; c < n; c++)
		smp_start(c, worker, NULL);
	while (time_ns() < end) {
		int err = control((unsigned int)ops, &what);

		if (err && failed_ops++ < 5)
			printf("soak: %s (operation %lu) failed: %d\n", names[what],
			       (unsigned long)ops, err);
		ops++;
	}
	WRITE_ONCE(soak_stop, 1);
	for (unsigned int c = 1; c < n; c++)
		smp_wait(c);

	uint64_t total = 0, bad = 0, mism = 0;

	for (unsigned int c = 1; c < n; c++) {
		total += calls[c];
		bad += wrong[c];
		if (ops_hits[c] != calls[c] || soak_tramp_hits[c] != calls[c] ||
		    probe_hits[c] != calls[c]) {
			mism++;
			printf("soak: cpu %u: %lu calls, ops %lu, trampoline %lu, probe %lu\n", c,
			       (unsigned long)calls[c], (unsigned long)ops_hits[c],
			       (unsigned long)soak_tramp_hits[c], (unsigned long)probe_hits[c]);
		}
	}
	trace_stop();
	int ok = !failed_ops && !bad && !mism && total > 0;

	printf("soak: %lu control operations, %lu worker calls on %u CPUs, %lu wrong results, "
	       "%u failed operations, %lu counter mismatches: %s\n", (unsigned long)ops,
	       (unsigned long)total, n - 1, (unsigned long)bad, failed_ops,
	       (unsigned long)mism, ok ? "PASS" : "FAIL");
	return ok ? 0 : 1;
}
