/*
 * tools/baretrace/bt.h: the command line's own header: the usage texts
 * and version (help.c) that main.c and each command's own parser print.
 *
 * The host tool is layered as a trace's data flows, lowest first
 * (tools/baretrace/LAYERS, checked by test/layers.py): base/ (util),
 * input/ (.bt files), decode/ (frames to records, the books, the names
 * the stream gives), capture/, model/ (calls, symbols, types, filters),
 * the usage texts (help.c, this header), output/ (render/, ci/, report/,
 * stats/, export/), then main.c. Each file includes the headers of what
 * it uses; no header gathers the layers.
 */
#ifndef TOOLS_BARETRACE_BT_H
#define TOOLS_BARETRACE_BT_H

#include <stdio.h>

/* ---- help.c (texts: help/cmd_*.c) ------------------------------------ */

struct bt_cmd_help;	/* help/help.h */

const struct bt_cmd_help *bt_cmd_find(const char *name);	/* or NULL */
/* The option one or two edits from name ("--abstiem"), or NULL. */
const char *bt_option_nearest(const char *name);
/* "unknown command 'reprot'; did you mean 'report'?", the pointer to
 * --help, exit status 2. */
void bt_unknown_command(const char *cmd) __attribute__((noreturn));
/* After a usage error's message: "Try 'baretrace CMD --help'." (the
 * command's first word; NULL: the overview's), exit status 2. */
void bt_try_help(const char *cmd) __attribute__((noreturn));
/* 1 if argv[2..] asks for the command's usage (--help, -h; not past
 * "--" or "--qemu", whose arguments are another program's). */
int bt_wants_help(int argc, char **argv);
/* One command's usage, or with c NULL the overview. */
void bt_help(FILE *f, const struct bt_cmd_help *c);
/* baretrace help [--man] [COMMAND], --help, -h. */
int bt_help_main(int argc, char **argv);
/* The tool's version, its build, and the formats it reads. */
void bt_print_version(void);

#endif /* TOOLS_BARETRACE_BT_H */
