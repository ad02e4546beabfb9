/*
 * examples/demo/demo.h: shared types of the sensor-pipeline demo.
 *
 * Modules and their prefixes, which trace filters glob on:
 *   sensor_   tick-driven sampling; the synthetic sensor itself
 *                                          (sensor.c, sensor_model.c)
 *   spsc_     lock-free single-producer/single-consumer ring (spsc.c)
 *             (not ring_, a name the trace buffer may well want)
 *   filter_   median, moving average and IIR filters         (filter.c)
 *   fsm_      idle/warming/measuring/alarm/cooldown machine  (fsm.c)
 *   csum_     CRC-16, CRC-32 and Fletcher-32                 (csum.c)
 *   fmt_      fixed-point numbers and text records           (fmt.c)
 *   stage_    the pipeline stages for one sample             (stage.c)
 *   pipeline_ the sample loop on CPU 0                      (pipeline.c)
 *   block_    synthetic data blocks and their RLE coding     (block.c)
 *   worker_   batches handed to every CPU and their check    (worker.c)
 *   summary_  the printed summary and the self-check         (summary.c)
 *   demo_     argument parsing and banner                    (main.c)
 */
#ifndef DEMO_H
#define DEMO_H

#include <stddef.h>
#include <stdint.h>

#include <baretrace.h>

/*
 * Every function carries DEMO_FN so that it stays a real, separately
 * traceable function at -O2: noipa forbids inlining, cloning
 * (.constprop/.isra names that no glob expects) and identical-code
 * folding (which would merge, say, two fsm_on_* bodies into one symbol).
 * clang lacks noipa; noinline is the nearest it has.
 */
#if defined(__clang__)
#define DEMO_FN __attribute__((noinline))
#else
#define DEMO_FN __attribute__((noipa))
#endif

/* Ordering between the tick producer and the pipeline consumer. */
#define demo_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
#define demo_load_acquire(p)	 __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define demo_load_relaxed(p)	 __atomic_load_n((p), __ATOMIC_RELAXED)
#define demo_store_relaxed(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)

/* Readings are fixed point: milli-degrees Celsius. */
typedef int32_t milli_c;

struct sample {
	uint32_t seq;		/* 0, 1, 2...; the reading depends on it */
	milli_c raw;
};

/* ---- spsc.c ---- */
#define SPSC_SLOTS 16		/* power of two: indices wrap by masking */
struct spsc_ring {
	uint32_t head;		/* written only by the producer */
	uint32_t tail;		/* written only by the consumer */
	struct sample slot[SPSC_SLOTS];
};
void spsc_init(struct spsc_ring *r);
int spsc_push(struct spsc_ring *r, const struct sample *s);
int spsc_pop(struct spsc_ring *r, struct sample *out);
uint32_t spsc_count(const struct spsc_ring *r);

/* ---- sensor.c ---- */
#define SENSOR_MAX_CPUS 8
struct sensor_stats {
	uint32_t from_irq;	/* samples the tick hook produced */
	uint32_t from_thread;	/* samples produced after a tick timeout */
	uint32_t overruns;	/* ticks that found the ring full */
	uint64_t ticks[SENSOR_MAX_CPUS];	/* tick hook calls per CPU */
};
void sensor_init(struct spsc_ring *r, uint32_t seed, uint32_t limit);
int sensor_start(void);
void sensor_take_over(void);
void sensor_stop(void);
int sensor_fallback(void);
void sensor_get_stats(struct sensor_stats *out);
void sensor_make_sample(uint32_t seed, uint32_t seq, struct sample *out);

/* ---- filter.c ---- */
#define FILTER_MEDIAN_TAPS 5
#define FILTER_AVG_TAPS	   4
struct filter {
	milli_c median_win[FILTER_MEDIAN_TAPS];
	milli_c avg_win[FILTER_AVG_TAPS];
	int64_t avg_sum;
	int32_t iir_state;	/* milli-degrees, 4 fraction bits */
	uint32_t fed;		/* samples seen so far */
};
void filter_init(struct filter *f);
milli_c filter_apply(struct filter *f, milli_c raw);

