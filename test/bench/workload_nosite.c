/* test/bench/workload_nosite.c: the workload without patch sites
 * (test/bench/app.mk's app-notrace): what the untraced workload costs
 * when no function has the 2 executed NOPs of a disabled site. */
#include <stddef.h>

#include "bench.h"

#define WL(name)	nosite_wl_##name
#define WL_PREFIX	"nosite_wl_"
#include "workload.inc"
