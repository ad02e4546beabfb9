/*
 * examples/demo/worker.c: batches of block work spread over every CPU.
 *
 * WORKER_BATCHES is fixed and batch b belongs to CPU b % ncpus, so each
 * batch's result depends only on b, whatever the CPU count or timing.
 * Secondaries get their batches through smp_start(); CPU 0 runs its own
 * (and those of any CPU that would not start) in worker_collect(), after
 * the sensor pipeline. With one CPU, CPU 0 runs them all.
 *
 * Ownership: slot b of worker_raw/worker_rle/worker_results is written
 * only by the CPU running batch b, and read by CPU 0 only after that
 * CPU's smp_wait() and the acquire on results[b].done.
 */
#include <stdio.h>
#include <string.h>

#include "demo.h"

static uint8_t worker_raw[WORKER_BATCHES][BLOCK_BYTES];
static uint8_t worker_rle[WORKER_BATCHES][BLOCK_RLE_MAX];
static struct worker_result worker_results[WORKER_BATCHES];
static int worker_started[SENSOR_MAX_CPUS];	/* CPU 0 only */

DEMO_FN static unsigned int worker_ncpus(void)
{
	unsigned int n = smp_num_cpus();

	if (n == 0)
		n = 1;
	return n < SENSOR_MAX_CPUS ? n : SENSOR_MAX_CPUS;
}

DEMO_FN static uint32_t worker_seed(unsigned int batch)
{
	return 0xc0ffee01u + batch * 0x01000193u;
}

DEMO_FN static void worker_run_batch(unsigned int batch)
{
	struct worker_result *r = &worker_results[batch];
	uint8_t *raw = worker_raw[batch], *rle = worker_rle[batch];
	size_t n;

	block_fill(worker_seed(batch), raw, BLOCK_BYTES);
	n = block_rle_encode(raw, BLOCK_BYTES, rle, BLOCK_RLE_MAX);
	r->cpu = smp_cpu_id();
	r->raw_len = BLOCK_BYTES;
	r->rle_len = (uint32_t)n;
	r->crc32 = csum_crc32(0, rle, n);
	r->fletcher32 = csum_fletcher32(raw, BLOCK_BYTES);
	/* Release: the fields above are complete before 'done' is seen. */
	demo_store_release(&r->done, 1);
}

/* Entry on each CPU (an smp_fn): run every batch that CPU owns. */
DEMO_FN static void worker_main(void *arg)
{
	unsigned int cpu = (unsigned int)(uintptr_t)arg;
	unsigned int b, n = worker_ncpus();

	for (b = cpu; b < WORKER_BATCHES; b += n)
		worker_run_batch(b);
}

DEMO_FN void worker_dispatch(void)
{
	unsigned int cpu, n = worker_ncpus();

	for (cpu = 1; cpu < n; cpu++)
		worker_started[cpu] = smp_start(cpu, worker_main,
						(void *)(uintptr_t)cpu) == 0;
}

DEMO_FN void worker_collect(void)
{
	unsigned int cpu, n = worker_ncpus();

	worker_main((void *)(uintptr_t)0);
	for (cpu = 1; cpu < n; cpu++) {
		if (worker_started[cpu])
			smp_wait(cpu);
		else
			worker_main((void *)(uintptr_t)cpu);
	}
}

/* Redo every batch on this CPU and check the worker's numbers, and that
 * the worker's RLE stream decodes back to the block. Returns 0 or -1. */
DEMO_FN int worker_verify(void)
{
	static uint8_t raw[BLOCK_BYTES], rle[BLOCK_RLE_MAX], back[BLOCK_BYTES];
	unsigned int b;
	int bad = 0;

	for (b = 0; b < WORKER_BATCHES; b++) {
		const struct worker_result *r = &worker_results[b];
		size_t n;

		if (!demo_load_acquire(&r->done)) {
			printf("demo: error: batch %u never ran\n", b);
			bad = 1;
			continue;
		}
		block_fill(worker_seed(b), raw, BLOCK_BYTES);
		n = block_rle_encode(raw, BLOCK_BYTES, rle, BLOCK_RLE_MAX);
		if (n != r->rle_len || csum_crc32(0, rle, n) != r->crc32 ||
		    csum_fletcher32(raw, BLOCK_BYTES) != r->fletcher32 ||
		    block_rle_decode(worker_rle[b], r->rle_len, back,
				     BLOCK_BYTES) != BLOCK_BYTES ||
		    memcmp(back, raw, BLOCK_BYTES) != 0) {
			printf("demo: error: batch %u from cpu %u does not "
			       "verify (crc32 %08lx)\n", b, r->cpu,
			       (unsigned long)r->crc32);
			bad = 1;
		}
	}
	return bad ? -1 : 0;
}

DEMO_FN const struct worker_result *worker_result(unsigned int batch)
{
	return batch < WORKER_BATCHES ? &worker_results[batch] : NULL;
}

/* CRC-32 over the digests of the batches 'cpu' ran, in batch order. */
DEMO_FN uint32_t worker_cpu_digest(unsigned int cpu, unsigned int *batches)
{
	uint32_t crc = 0;
	unsigned int b;

	*batches = 0;
	for (b = 0; b < WORKER_BATCHES; b++) {
		const struct worker_result *r = &worker_results[b];

		if (!r->done || r->cpu != cpu)
			continue;
		crc = csum_crc32(crc, &r->crc32, sizeof(r->crc32));
		crc = csum_crc32(crc, &r->fletcher32, sizeof(r->fletcher32));
		(*batches)++;
	}
	return crc;
}

/* The same over all batches: independent of the CPU count. */
DEMO_FN uint32_t worker_total_digest(void)
{
	uint32_t crc = 0;
	unsigned int b;

	for (b = 0; b < WORKER_BATCHES; b++) {
		crc = csum_crc32(crc, &worker_results[b].crc32, 4);
		crc = csum_crc32(crc, &worker_results[b].fletcher32, 4);
	}
	return crc;
}
