/*
 * kernel/shell/shell.c: reading lines from the console (editing in
 * line_edit.c) and running the commands declared with SHELL_CMD.
 */
#include <stdbool.h>
#include <string.h>

#include "bootargs.h"
#include "console.h"
#include "console_input.h"
#include "kprintf.h"
#include "line_edit.h"
#include "shell.h"

extern const struct shell_cmd __shell_cmds_start[], __shell_cmds_end[];

static bool shell_at_exit;	/* kernel parameter 'shell' */
static int exit_status = -1;	/* set by 'exit', ends shell_run */
/* A line typed at the console is running: set and cleared by shell_run
 * around shell_exec, read by shell_exec on the same CPU. */
static bool at_console;

static int param_shell(const char *v)
{
	if (*v)
		return -1;
	shell_at_exit = true;
	return 0;
}
KERNEL_PARAM("shell", param_shell, "run the console shell when main() returns");

bool shell_wanted(void)
{
	return shell_at_exit;
}

static const struct shell_cmd *find(const char *name)
{
	for (const struct shell_cmd *c = __shell_cmds_start; c < __shell_cmds_end; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

int shell_usage(const char *name, const char *problem)
{
	const struct shell_cmd *c = find(name);

	kprintf("%s: %s\nusage: %s %s\n", name, problem, name, c ? c->usage : "");
	return 1;
}

int shell_exec(char *line)
{
	char *argv[SHELL_MAX_ARGS + 1];
	int argc = 0;

	for (char *p = line; *p;) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			break;
		if (argc == SHELL_MAX_ARGS) {
			kprintf("too many words (at most %d)\n", SHELL_MAX_ARGS);
			return -1;
		}
		argv[argc++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	argv[argc] = NULL;
	if (!argc)
		return 0;
	const struct shell_cmd *c = find(argv[0]);

	if (!c) {
		kprintf("unknown command '%s' (try 'help')\n", argv[0]);
		return -1;
	}
	console_set_typed(at_console ? c->name : NULL);
	int r = c->fn(argc, argv);

	console_set_typed(NULL);
	return r;
}

static void echo(const char *s, size_t n)
{
	console_write(s, n);
}

/* One whole line; false (and a message saying why) when it is dropped. */
static bool read_line(char *buf, size_t cap)
{
	struct line_edit le;

	line_edit_init(&le, buf, cap, echo);
	for (;;) {
		switch (line_edit_feed(&le, console_get_input())) {
		case LINE_MORE:
			break;
		case LINE_DONE:
			return true;
		case LINE_CANCELLED:
			return false;
		case LINE_OVERFLOW:
			kprintf("console: input overflow, line dropped\n");
			return false;
		case LINE_TOO_LONG:
			kprintf("console: line too long (max %u characters), line dropped\n",
				(unsigned int)cap - 1);
			return false;
		}
	}
}

int shell_run(void)
{
	char line[SHELL_LINE_MAX];

	kprintf("baretrace shell: 'help' lists the commands\n");
	exit_status = -1;
	while (exit_status < 0) {
		kprintf("bt> ");
		if (!read_line(line, sizeof(line)))
			continue;
		at_console = true;	/* typed, not handed over by C */
		shell_exec(line);
		at_console = false;
	}
	return exit_status;
}

static int cmd_help(int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return shell_usage("help", "takes no arguments");
	/* Alphabetical: the linker leaves the table in whatever order the
	 * objects came (reversed, with this toolchain), so each pass prints
	 * the smallest name after the one printed last. A few dozen
	 * commands: the quadratic walk costs nothing and needs no memory. */
	for (const struct shell_cmd *last = NULL;;) {
		const struct shell_cmd *next = NULL;

		for (const struct shell_cmd *c = __shell_cmds_start; c < __shell_cmds_end; c++)
			if ((!last || strcmp(c->name, last->name) > 0) &&
			    (!next || strcmp(c->name, next->name) < 0))
				next = c;
		if (!next)
			return 0;
		kprintf("  %-10s %-28s %s\n", next->name, next->usage, next->help);
		last = next;
	}
}
SHELL_CMD(help, cmd_help, "", "this list");

static int cmd_exit(int argc, char **argv)
{
	unsigned long v = 0;

	if (argc > 2 || (argc == 2 && (bootargs_parse_ulong(argv[1], &v) || v > 255)))
		return shell_usage("exit", "the status is a number from 0 to 255");
	exit_status = (int)v;
	return 0;
}
SHELL_CMD(exit, cmd_exit, "[STATUS]", "leave the shell; main's caller powers off with STATUS");
