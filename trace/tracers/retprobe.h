/*
 * trace/tracers/retprobe.h: return probes, SYMBOL%return (retprobe.c says
 * how they work). Their specs, views and numbers are the probes' own
 * (trace/core/probe_spec.h, probe.h): one list, one wire format.
 */
#ifndef TRACE_RETPROBE_H
#define TRACE_RETPROBE_H

#include <stdbool.h>

#include "core/probe.h"

#define RETPROBE_MAX	8

/* Plants a return probe (s->ret set); thread context. 0, or TRACE_EINVAL /
 * TRACE_EBUSY / an ops registration's error with *why set; a refused one
 * changes nothing. */
int retprobe_plant(const struct probe_spec *s, const char **why);
/* Removes the return probe named 'name'; returns once no CPU can record
 * a hit of it any more. TRACE_EINVAL when there is none of that name. */
int retprobe_remove(const char *name, const char **why);
/* Return probe 'i' (0 <= i < RETPROBE_MAX) into *out (addr: the
 * function's entry; insn 0); false when none is there. Any context. */
bool retprobe_get(unsigned int i, struct probe_view *out);
unsigned int retprobe_count(void);
/* Calls that were not hooked for a return probe (return hooks stopped or
 * the shadow stack full), all return probes together. */
uint64_t retprobe_missed(void);

#endif /* TRACE_RETPROBE_H */
