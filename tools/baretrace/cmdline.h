/*
 * tools/baretrace/cmdline.h: the command line's shared parsing (cmdline.c)
 * and the commands parsed outside main.c.
 */
#ifndef TOOLS_BARETRACE_CMDLINE_H
#define TOOLS_BARETRACE_CMDLINE_H

/* The command being parsed: whose --help a bad command line points to. */
extern const char *bt_cmd_now;
/* A bad command line: "baretrace: " fmt (with arg), the pointer to the
 * command's --help, exit status 2. */
void bt_usage(const char *fmt, const char *arg) __attribute__((noreturn));
/* If argv[*i] is option 'name' ("--name VALUE" or "--name=VALUE"),
 * stores the value, advances *i past it and returns 1. */
int bt_opt_value(int argc, char **argv, int *i, const char *name, const char **val);
/* An unknown option (with "did you mean") or an unexpected argument. */
void bt_unknown_arg(const char *cmd, const char *arg) __attribute__((noreturn));
/* The pointer to the command being parsed's --help, exit status 2
 * (bt_after_usage_error: usage errors raised below the command line). */
void bt_try_help_now(void);

int bt_cmd_capture(int argc, char **argv);	/* cmd_capture.c */
int bt_cmd_goto(int argc, char **argv);		/* cmd_goto.c */

#endif /* TOOLS_BARETRACE_CMDLINE_H */
