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

/*
 * The tool's version: this string is the one place it is written. The
 * Makefile adds `git describe` of the tree it was built from, as
 * BT_GIT_DESCRIBE, when it is built inside a git checkout.
 */
#define BT_VERSION	"0.1.0"

#define OPT_COL		24	/* --help: an option's text starts at 2 + 24 + 1 */
#define MAN_INDENT	7	/* --man: as man(1) indents a section's text */
#define MAN_WIDTH	79
#define MAX_OPTS	64	/* distinct option names of all commands */

/* In the overview's order; a new command adds its help/cmd_*.c table here. */
static const struct bt_cmd_help *const cmds[] = {
	&bt_help_capture, &bt_help_report, &bt_help_stats, &bt_help_export,
	&bt_help_graph, &bt_help_coverage, &bt_help_ktap, &bt_help_hist,
	&bt_help_args_spec,
};

#define N_CMDS	(sizeof(cmds) / sizeof(cmds[0]))

static const struct bt_opt_help help_row[] = {
	{ "-h, --help", "this help" },
	{ NULL, NULL },
};

const struct bt_cmd_help *bt_cmd_find(const char *name)
{
	for (size_t i = 0; i < N_CMDS; i++)
		if (!strcmp(cmds[i]->name, name))
			return cmds[i];
	return NULL;
}

/* A command's option tables in the order they print, ending with NULL:
 * its own, the names', --help's, then the filters' (under a heading). */
static void tables_of(const struct bt_cmd_help *c, const struct bt_opt_help *t[4])
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

/* Every option of every command ("--elf", "-o", "--sort" of "--sort=KEY"),
 * from the tables, for "did you mean". */
