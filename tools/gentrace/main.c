/*
 * tools/gentrace/main.c: a synthetic .bt trace in the real wire format,
 * for `make bench-host` (tools/bench-host) and the host stage's tests.
 *
 *   gentrace OUT EVENTS [CPUS [MODE [SEED [SLOW]]]]
 *
 * MODE graph: function_graph records (an entry and an exit per call,
 * durations and depths that nest, a return value on some exits);
 * function: function-tracer entries with their callers (kind 1, then
 * kind 0 while the caller stays the same); threshold: the graph's exits
 * only, as graph_threshold= records them. Each CPU walks its own random
 * call tree over NSITES functions named like an embedded program's, and
 * the blocks (RING_BLOCK_SIZE bodies, as the target's ring cuts them) go
 * out in the order the CPUs fill them, as the target sends them. The
 * file holds metadata, symbol dumps (so no ELF is needed), the data
 * blocks and an end-of-stream frame whose totals balance: nothing is
 * lost. Deterministic for a given seed. SLOW > 1 makes the last CPU
 * record SLOW times less often (a mostly idle CPU: its blocks fill
 * slowly, so each arrives long after its first event).
 * MODE may end in ",c++" ("graph,c++"): three functions in four get
 * Itanium-ABI C++ names, as g++ mangles them ("_ZNK3uart6read_2Eij",
 * uart::read_2(int, unsigned int) const; a template, an anonymous
 * namespace), for the host tool's demangling tests. MODE coverage:
 * coverage.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gentrace.h"

int main(int argc, char **argv)
{
	static struct cpu cpus[MAX_CPUS];
	struct wire_end_cpu end[MAX_CPUS];
	struct wire_end_run run = { 1, 0, 0 };	/* RUN_EXIT, status 0 */
	uint8_t body[4096];
	uint64_t events, done = 0;
	unsigned ncpus = 4;
	int graph = 1;
	size_t n;

	if (argc < 3) {
		fprintf(stderr, "usage: gentrace OUT EVENTS [CPUS [graph|function|threshold[,c++]|coverage[,hash=H]"
			"[,sites=N][,prev] "
			"[SEED [SLOW]]]]\n");
		return 2;
	}
	events = strtoull(argv[2], NULL, 0);
	if (argc > 3)
		ncpus = (unsigned)atoi(argv[3]);
	if (argc > 4) {
		char *cxx = strstr(argv[4], ",c++");

		if (cxx && !cxx[4]) {
			*cxx = 0;
			cxx_names = 1;
		}
		graph = strcmp(argv[4], "function") != 0;
	}
	exits_only = argc > 4 && !strcmp(argv[4], "threshold");
	if (argc > 5)
		rng ^= strtoull(argv[5], NULL, 0) * 0x2545f4914f6cdd1dull;
	if (argc > 6) {
		slowness = strtoull(argv[6], NULL, 0);
		slow_cpu = ncpus - 1;
	}
	if (!ncpus || ncpus > MAX_CPUS) {
		fprintf(stderr, "gentrace: CPUS is 1 to %d\n", MAX_CPUS);
		return 2;
	}
	out = fopen(argv[1], "wb");
	if (!out || fwrite("BTRACE\0\1", 1, 8, out) != 8) {
		perror(argv[1]);
		return 1;
	}
	if (argc > 4 && !strncmp(argv[4], "coverage", 8)) {	/* no CPU recorded */
		if (coverage(argv[1], argv[4], events))
			return 1;
		n = wire_end_encode(body, sizeof(body), end, 0, &run);
		put_frame(WIRE_FRAME_END, 0, 0, body, n);
		return fclose(out) ? 1 : 0;
	}
	put_meta(ncpus, WIRE_VERSION);
	put_symbols();
	for (unsigned i = 0; i < ncpus; i++) {
		cpus[i].ts = 1000000 + i * 37;
		block_open(&cpus[i]);
	}
	/* The CPU furthest behind in time records next: blocks fill (and
	 * go out) in about the order the target's CPUs would fill them. */
	while (done < events) {
		unsigned k = 0;

		for (unsigned i = 1; i < ncpus; i++)
			k = cpus[i].ts < cpus[k].ts ? i : k;
		step(&cpus[k], k, graph);
		done++;
		if (done % 3000000 == 0)	/* the target repeats its metadata */
			put_meta(ncpus, WIRE_VERSION);
	}
	for (unsigned i = 0; i < ncpus; i++) {
		if (cpus[i].o.len > wire_varint_len(cpus[i].base) + wire_varint_len(cpus[i].first))
			block_close(&cpus[i], i);
		end[i] = (struct wire_end_cpu){ .cpu = i, .produced = cpus[i].events,
						.blocks = cpus[i].blocks };
	}
	n = wire_end_encode(body, sizeof(body), end, ncpus, &run);
	put_frame(WIRE_FRAME_END, 0, 0, body, n);
	return fclose(out) ? 1 : 0;
}
