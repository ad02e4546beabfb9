/*
 * tools/baretrace/help/help.h: the shape of the tool's help, one table per
 * command (help/cmd_*.c), read by help.c (`--help`, `help CMD`, the
 * overview, `help --man CMD`) and through `help --man` by tools/mkman,
 * which makes the man pages from it. So --help and the pages cannot
 * disagree: they are printed from the same rows.
 *
 * Widths: every line --help prints fits 80 columns (test/host/e2e_help.py
 * checks), so a summary is at most 64 characters, an option's text at
 * most 50 a line (more lines: '\n' between them), an example's line 78.
 */
#ifndef TOOLS_BARETRACE_HELP_HELP_H
#define TOOLS_BARETRACE_HELP_HELP_H

#include <stddef.h>
#include <stdio.h>

/* One row of a command's OPTIONS table. */
struct bt_opt_help {
	const char *opt;	/* the option and its argument: "-o, --output FILE" */
	const char *text;	/* what it does; '\n' between lines */
};

struct bt_cmd_help {
	const char *name;	/* "report"; NULL for the overview, baretrace(1) */
	const char *summary;	/* one line: the overview's list, the NAME line */
	/* What follows "baretrace ", '\n' between forms; a line that starts
	 * with a space continues the form above it. */
	const char *synopsis;
	const char *about;	/* --help's description: a few lines */
	const struct bt_opt_help *opts;	/* ends with a row whose opt is NULL */
	/* The rows (and the manual's prose) shared by the commands that read
	 * a trace: the filters' (report, stats, export, graph), the names'
	 * (--no-demangle, --no-types: those and stats --diff). */
	int filters, names;
	const char *exit_status;	/* lines "N  meaning" */
	const char *examples;		/* lines: a command, or "  what it does" */
	/* The whole description, the man page's DESCRIPTION (about is its
	 * short form): paragraphs separated by an empty line. */
	const char *manual;
};

/* help/cmd_*.c: one each; help.c lists them in the overview's order. */
extern const struct bt_cmd_help bt_help_overview, bt_help_capture, bt_help_report,
	bt_help_stats, bt_help_export, bt_help_graph, bt_help_coverage, bt_help_ktap,
	bt_help_hist, bt_help_args_spec, bt_help_goto;
/* help/cmd_shared.c: what every command that reads a trace shares. */
extern const struct bt_opt_help bt_help_filter_opts[], bt_help_name_opts[];
extern const char bt_help_filters_text[], bt_help_names_text[];

/* help/cmds.c, for help.c and help/man.c: the commands in the overview's order; a
 * command's option tables as they print (its own, the names', --help's,
 * the filters'), ending with NULL; its synopsis, each form after
 * "baretrace ", the first after first and the others after next. */
extern const struct bt_cmd_help *const bt_help_cmds[];
extern const size_t bt_help_ncmds;
void bt_help_tables(const struct bt_cmd_help *c, const struct bt_opt_help *t[4]);
void bt_help_synopsis(FILE *f, const struct bt_cmd_help *c, const char *first, const char *next);
/* help/man.c: the whole page as plain text (c NULL: baretrace(1)). */
void bt_help_man(FILE *f, const struct bt_cmd_help *c);

#endif /* TOOLS_BARETRACE_HELP_HELP_H */
