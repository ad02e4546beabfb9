/* trace/tracers/profile.h: the function profiler's numbers (profile.c). */
#ifndef TRACE_PROFILE_H
#define TRACE_PROFILE_H

#include <stdint.h>

struct profile_stat {
	uint64_t calls, total, min, max;	/* times in counter ticks */
};

int profile_alloc(void);		/* thread context; 0 or -1 */
void profile_reset(void);
const struct profile_stat *profile_of(unsigned int cpu);	/* [site] */
/* The table sorted by total time, merged over CPUs, on the console. */
void profile_print(unsigned int max_rows);
/* One profile-dump frame per CPU to the host (docs/wire.md 2.5). */
void profile_send(void);

#endif /* TRACE_PROFILE_H */
