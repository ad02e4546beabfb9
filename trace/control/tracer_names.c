/*
 * trace/control/tracer_names.c: the names that choose a tracer, one list
 * for every way in. trace= at boot takes each; trace_set_tracer() and
 * the console's 'tracer' take the recording tracers, the first three
 * (the profiler and coverage start through their own commands and
 * calls). A name not in the list gets the nearest one in it.
 *
 * The list is an array of bytes, not of pointers, because the host
 * reads it too: make's pre-boot check (tools/check-names.c) finds the
 * symbol trace_tracer_names in the built image and checks TRACE=
 * against it, with no relocation to apply first.
 */
#include <string.h>

#include "nearest.h"
#include "tracers/tracer.h"
#include "control.h"

/* Each name ends with a NUL, the list with an empty name. */
const char trace_tracer_names[] = "function\0function_graph\0nop\0profile\0coverage\0";
#define RECORDING_TRACERS	3
static struct trace_ops *const recording_ops[RECORDING_TRACERS] = {
	&tracer_function_ops, &tracer_graph_ops, NULL,		/* nop: none */
};

/* The i-th name, or NULL past the last (or past the recording ones). */
static const char *tracer_name_at(int i, bool recording)
{
	const char *p = trace_tracer_names;

	if (recording && i >= RECORDING_TRACERS)
		return NULL;
	for (; *p && i > 0; i--)
		p += strlen(p) + 1;
	return *p ? p : NULL;
}

static int tracer_index(const char *name, bool recording)
{
	const char *p;

	for (int i = 0; (p = tracer_name_at(i, recording)); i++)
		if (!strcmp(p, name))
			return i;
	return -1;
}

bool trace_tracer_known(const char *name, bool recording)
{
	return tracer_index(name, recording) >= 0;
}

int trace_tracer_ops(const char *name, struct trace_ops **ops)
{
	int i = tracer_index(name, true);

	if (i < 0)
		return -1;
	*ops = recording_ops[i];
	return 0;
}

const char *trace_tracer_name_of(const struct trace_ops *ops)
{
	for (int i = 0; i < RECORDING_TRACERS; i++)
		if (recording_ops[i] == ops)
			return tracer_name_at(i, true);
	return "nop";
}

const char *trace_tracer_nearest(const char *word, bool recording)
{
	struct nearest near;
	const char *p;

	nearest_start(&near, word, strlen(word));
	for (int i = 0; (p = tracer_name_at(i, recording)); i++)
		nearest_try(&near, p);
	return near.best;
}

void trace_tracer_list(char *buf, size_t cap, bool recording)
{
	const char *p;
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; (p = tracer_name_at(i, recording)); i++) {
		size_t l = strlen(p);

		if (n + l + 3 > cap)
			return;
		if (n) {
			memcpy(buf + n, ", ", 2);
			n += 2;
		}
		memcpy(buf + n, p, l + 1);
		n += l;
	}
}
