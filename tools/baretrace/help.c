/*
 * tools/baretrace/help.c: what `baretrace --help`, `help [--man] CMD`,
 * `CMD --help` and `--version` print, and the two lines a bad command
 * line gets. The texts are help/cmd_*.c's tables (help/help.h); the
 * layouts are here: --help on one screen for the overview and a synopsis,
 * an options table, exit statuses and examples for a command; --man the
 * whole page as plain text, sections as man(1) shows them, which
 * tools/mkman turns into roff.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bt.h"
#include "help/help.h"
#include "nearest.h"
#include "../../wire/wire.h"
#include "base/util.h"
#include "input/tracefile.h"

/*
 * The tool's version: this string is the one place it is written. The
 * Makefile adds `git describe` of the tree it was built from, as
 * BT_GIT_DESCRIBE, when it is built inside a git checkout.
 */
#define BT_VERSION	"0.1.0"

#define OPT_COL		24	/* --help: an option's text starts at 2 + 24 + 1 */
#define MAX_OPTS	64	/* distinct option names of all commands */

const struct bt_cmd_help *bt_cmd_find(const char *name)
{
	for (size_t i = 0; i < bt_help_ncmds; i++)
		if (!strcmp(bt_help_cmds[i]->name, name))
			return bt_help_cmds[i];
	return NULL;
}

/* The option names of a row ("-o, --output FILE": -o and --output;
 * "--sort=KEY": --sort) not yet in names[0..*n), added. */
static void add_names(const char *opt, const char **names, size_t *n, size_t max)
{
	for (const char *p = opt; *p == '-' && *n < max; p += strspn(p, " ,")) {
		size_t len = strcspn(p, " ,=["), seen = 0;

		while (seen < *n && (strlen(names[seen]) != len || strncmp(names[seen], p, len)))
			seen++;
		if (seen == *n)
			names[(*n)++] = bt_strndup(p, len);
		p += len;
	}
}

/* Every option of every command, from the tables, for "did you mean". */
const char *bt_option_nearest(const char *name)
{
	static const char *names[MAX_OPTS];
	static size_t n;

	if (!n)		/* the first time: every command's table, the overview's */
		for (size_t j = 0; j <= bt_help_ncmds; j++) {
			const struct bt_opt_help *t[4];

			bt_help_tables(j < bt_help_ncmds ? bt_help_cmds[j] : &bt_help_overview, t);
			for (int k = 0; k < 4 && t[k]; k++)
				for (const struct bt_opt_help *o = t[k]; o->opt; o++)
					add_names(o->opt, names, &n, MAX_OPTS);
		}
	return bt_nearest(name, names, n);
}

void bt_try_help(const char *cmd)
{
	if (cmd)
		fprintf(stderr, "Try 'baretrace %.*s --help'.\n", (int)strcspn(cmd, " "), cmd);
	else
		fputs("Try 'baretrace --help'.\n", stderr);
	exit(BT_EXIT_USAGE);
}

void bt_unknown_command(const char *cmd)
{
	static const char *const names[] = { "help", "version" };
	struct nearest near_cmd;

	nearest_start(&near_cmd, cmd, strlen(cmd));
	for (size_t i = 0; i < bt_help_ncmds; i++)
		nearest_try(&near_cmd, bt_help_cmds[i]->name);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		nearest_try(&near_cmd, names[i]);
	if (near_cmd.best) {
		fprintf(stderr, "baretrace: unknown command '%s'; did you mean '%s'?\n", cmd,
			near_cmd.best);
	} else {
		fprintf(stderr, "baretrace: unknown command '%s' (", cmd);
		for (size_t i = 0; i < bt_help_ncmds; i++)
			fprintf(stderr, "%s%s", bt_help_cmds[i]->name,
				i + 2 < bt_help_ncmds ? ", " : i + 1 < bt_help_ncmds ? " or " : ")\n");
	}
	bt_try_help(NULL);
}

/*
 * "--help" or "-h" among a command's arguments asks for its usage; not
 * past "--" or "--qemu", where the arguments belong to another program.
 */
