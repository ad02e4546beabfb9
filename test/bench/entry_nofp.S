/*
 * test/bench/entry_nofp.S: kernel/cpu/entry.S assembled a second time
 * without the FP/SIMD save, under other names, so bench_fp.c can time an
 * exception round trip through both vector tables in one boot: the
 * difference is exactly what the save costs. Never installed outside
 * that measurement (IRQs masked, this CPU only). Contract: as
 * kernel/cpu/entry.S, less the FP/SIMD save.
 */
#define ENTRY_NO_FP_SAVE
#define exception_vectors	bench_vectors_nofp
#define exc_common		bench_exc_common_nofp
#include "../../kernel/cpu/entry.S"
