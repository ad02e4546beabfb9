/* test/bench/workload_gcov.c: the workload as gcov instruments it: no
 * patch site (app-notrace), built with -fprofile-arcs -ftest-coverage
 * (the Makefile's GCOV list) and linked with the cross compiler's
 * libgcov.a (gcov_glue.c). The .gcda file is never written: the image
 * has no file system and static destructors never run. */
#include <stddef.h>

#include "bench.h"

#define WL(name)	gcov_wl_##name
#define WL_PREFIX	"gcov_wl_"
#include "workload.inc"
