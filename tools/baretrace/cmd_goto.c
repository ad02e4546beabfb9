/*
 * tools/baretrace/cmd_goto.c: the goto command's line: a run folder
 * made by make record (or its trace.bt), the event (goto_event.c reads
 * it here: a malformed one is a bad command line), --check; goto.c does
 * the rest.
 */
#include <string.h>

#include "base/util.h"
#include "cmdline.h"
#include "goto.h"

int bt_cmd_goto(int argc, char **argv)
{
	struct bt_goto_opts o = { 0 };

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--check")) {
			o.check = 1;
			continue;
		}
		if (bt_is_option(argv[i]) || (o.run && o.event))
			bt_unknown_arg("goto", argv[i]);
		if (!o.run)
			o.run = argv[i];
		else
			o.event = argv[i];
	}
	if (!o.run || !o.event)
		bt_usage("goto needs a run folder (make record's) and an event (N, FUNC[@CPU][#N] "
			 "or @T[@CPU])%s", "");
	if (bt_goto_parse_event(o.event, &o.ev))
		bt_usage("bad event '%s' for goto (N, FUNC[@CPU][#N], or @T[@CPU]: T in counter "
			 "ticks, or seconds as report prints them)", o.event);
	return bt_goto(&o);
}
