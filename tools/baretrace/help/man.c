/*
 * tools/baretrace/help/man.c: `baretrace help --man [COMMAND]`, a whole
 * page as plain text laid out as man(1) shows one: section names at the
 * margin, text filled at 7 columns, a tagged paragraph's tag at 7 and
 * its body at 14, a subsection's name at 3. tools/mkman reads these
 * shapes back and writes the roff of the man pages.
 */
#include <stdio.h>
#include <string.h>

#include "help.h"

#define MAN_INDENT	7	/* as man(1) indents a section's text */
#define MAN_WIDTH	79

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

/* Every option row: the option at the margin, what it does under it. */
static void options(FILE *f, const struct bt_cmd_help *c)
{
	const struct bt_opt_help *t[4];

	bt_help_tables(c, t);
	for (int k = 0; k < 4 && t[k]; k++)
		for (const struct bt_opt_help *o = t[k]; o->opt; o++) {
			if (o == bt_help_filter_opts)	/* FILTERS in the synopsis */
				fputs("\n   Filters\n", f);
			fprintf(f, "%*s%s\n", MAN_INDENT, "", o->opt);
			fill(f, o->text, MAN_INDENT + 7);
		}
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
	for (size_t i = 0; i < bt_help_ncmds; i++)
		if (bt_help_cmds[i] != c)
			len += (size_t)snprintf(text + len, sizeof(text) - len, "%sbaretrace-%s(1)",
						len ? ", " : "", bt_help_cmds[i]->name);
	fputs("\nSEE ALSO\n", f);
	fill(f, text, MAN_INDENT);
}

/* The whole page as plain text, as man(1) would show it (help --man). */
void bt_help_man(FILE *f, const struct bt_cmd_help *c)
{
	const struct bt_cmd_help *page = c ? c : &bt_help_overview;

	fprintf(f, "NAME\n%*sbaretrace%s%s - %s\n\nSYNOPSIS\n", MAN_INDENT, "",
		c ? "-" : "", c ? c->name : "", page->summary);
	bt_help_synopsis(f, page, "       ", "       ");
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
		for (size_t i = 0; i < bt_help_ncmds; i++)
			fprintf(f, "%*s%s\n%*s%s: baretrace-%s(1)\n", MAN_INDENT, "",
				bt_help_cmds[i]->name, MAN_INDENT + 7, "", bt_help_cmds[i]->summary,
				bt_help_cmds[i]->name);
	}
	fputs("\nOPTIONS\n", f);
	options(f, page);
	fputs("\nEXIT STATUS\n", f);
	statuses(f, page->exit_status);
	fputs("\nEXAMPLES\n", f);
	examples(f, page->examples);
	see_also(f, c);
}

