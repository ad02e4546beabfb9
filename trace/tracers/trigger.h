/* trace/tracers/trigger.h: triggers (trigger.c), snapshots (snapshot.c) and
 * argument capture (args.c). */
#ifndef TRACE_TRIGGER_H
#define TRACE_TRIGGER_H

#include <stdint.h>

struct ring_cpu;

enum trigger_action {
	TRIG_TRACEON = 1, TRIG_TRACEOFF, TRIG_SNAPSHOT, TRIG_STACKTRACE, TRIG_DUMP,
};

/* Extension record subtypes (docs/wire.md 2.6). */
#define WIRE_EXT_ARGS		1
#define WIRE_EXT_STACK		2
#define WIRE_EXT_TRIGGER	3

void trigger_list(void);
/* The 'dump' action's text dump of every ring: a consumer's job, above
 * the tracers (trace/LAYERS), so the control layer hands it here once at
 * boot, before any trigger can be set. */
void trigger_set_dump(void (*fn)(void));
uint64_t trigger_fired(unsigned int i);
/* "traceon", "dump", ... for an action (the wire's action byte); NULL
 * for a number that is none. */
const char *trigger_action_name(unsigned int action);

int snapshot_alloc(void);	/* thread context; 0 or -1 */
void snapshot_take(void);	/* any context */
/* CPU cpu's ring as the last snapshot copied it; NULL if none. */
const struct ring_cpu *snapshot_copy(unsigned int cpu);
int snapshot_taken(void);

void args_list(void);

#endif /* TRACE_TRIGGER_H */
