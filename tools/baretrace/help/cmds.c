/*
 * tools/baretrace/help/cmds.c: the commands' help tables as --help and
 * the man pages (help.c, man.c) walk them: the command list in the
 * overview's order, each command's option tables as they print, and its
 * synopsis lines.
 */
#include <stdio.h>
#include <string.h>

#include "help.h"

/* In the overview's order; a new command adds its help/cmd_*.c table here. */
const struct bt_cmd_help *const bt_help_cmds[] = {
	&bt_help_capture, &bt_help_report, &bt_help_stats, &bt_help_export,
	&bt_help_graph, &bt_help_coverage, &bt_help_ktap, &bt_help_hist,
	&bt_help_args_spec, &bt_help_goto,
};

const size_t bt_help_ncmds = sizeof(bt_help_cmds) / sizeof(bt_help_cmds[0]);

static const struct bt_opt_help help_row[] = {
	{ "-h, --help", "print the synopsis and the options table" },
	{ NULL, NULL },
};

/* A command's option tables in the order they print, ending with NULL:
 * its own, the names', --help's, then the filters' (under a heading). */
void bt_help_tables(const struct bt_cmd_help *c, const struct bt_opt_help *t[4])
{
	int n = 0;

	t[n++] = c->opts;
	if (c->names)
		t[n++] = bt_help_name_opts;
	t[n++] = help_row;
	if (c->filters)
		t[n++] = bt_help_filter_opts;
	if (n < 4)
		t[n] = NULL;
}

/* The synopsis, each form after "baretrace ", the first after "usage: ". */
void bt_help_synopsis(FILE *f, const struct bt_cmd_help *c, const char *first, const char *next)
{
	int n = 0;

	for (const char *p = c->synopsis; *p; n++) {
		size_t len = strcspn(p, "\n");

		fprintf(f, "%s%s%.*s\n", n ? next : first, *p == ' ' ? "" : "baretrace ",
			(int)len, p);
		p += len + (p[len] == '\n');
	}
}
