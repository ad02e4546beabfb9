/*
 * test/target/trace_targets.c: functions the trace tests attach to.
 * noipa keeps each a real, separately called function at -O2.
 */
#include "target.h"

#define TARGET __attribute__((noipa))

TARGET int tt_alpha(int x) { return x + 1; }
TARGET int tt_alpine(int x) { return x + 2; }
TARGET int tt_beta(int x) { return x * 2; }
TARGET int tt_gamma(int x) { return x - 3; }
TARGET long tt_args(long a, long b, long c) { return a * 100 + b * 10 + c; }
TARGET int tt_inner(int x) { return x ^ 0x55; }
TARGET int tt_outer(int x) { return tt_inner(x) + 1; }
