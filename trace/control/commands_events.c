/*
 * trace/control/commands_events.c: console commands for tracepoints.
 *
 *   events                          every event, its fields, probes, filter
 *   event enable|disable GLOB...    the recorder on matching events
 *   event filter EVENT [F==V|F!=V]  keep only matching records ('' clears)
 */
#include <string.h>

#include <baretrace_trace.h>
#include <baretrace_tracepoint.h>

#include "kprintf.h"
#include "shell.h"
#include "control.h"

static int cmd_events(int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return shell_usage("events", "no arguments");
	for (unsigned int id = 0; id < tp_count(); id++) {
		const struct tp_event *ev = tp_by_id(id);
		const struct tp_state *s = ev->state;

		kprintf("%2u %-14s %s probes=%u", id, ev->name,
			s->recording ? "on " : "off", s->nprobes);
		for (unsigned int i = 0; i < ev->nfields; i++)
			kprintf(" %s", ev->fields[i].name);
		if (s->has_filter)
			kprintf(" [filter %s%s%ld, %lu dropped]",
				ev->fields[s->filter_field].name, s->filter_ne ? "!=" : "==",
				(long)s->filter_value, (unsigned long)s->filtered_out);
		kprintf("\n");
	}
	return 0;
}
SHELL_CMD(events, cmd_events, "", "list the tracepoints");

static int cmd_event(int argc, char **argv)
{
	int err = 0;

	if (argc >= 3 && !strcmp(argv[1], "enable") && trace_console_refuses())
		return 1;
	if (argc >= 3 && (!strcmp(argv[1], "enable") || !strcmp(argv[1], "disable"))) {
		for (int i = 2; i < argc && !err; i++)
			err = tp_enable(argv[i], !strcmp(argv[1], "enable"));
	} else if ((argc == 3 || argc == 4) && !strcmp(argv[1], "filter")) {
		err = tp_set_filter(argv[2], argc == 4 ? argv[3] : "");
	} else {
		return shell_usage("event", "enable|disable GLOB..., or filter EVENT [FIELD==VALUE]");
	}
	if (err)
		kprintf("event: %s\n", err == TRACE_EINVAL ?
			"no such event or field, or a value outside the field's type" :
			err == TRACE_EPATCH ? "the patcher refused" : "too many probes");
	return err ? 1 : 0;
}
SHELL_CMD(event, cmd_event, "enable|disable GLOB... | filter EVENT [F==V]",
	  "record tracepoints, or filter one");
