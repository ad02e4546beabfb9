/*
 * trace/tracers/record_where.c: which CPUs and contexts the tracers
 * record. Read by the C callbacks of the function, graph and profile
 * tracers (the assembly recorders run only while none is set:
 * trace_pick_function_callback); set only by the control layer's options
 * (trace/control/options.c), while the tracers may run: each is an
 * aligned word written whole, so a callback sees the old value or the
 * new one, and a change holds on each CPU from its next call.
 */
#include <stdbool.h>
#include <stdint.h>

#include "tracer.h"

uint64_t trace_cpumask = ~0ULL;
unsigned int trace_context = TRACE_CTX_ALL;
bool trace_filtered;	/* a CPU mask or context filter is set */
