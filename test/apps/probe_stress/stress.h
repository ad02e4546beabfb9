/*
 * test/apps/probe_stress/stress.h: what the probe stress test's files
 * share (test/probe_stress.py boots the image and reads its lines).
 *
 * A group is a workload slice and the functions it calls: every
 * instruction of each of those functions in turn carries a probe while
 * the slice runs (on CPU 0, or on every CPU at once in "mt" mode), and
 * the slice's digest must equal the one of the unprobed run.
 */
#ifndef PROBE_STRESS_H
#define PROBE_STRESS_H

#include <stdbool.h>
#include <stdint.h>

struct stress_group {
	const char *name;
	/* Runs the workload once on the calling CPU; returns a digest of
	 * everything it computed (the same whichever CPU runs it, however
	 * many run it at once). */
	uint64_t (*slice)(void);
	/* Optional: once before the reference run (tables, warm-up). */
	void (*setup)(void);
	/* Optional: 'nshared' counters only the slices change, each under
	 * a lock of its own; each slice adds 'shared_per_run' to each. */
	volatile uint64_t *shared;
	unsigned int nshared;
	uint64_t shared_per_run;
	const char *const *funcs;	/* NULL-terminated */
};

extern const struct stress_group stress_demo, stress_sha256, stress_aes, stress_mpi,
	stress_lock;

/* Records of probe 'number' in every CPU's ring since the last call,
 * and how many of them lack 'pc' as their pc fetch or have a faulted
 * fetch (ring_count.c). Returns the records the rings dropped (full)
 * since the last call. */
uint64_t stress_count_records(uint32_t number, uintptr_t pc, uint64_t *records, uint64_t *bad);
/* Fresh rings of 'bytes' per CPU, kept from the exporter (export_hold). */
int stress_rings(unsigned long bytes);

/* Sweeps one group; adds to the totals; false on any failure. */
struct stress_totals {
	unsigned long funcs, offsets, accepted, refused, failures;
	uint64_t hits, unrecorded;
};
bool stress_group_sweep(const struct stress_group *g, bool all_cpus, struct stress_totals *t);

#endif /* PROBE_STRESS_H */
