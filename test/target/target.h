/* test/target/target.h: scenarios of the target test image. */
#ifndef TEST_TARGET_H
#define TEST_TARGET_H

#include <stdbool.h>
#include <stdint.h>

struct ktest_ctx;

int scenario_crash(const char *kind);
int scenario_printlines(void);
int scenario_conread(void);	/* test_api_console.c */
int scenario_golden(void);
int scenario_soak(unsigned int seconds);
/* scenarios_kern.c */
int scenario_overflow(const char *cpu);
int scenario_crashprint(void);
int scenario_serror(void);
int scenario_guardwrite(const char *cpu);
/* scenario_hang.c */
int scenario_gdbhang(void);
/* scenarios_hang.c */
int scenario_spin(unsigned int seconds);
int scenario_lockup(const char *cpu, const char *ms);
int scenario_lockcrash(const char *ms);
int scenario_lockexit(void);
/* scenarios.c */
void crash_null_deref(volatile uint32_t *p);
int scenario_stuck(const char *cpu, const char *then);
/* scenario_busy.c */
int scenario_busy(const char *ms);
/* scenario_hist.c */
/* scenario_hist.c: with opt "crash", a crash after the work (the
 * histograms go out with the crash report). */
int scenario_histwork(const char *opt);
int scenario_histev(const char *opt);
/* test_hist_ev.c: fires histev:hit (key, val; the other fields fixed). */
void hev_fire(uint32_t key, uint64_t val);
/* scenario_reset.c */
int scenario_reset(const char *opt);
/* scenario_reset_probe.c */
int scenario_reset_probe(bool ret);	/* false: boot 2 plants pb alone */
/* test_coverage.c: true, having marked the test skipped, while coverage
 * runs (trace=coverage, make coverage). It holds every site it chose
 * until the site's first hit and takes reached sites off in batches from
 * CPU 0's tick, so a test that reads a site's instruction, expects a site
 * nobody else uses, or counts the patcher's batches and rounds cannot
 * hold; the other tests run beside it. */
bool skip_while_covering(struct ktest_ctx *t);

/* trace_targets.c */
int tt_alpha(int x);
int tt_alpine(int x);
int tt_beta(int x);
int tt_gamma(int x);
long tt_args(long a, long b, long c);
int tt_inner(int x);
int tt_outer(int x);
void tt_alpha_void(void *arg);
int tt_sleepy(int us);
int tt_bad_fp(int x);
int tt_bad_fp_caller(int x);
#endif /* TEST_TARGET_H */