const char *bt_option_nearest(const char *name)
{
	static const char *names[MAX_OPTS];	/* each once */
	static size_t n;
	static int listed;

	for (size_t i = 0; !listed && i <= N_CMDS; i++) {
		const struct bt_opt_help *t[4];

		tables_of(i < N_CMDS ? cmds[i] : &bt_help_overview, t);
		for (int k = 0; k < 4 && t[k]; k++)
			for (const struct bt_opt_help *o = t[k]; o->opt; o++)
				for (const char *p = o->opt; *p == '-' && n < MAX_OPTS; ) {
					size_t len = strcspn(p, " ,=[");	/* "-o, --output F" */

					size_t k = 0;

					names[n] = bt_strndup(p, len);
					while (k < n && strcmp(names[k], names[n]))
						k++;
					n += k == n;	/* a new name */
					p += len;
					p += strspn(p, " ,");	/* then the argument, if any */
				}
	}
	listed = 1;
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
	for (size_t i = 0; i < N_CMDS; i++)
		nearest_try(&near_cmd, cmds[i]->name);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		nearest_try(&near_cmd, names[i]);
	if (near_cmd.best) {
		fprintf(stderr, "baretrace: unknown command '%s'; did you mean '%s'?\n", cmd,
			near_cmd.best);
	} else {
		fprintf(stderr, "baretrace: unknown command '%s' (", cmd);
		for (size_t i = 0; i < N_CMDS; i++)
			fprintf(stderr, "%s%s", cmds[i]->name,
				i + 2 < N_CMDS ? ", " : i + 1 < N_CMDS ? " or " : ")\n");
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

/* Text filled to MAN_WIDTH at indent; "\n\n" ends a paragraph, a single
 * '\n' is a space. */
static void fill(FILE *f, const char *text, int indent)
{
	int col = 0;

	for (const char *p = text; *p; ) {
		size_t n = strcspn(p, " \n");

		if (n && col && col + 1 + (int)n > MAN_WIDTH) {
			fputc('\n', f);
			col = 0;
		}
		if (n) {
			col += fprintf(f, "%*s%.*s", col ? 1 : indent, "", (int)n, p);
			p += n;
		}
		if (p[0] == '\n' && p[1] == '\n') {
			fputs(col ? "\n\n" : "\n", f);
			col = 0;
			p++;
		}
		p += *p != 0;
	}
	if (col)
		fputc('\n', f);
}

/* The synopsis, each form after "baretrace ", the first after "usage: ". */
static void synopsis(FILE *f, const struct bt_cmd_help *c, const char *first, const char *next)
{
	int n = 0;

	for (const char *p = c->synopsis; *p; n++) {
		size_t len = strcspn(p, "\n");

		fprintf(f, "%s%s%.*s\n", n ? next : first, *p == ' ' ? "" : "baretrace ",
			(int)len, p);
		p += len + (p[len] == '\n');
	}
}

static void options(FILE *f, const struct bt_cmd_help *c, int man)
{
	const struct bt_opt_help *t[4];

	tables_of(c, t);
	for (int k = 0; k < 4 && t[k]; k++)
		for (const struct bt_opt_help *o = t[k]; o->opt; o++) {
			if (o == bt_help_filter_opts)	/* FILTERS in the synopsis */
				fputs(man ? "\n   Filters\n" : "\nFilters (FILTERS):\n", f);
			if (man) {
				fprintf(f, "%*s%s\n", MAN_INDENT, "", o->opt);
				fill(f, o->text, MAN_INDENT + 7);
				continue;
			}
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
	synopsis(f, &bt_help_overview, "usage: ", "       ");
	fprintf(f, "\n%s\n\nCommands:\n", bt_help_overview.about);
	for (size_t i = 0; i < N_CMDS; i++)
		fprintf(f, "  %-11s %s\n", cmds[i]->name, cmds[i]->summary);
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
	synopsis(f, c, "usage: ", "       ");
	fprintf(f, "\n%s\n\nOptions:\n", c->about);
	options(f, c, 0);
	fputs("\nExit status:\n", f);
	lines(f, c->exit_status, 2);
	fputs("\nExamples:\n", f);
	lines(f, c->examples, 2);
	fprintf(f, "\nThe whole text: 'man baretrace-%s' or 'baretrace help --man %s'.\n",
		c->name, c->name);
}

/* "N  meaning" lines (one that starts with a space goes on), as --man's
 * tagged paragraphs: N, then the meaning filled under it. */
static void statuses(FILE *f, const char *text)
{
	char body[512];
	size_t len = 0;

	for (const char *p = text; *p; ) {
		size_t n = strcspn(p, "\n"), tag = strcspn(p, " "), at = tag + strspn(p + tag, " ");

		if (tag) {
			fprintf(f, "%*s%.*s\n", MAN_INDENT, "", (int)tag, p);
			len = 0;
		}
		len += (size_t)snprintf(body + len, sizeof(body) - len, "%s%.*s", len ? " " : "",
					(int)(n - at), p + at);
		p += n + (p[n] == '\n');
		if (!*p || *p != ' ')
			fill(f, body, MAN_INDENT + 7);
	}
}

/* Example lines: a command at the margin (lines that start with four
 * spaces continue it), what it does indented under it. */
static void examples(FILE *f, const char *text)
{
	for (const char *p = text; *p; ) {
		size_t n = strcspn(p, "\n");
		int note = p[0] == ' ' && p[2] != ' ';

		fprintf(f, "%*s%.*s\n", note ? MAN_INDENT + 7 : MAN_INDENT, "",
			(int)n - 2 * note, p + 2 * note);
		p += n + (p[n] == '\n');
	}
}

/* The other pages, filled. */
static void see_also(FILE *f, const struct bt_cmd_help *c)
{
	char text[512];
	size_t len = 0;

	len += (size_t)snprintf(text, sizeof(text), "%s", c ? "baretrace(1)" : "");
	for (size_t i = 0; i < N_CMDS; i++)
		if (cmds[i] != c)
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%sbaretrace-%s(1)",
						len ? ", " : "", cmds[i]->name);
	fputs("\nSEE ALSO\n", f);
	fill(f, text, MAN_INDENT);
}

/* The whole page as plain text, as man(1) would show it (help --man). */
static void man_page(FILE *f, const struct bt_cmd_help *c)
{
	const struct bt_cmd_help *page = c ? c : &bt_help_overview;

	fprintf(f, "NAME\n%*sbaretrace%s%s - %s\n\nSYNOPSIS\n", MAN_INDENT, "",
		c ? "-" : "", c ? c->name : "", page->summary);
	synopsis(f, page, "       ", "       ");
	fputs("\nDESCRIPTION\n", f);
	fill(f, page->manual, MAN_INDENT);
	if (page->filters) {
		fputc('\n', f);
		fill(f, bt_help_filters_text, MAN_INDENT);
	}
	if (page->names) {
		fputc('\n', f);
		fill(f, bt_help_names_text, MAN_INDENT);
	}
	if (!c) {
		fputs("\nCOMMANDS\n", f);
		for (size_t i = 0; i < N_CMDS; i++)
			fprintf(f, "%*s%s\n%*s%s: baretrace-%s(1)\n", MAN_INDENT, "",
				cmds[i]->name, MAN_INDENT + 7, "", cmds[i]->summary,
				cmds[i]->name);
	}
	fputs("\nOPTIONS\n", f);
	options(f, page, 1);
	fputs("\nEXIT STATUS\n", f);
	statuses(f, page->exit_status);
	fputs("\nEXAMPLES\n", f);
	examples(f, page->examples);
	see_also(f, c);
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
		man_page(stdout, c);
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
