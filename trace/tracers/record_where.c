/*
 * trace/tracers/record_where.c: which CPUs and contexts the tracers
 * record. Read by every recorder on its path; set only by the control
 * layer's options (trace/control/options.c), while the tracers may run:
 * a recorder reads each once per call, and a change takes effect on
 * each CPU with its next call (the mask and the context are single
 * words, written whole).
 */
#include <stdbool.h>
#include <stdint.h>

#include "tracer.h"

uint64_t trace_cpumask = ~0ULL;
unsigned int trace_context = TRACE_CTX_ALL;
bool trace_filtered;	/* a CPU mask or context filter is set */
