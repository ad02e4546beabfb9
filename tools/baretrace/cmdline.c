/*
 * tools/baretrace/cmdline.c: what the commands' parsers share (main.c,
 * cmd_capture.c): options with a value, and a bad command line's one
 * line and pointer to the command's --help.
 */
#include <stdio.h>
#include <string.h>

#include "bt.h"
#include "cmdline.h"

const char *bt_cmd_now;	/* whose --help a bad command line points to */

/* A bad command line: what is wrong, and where the usage is (help.c). */
void bt_usage(const char *fmt, const char *arg)
{
	fputs("baretrace: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	bt_try_help(bt_cmd_now);
}

/*
 * If argv[*i] is option 'name' ("--name VALUE" or "--name=VALUE"),
 * stores the value, advances *i past it and returns 1.
 */
int bt_opt_value(int argc, char **argv, int *i, const char *name, const char **val)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n))
		return 0;
	if (argv[*i][n] == '=') {
		*val = argv[*i] + n + 1;
		return 1;
	}
	if (argv[*i][n])
		return 0;
	if (*i + 1 >= argc)
		bt_usage("option %s needs a value", name);
	*val = argv[++*i];
	return 1;
}

void bt_unknown_arg(const char *cmd, const char *arg)
{
	char name[40];

	/* "--sortt=calls": the name is what may be mistyped. */
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "="), arg);
	const char *near = arg[0] == '-' ? bt_option_nearest(name) : NULL;
	if (near && !strcmp(near, name))	/* another command's option */
		fprintf(stderr, "baretrace %s: unknown option '%s': not one of %s\n", cmd, name, cmd);
	else
		fprintf(stderr, "baretrace %s: %s '%s'%s%s%s\n", cmd, arg[0] == '-' ?
			"unknown option" : "unexpected argument", arg,
			near ? "; did you mean '" : "", near ? near : "", near ? "'?" : "");
	bt_try_help(bt_cmd_now);
}


void bt_try_help_now(void)
{
	bt_try_help(bt_cmd_now);
}