/* ---- fsm.c ---- */
enum fsm_state {
	FSM_IDLE, FSM_WARMING, FSM_MEASURING, FSM_ALARM, FSM_COOLDOWN,
	FSM_NSTATES
};
struct fsm {
	enum fsm_state state;
	uint32_t dwell;		/* samples spent in the current state */
	uint32_t transitions;
	uint32_t alarms;
	uint32_t visited;	/* bit per state ever entered */
	int64_t measure_sum;	/* readings while measuring, for the mean */
	uint32_t measure_count;
};
void fsm_init(struct fsm *m);
enum fsm_state fsm_step(struct fsm *m, milli_c value);
const char *fsm_state_name(enum fsm_state s);

/* ---- csum.c ---- */
void csum_init(void);
uint16_t csum_crc16(uint16_t crc, const void *buf, size_t len);
uint32_t csum_crc32(uint32_t crc, const void *buf, size_t len);
uint32_t csum_fletcher32(const void *buf, size_t len);
int csum_selftest(void);

/* ---- fmt.c ---- */
#define FMT_RECORD_MAX 96
int fmt_fixed(char *buf, size_t size, milli_c v);
int fmt_record(char *buf, size_t size, const struct sample *s,
	       milli_c filtered, enum fsm_state state);

/* ---- stage.c and pipeline.c ---- */
struct pipeline {
	struct spsc_ring ring;
	struct filter filter;
	struct fsm fsm;
	uint32_t want;		/* samples to process */
	uint32_t done;
	uint32_t wait_us;	/* give up on the tick after this long */
	uint32_t ring_peak;	/* most samples ever waiting (timing) */
	milli_c filtered;	/* last filter output */
	milli_c min, max;	/* of the filtered values */
	uint32_t records_crc32;	/* over the text of every record */
	uint16_t records_crc16_xor;	/* XOR of each record's CRC-16 */
	char last_record[FMT_RECORD_MAX];
	int verbose;
};
int stage_acquire(struct pipeline *p, struct sample *out);
milli_c stage_filter(struct pipeline *p, const struct sample *s);
enum fsm_state stage_classify(struct pipeline *p, milli_c filtered);
int stage_record(struct pipeline *p, const struct sample *s,
		 milli_c filtered, enum fsm_state state);
void pipeline_init(struct pipeline *p, uint32_t samples, int verbose);
int pipeline_run(struct pipeline *p);
int pipeline_poll(struct pipeline *p, struct sample *out);

/* ---- block.c ---- */
#define BLOCK_BYTES	2048
#define BLOCK_RLE_MAX	(2 * BLOCK_BYTES)	/* worst case: no runs */
void block_fill(uint32_t seed, uint8_t *buf, size_t len);
size_t block_rle_encode(const uint8_t *in, size_t len, uint8_t *out,
			size_t cap);
size_t block_rle_decode(const uint8_t *in, size_t len, uint8_t *out,
			size_t cap);

/* ---- worker.c ---- */
#define WORKER_BATCHES 8	/* fixed, so totals do not depend on CPUs */
struct worker_result {
	uint32_t done;		/* set last, with release */
	unsigned int cpu;	/* who ran it (timing-independent plan) */
	uint32_t raw_len, rle_len;
	uint32_t crc32;		/* of the RLE stream */
	uint32_t fletcher32;	/* of the raw block */
};
void worker_dispatch(void);
void worker_collect(void);
int worker_verify(void);
const struct worker_result *worker_result(unsigned int batch);
uint32_t worker_cpu_digest(unsigned int cpu, unsigned int *batches);
uint32_t worker_total_digest(void);

/* ---- summary.c ---- */
void summary_print(const struct pipeline *p);
int summary_check(const struct pipeline *p);

#endif /* DEMO_H */
