/*
 * test/apps/probe_stress/main.c: the probe stress test (issue 39): a
 * probe on every instruction the planting check accepts of chosen
 * functions of the demo, of mbed TLS and of the locks, one at a time,
 * each while the workload that calls the function runs; the results
 * must be the unprobed run's and every hit recorded (sweep.c says what
 * is checked). test/probe_stress.py boots it and checks the hit counts
 * against the disassembly.
 *
 * Boot arguments after '--': "mt" runs each slice on every CPU at once
 * (for -accel tcg,thread=multi), then group names to sweep only those
 * (demo sha256 aes mpi lock; default all). Exit status 0 when nothing
 * failed, 1 otherwise.
 */
#include <stdbool.h>
#include <string.h>

#include <baretrace.h>

#include "kprintf.h"

#include "stress.h"

/* Per CPU: one offset's records (on one CPU at most 15,000, of 15 bytes
 * or less: csum_crc16's loop); room for wait loops' hits too. */
#define STRESS_RING_BYTES	(4UL << 20)

static const struct stress_group *const groups[] = {
	&stress_demo, &stress_sha256, &stress_aes, &stress_mpi, &stress_lock,
};
#define NGROUPS (sizeof(groups) / sizeof(groups[0]))

static bool chosen(const char *name, int argc, char **argv)
{
	int named = 0;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "mt"))
			continue;
		named++;
		if (!strcmp(argv[i], name))
			return true;
	}
	return !named;
}

int main(int argc, char **argv)
{
	struct stress_totals t = { 0 };
	bool mt = false;
	uint64_t t0 = time_counter();

	for (int i = 0; i < argc; i++) {
		bool known = !strcmp(argv[i], "mt");

		mt |= known;
		for (unsigned int g = 0; g < NGROUPS; g++)
			known |= !strcmp(argv[i], groups[g]->name);
		if (!known) {
			kprintf("probe-stress: unknown argument '%s' (mt, demo, sha256, aes, mpi, lock)\n",
				argv[i]);
			return 2;
		}
	}
	if (stress_rings(STRESS_RING_BYTES)) {
		kprintf("probe-stress: no memory for the rings\n");
		return 1;
	}
	kprintf("probe-stress: %s, %u cpus\n", mt ? "every CPU runs each slice" : "CPU 0 runs each slice",
		smp_num_cpus());
	for (unsigned int g = 0; g < NGROUPS; g++)
		if (chosen(groups[g]->name, argc, argv))
			stress_group_sweep(groups[g], mt, &t);
	uint64_t us = (time_counter() - t0) * 1000000 / time_counter_hz();

	kprintf("probe-stress: %lu functions, %lu offsets: %lu accepted, %lu refused; "
		"%lu hits (%lu unrecorded: rings full); %lu failures; %lu us\n", t.funcs,
		t.offsets, t.accepted, t.refused, (unsigned long)t.hits,
		(unsigned long)t.unrecorded, t.failures, (unsigned long)us);
	return t.failures ? 1 : 0;
}