int bt_wants_help(int argc, char **argv)
{
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--") || !strcmp(argv[i], "--qemu"))
			return 0;
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return 1;
	}
	return 0;
}

/* Each line of text, '\n' between them, with indent before it. */
static void lines(FILE *f, const char *text, int indent)
{
	for (const char *p = text; *p; ) {
		size_t n = strcspn(p, "\n");

		fprintf(f, "%*s%.*s\n", indent, "", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

static void options(FILE *f, const struct bt_cmd_help *c)
{
	const struct bt_opt_help *t[4];

	bt_help_tables(c, t);
	for (int k = 0; k < 4 && t[k]; k++)
		for (const struct bt_opt_help *o = t[k]; o->opt; o++) {
			if (o == bt_help_filter_opts)	/* FILTERS in the synopsis */
				fputs("\nFilters (FILTERS):\n", f);
			if (strlen(o->opt) > OPT_COL)
				fprintf(f, "  %s\n%*s", o->opt, OPT_COL + 3, "");
			else
				fprintf(f, "  %-*s ", OPT_COL, o->opt);
			fprintf(f, "%.*s\n", (int)strcspn(o->text, "\n"), o->text);
			if (strchr(o->text, '\n'))
				lines(f, strchr(o->text, '\n') + 1, OPT_COL + 3);
		}
}

/* The overview: on one screen (24 lines of 80 columns). */
static void overview(FILE *f)
{
	bt_help_synopsis(f, &bt_help_overview, "usage: ", "       ");
	fprintf(f, "\n%s\n\nCommands:\n", bt_help_overview.about);
	for (size_t i = 0; i < bt_help_ncmds; i++)
		fprintf(f, "  %-11s %s\n", bt_help_cmds[i]->name, bt_help_cmds[i]->summary);
	fputs("\n'baretrace help COMMAND' or 'baretrace COMMAND --help': its options;\n"
	      "'man baretrace-COMMAND' or 'baretrace help --man COMMAND': its whole page.\n", f);
}

/* One command's usage, or with c NULL the overview. */
void bt_help(FILE *f, const struct bt_cmd_help *c)
{
	if (!c) {
		overview(f);
		return;
	}
	bt_help_synopsis(f, c, "usage: ", "       ");
	fprintf(f, "\n%s\n\nOptions:\n", c->about);
	options(f, c);
	fputs("\nExit status:\n", f);
	lines(f, c->exit_status, 2);
	fputs("\nExamples:\n", f);
	lines(f, c->examples, 2);
	fprintf(f, "\nThe whole text: 'man baretrace-%s' or 'baretrace help --man %s'.\n",
		c->name, c->name);
}

/* baretrace help [--man] [COMMAND], --help, -h: 0, or a usage error. */
int bt_help_main(int argc, char **argv)
{
	const struct bt_cmd_help *c = NULL;
	int man = 0, i = 2;

	if (!strcmp(argv[1], "help") && i < argc && !strcmp(argv[i], "--man")) {
		man = 1;
		i++;
	}
	if (i < argc && !(c = bt_cmd_find(argv[i]))) {
		if (argv[i][0] == '-')
			fprintf(stderr, "baretrace help: unknown option '%s'\n", argv[i]);
		else
			bt_unknown_command(argv[i]);
		bt_try_help(NULL);
	}
	if (i + 1 < argc) {
		fprintf(stderr, "baretrace help: one command at a time: '%s' is one too many\n",
			argv[i + 1]);
		bt_try_help(NULL);
	}
	if (man)
		bt_help_man(stdout, c);
	else
		bt_help(stdout, c);
	return 0;
}

/* The build, and the formats it reads: a trace written by a newer tool
 * or target says its version, so a user can match the two. */
void bt_print_version(void)
{
#ifdef BT_GIT_DESCRIBE
	printf("baretrace %s (git %s)\n", BT_VERSION, BT_GIT_DESCRIBE);
#else
	printf("baretrace %s\n", BT_VERSION);
#endif
	printf("reads trace files version %u, wire format version %u\n",
	       (unsigned)bt_file_magic[7], (unsigned)WIRE_VERSION);
}
