/*
 * tools/baretrace/bt.h: the pieces of the host tool and how they meet.
 *
 * input/
 *   tracefile.c  .bt files: magic, whole frames
 *   meta.c       metadata frames: version, clock, schemas, formats
 *   decode.c     frames in stream order -> records (through the filter
 *                stage when one is set: bt_dec_stage)
 *   books.c      event numbers per CPU: holes, their causes, the totals
 *   prev.c       the previous boot's blocks (wire.md 2.10): their own books
 *   capture*.c   the capture command: UART stream in, frames to a file
 * model/
 *   symtab.c     function names by site and by address, symbol dumps
 *   elf_syms.c   the same names from an ELF's .bt_tables, image hash
 *   filter*.c    host-side filters (--cpu, -F, -N, --depth, --time-range,
 *                --min-duration): one stage between decoder and visitor
 *   callstack.c  per CPU: open graph entries, and returned calls nested
 *                by containment (with or without entries), self time
 *   depths.c     a first pass for report: depths of exits without entries
 *   flame.c      calls merged by call path, for folded stacks, SVG and
 *                graph; flame_source.c reads a trace into it, graph.c
 *                the call graph beneath a function
 *   profile.c    profile dumps: the latest of each CPU, merged rows
 *   srcmap.c     DWARF (libdw): a function's source line, its subprogram
 *   functypes.c  DWARF: a function's parameters, their registers, its
 *                return type, read once per function
 * output/
 *   report*.c    report: per-CPU queues merged by time (report_merge.c)
 *                in a window the first pass plans (report_plan.c),
 *                ftrace layouts
 *   stats*.c     stats: the table, --sort, --diff of two traces
 *   graph_out.c  graph's tree
 *   render.c     text of durations, times, tracepoint fields, printf
 *   render_ext.c text of extension records; json.c JSON pieces
 *   typed.c      arguments and return values by name and type (text, JSON)
 *   export_*.c   chrome-json (with chrome_calls.c, chrome_fields.c),
 *                folded, svg (svg_script.c, svg_style.c), ctf (ctf_meta.c,
 *                ctf_packet.c), trace-cmd (export_tracecmd_*.c)
 *
 * The declarations live with their folders: input/input.h (with
 * model/symtab.h), model/model.h, output/bt_out.h; this header holds the
 * shared constants and util.c and includes them all.
 *
 * Data flows one way: a command opens a file, a decoder turns frames
 * into records and calls the command's visitor for each.
 */
#ifndef TOOLS_BARETRACE_BT_H
#define TOOLS_BARETRACE_BT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "../../wire/wire.h"

#define BT_EXIT_INPUT	1	/* bad input: file, ELF, trace */
#define BT_EXIT_USAGE	2	/* bad command line */

#define BT_MAX_CPUS	256	/* the wire's cpu field is a u8 */
#define BT_MAX_PENDING	1024	/* data frames kept until metadata comes */

/* ---- util.c ------------------------------------------------------------ */

void bt_die(int status, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
void bt_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* PATH opened for writing, or stdout for "-"; bt_out_close: fclose, or
 * a flush for stdout; non-zero on a write error. */
FILE *bt_out_open(const char *path, const char *mode);
int bt_out_close(FILE *f);
/* "baretrace: error: ...": for a failure the caller goes on from (it
 * returns a non-zero status itself). */
void bt_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Called by bt_die(), bt_warn() and bt_error() before they write (capture: a console
 * line left unfinished on stdout is ended first); NULL: nothing. */
extern void (*bt_before_message)(void);
/* Called by bt_die() after a message with status BT_EXIT_USAGE (main.c:
 * the pointer to the command's --help, and it exits); NULL: nothing. */
extern void (*bt_after_usage_error)(void);
void *bt_alloc(size_t n);		/* zeroed; dies when out of memory */
void *bt_grow(void *p, size_t *cap, size_t want, size_t elem);
char *bt_strndup(const void *p, size_t n);
/* "s" unless n is 1: "1 event", "2 events", "0 events". */
/* An option, not a file: "-" alone is standard input or output. */
static inline int bt_is_option(const char *arg)
{
	return arg[0] == '-' && arg[1];
}

static inline const char *bt_plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}
/* The choice nearest word (for "did you mean", by kernel/lib/nearest.h's
 * rule), or NULL. */
const char *bt_nearest(const char *word, const char *const *choices, size_t n);
/* Dies with BT_EXIT_USAGE if both paths name one existing file. */
void bt_refuse_same_file(const char *in, const char *out);
/* An existing regular file at path is renamed path.old first (capture's
 * default file, as perf record keeps perf.data.old); dies if it cannot. */
void bt_keep_old(const char *path);

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

#include "input/input.h"
#include "model/model.h"
/* What the commands make of it (flame graphs, text, JSON): bt_out.h. */
#include "output/bt_out.h"

#endif /* TOOLS_BARETRACE_BT_H */
