/*
 * kernel/shell/shell.h: the serial console shell.
 *
 * Commands are declared where they are implemented:
 *   SHELL_CMD(buffer, cmd_buffer, "SIZE [overwrite|stop]", "ring buffer per CPU");
 * A command gets the words of the line (argv[0] is its name) and returns
 * 0, or prints what is wrong with the line and returns nonzero, having
 * changed nothing. The shell runs in thread context on the CPU that
 * called shell_run().
 */
#ifndef KERNEL_SHELL_H
#define KERNEL_SHELL_H

#define SHELL_MAX_ARGS	16
#define SHELL_LINE_MAX	160

struct shell_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *help;
};

#define SHELL_CMD(cname, fn, usage, help)				\
	static const struct shell_cmd shell_cmd_##cname			\
	__attribute__((used, section(".shell_cmds"), aligned(8))) =	\
		{ #cname, fn, usage, help }

/* The kernel parameter 'shell' was given. */
#include <stdbool.h>
bool shell_wanted(void);

/* Reads and runs commands until 'exit [N]' or 'poweroff'; returns N. */
int shell_run(void);
/* Runs one line (also used by tests). Returns the command's result,
 * or -1 for an unknown command or a bad line. */
int shell_exec(char *line);
/* Prints "usage: NAME USAGE" for a command: for bad arguments. */
int shell_usage(const char *name, const char *problem);

#endif /* KERNEL_SHELL_H */
