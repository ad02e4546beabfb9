/*
 * tools/baretrace/capture/capture.h: the capture command (capture.c) and
 * its pieces as capture.c uses them: the byte sources (capture_src.c), the
 * way back to the target for keystrokes (capture_keys.c) and the --exec
 * driver (capture_exec.c).
 */
#ifndef TOOLS_BARETRACE_CAPTURE_H
#define TOOLS_BARETRACE_CAPTURE_H

#include <sys/types.h>

#include "../../../wire/wire.h"
#include "../decode/decode.h"

struct bt_capture_opts {
	const char *serial, *file, *out;
	const char *log;	/* --log: a copy of what goes to stdout, or NULL */
	unsigned baud;
	char **qemu_argv;
	char **exec;		/* --exec: shell commands, in order */
	int n_exec;
	double exec_timeout;	/* seconds for each prompt */
	double timeout;		/* --timeout: seconds, then the end request (hang); 0 none */
};

/* capture_exec.c: splits one --exec value at ';' onto cmds[0..*n): 0, or -1 with *why a
 * usage message (one %s: the value) for an empty or multi-line command. */
int bt_exec_add(char ***cmds, int *n, const char *arg, const char **why);
int bt_capture(const struct bt_capture_opts *o);

/*
 * A readable fd for the source; *child is QEMU's pid, or 0; *to_target
 * a non-blocking fd whose bytes reach the target's UART (QEMU's stdin,
 * the serial port itself), or -1 for a file. Dies on error.
 */
int bt_source_open(const struct bt_capture_opts *o, pid_t *child, int *to_target);
/*
 * Closes them; stops QEMU first if asked (unless it has already ended).
 * -1 if QEMU could not be started; else QEMU's wait status if it ended
 * by itself and not with status 0 (a startup error, a crash), else 0.
 */
int bt_source_close(int fd, int to_target, pid_t child, int stop_child);

/* ---- capture_con.c: the console on stdout (and --log) ------------------ */

/* Console text goes to stdout (stderr with to_stderr: -o -), and to log
 * when not NULL (dies if it cannot be created); bt_warn() and bt_die()
 * end a console line first from now. */
void bt_con_open(const char *log, int to_stderr);
void bt_con_text(const uint8_t *p, size_t n);
/* The target's final line ("baretrace: exit status ") was in the text. */
int bt_con_final_seen(void);
/* The last console byte written was not a newline. */
int bt_con_mid_line(void);
/* capture.c's status line (stderr, a terminal) was drawn; clears it. */
void bt_con_status_drawn(void);
void bt_con_clear_status(void);
/* Before any line of the capture's own (stderr): clears the status line,
 * ends an unfinished console line with '\n' on stdout (and the log),
 * flushes stdout. */
void bt_con_break(void);
/* A line of the host's own on the console (the final line the host
 * prints when it ends the run), at a line start, in the log too. */
void bt_con_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void bt_con_close(void);

/* ---- capture_keys.c: bytes toward the target --------------------------- */

#define BT_KEY_LEAVE	0x1d	/* Ctrl-]: leaves an interactive capture */
#define BT_KEY_INTR	0x03	/* Ctrl-C: asks the target to end the run */

struct bt_keys {
	int out;		/* toward the target, -1: nowhere */
	int in;			/* stdin while it is forwarded, else -1 */
	int listened;		/* forwarding began (it never begins again) */
	int tty;		/* stdin is a terminal we set raw */
	int leave;		/* Ctrl-] was typed */
	int interrupt;		/* Ctrl-C was typed (raw terminal): times */
	int hold;		/* queue, do not send: the target is not up yet */
	/* The capture's mark (capture_mark.c): */
	int kernel;		/* the last line head seen was baretrace's */
	int marked;		/* a mark went out since that head */
	int unmarked;		/* bytes went out while kernel was 0 */
	int ending;		/* the end request is queued: no more marks */
	uint8_t buf[4096];	/* bytes not yet taken by the target */
	size_t len;
};

void bt_keys_init(struct bt_keys *k, int out);
/* Starts forwarding stdin (raw mode if it is our terminal); once. */
void bt_keys_listen(struct bt_keys *k);
/* Reads what stdin has; EOF stops forwarding. */
void bt_keys_read(struct bt_keys *k);
/* Queues bytes for the target (0, or -1 when the buffer has no room). */
int bt_keys_queue(struct bt_keys *k, const void *p, size_t n);
/* Writes what the target takes now (unless held); a target gone drops the rest. */
void bt_keys_flush(struct bt_keys *k);
/* Puts the terminal back as it was; safe to call again, and at exit. */
void bt_keys_restore(void);
/*
 * The end request (docs/serial-line.md): DLE, CAN, then 'i' (interrupt)
 * or 'h' (hang), queued after what is already queued; stdin is no longer
 * forwarded (the run is ending). -1 if there is no way to the target.
 */
int bt_keys_end_request(struct bt_keys *k, char reason);
/* The target did not answer the end request within wait_s (no_answer), or
 * the user interrupted again: prints why on stderr and the final line the
 * target would have printed, for the outcome 'reason' names. */
void bt_end_by_host(char reason, int no_answer, double wait_s);

/* ---- capture_mark.c: telling the target a capture is there ------------ */

struct bt_cap_mark {
	char head[16];		/* the start of the current console line */
	size_t len;
	int done;		/* this line is decided */
};

void bt_cap_mark_init(struct bt_cap_mark *m);
/* Console text only: follows the line heads ("bt> ", "baretrace: ",
 * "U-Boot ") into k's kernel, marked and unmarked. */
void bt_cap_mark_text(struct bt_cap_mark *m, struct bt_keys *k, const uint8_t *p, size_t n);
/* bt_keys_flush: the mark goes before the bytes queued, if due. */
void bt_cap_mark_flush(struct bt_keys *k);

/* ---- capture_exec.c: --exec ------------------------------------------- */

/* kernel/shell/shell.c's prompt, at the start of a line */
#define BT_SHELL_PROMPT	"bt> "

struct bt_exec {
	char **cmd;
	int n;
	int sent;		/* commands sent; cmd[sent - 1] waits for its reply */
	int prompts;		/* prompts seen and not yet answered */
	int done;		/* every command had its reply */
	int failed;
	double timeout, deadline;
	size_t match;		/* bytes of the prompt matched */
	int line_start;		/* the next console byte begins a line */
	/* The command goes out BT_EXEC_CHUNK bytes at a time, the next
	 * chunk once the shell echoed the one before (capture_exec.c). */
	const char *rest;	/* of cmd[sent - 1], not yet queued */
	const char *chunk;	/* the chunk whose echo is awaited */
	size_t chunk_len, echoed;
};
#define BT_EXEC_CHUNK	8

void bt_exec_init(struct bt_exec *e, char **cmd, int n, double timeout, double now);
/* Console text only (never frame bytes): finds the prompts. */
void bt_exec_text(struct bt_exec *e, const uint8_t *p, size_t n);
/* Sends the next command when a prompt came; -1 on a timeout (said why). */
int bt_exec_step(struct bt_exec *e, struct bt_keys *k, double now);
/* The run has ended; -1 (and why) if commands were left unanswered. */
int bt_exec_finish(struct bt_exec *e);

/* ---- capture.c's state, and its summary (capture_sum.c) --------------- */

struct capture {
	struct wire_dec dec;
	struct bt_decoder bd;
	FILE *out;
	const char *path;
	uint64_t wire_bytes;
	uint64_t end_bytes;	/* the end-of-stream frame's, escaped */
	int ended, version_warned;
	struct wire_end_run run;	/* the END frame's outcome (run.known) */
	/* status line (capture_con.c knows whether it is on screen) */
	int status;		/* stderr is a terminal */
	double t0, last_draw, rate_t;
	uint64_t rate_events, rate_bytes;
	double ev_rate, byte_rate;
	struct bt_exec exec;	/* --exec: watches the console text */
	struct bt_cap_mark mark;	/* so does the capture's mark */
	struct bt_keys *keys;	/* toward the target */
	uint8_t clock[64];	/* the clock's note (clock.c), before the first frame */
	size_t clock_len;
};

/* The summary's lines (stderr): secs since the capture started; why the
 * capture stopped when no END frame came (or NULL); signalled: by a
 * signal. */
void bt_capture_summary(const struct capture *c, double secs, const char *why, int signalled);

#endif /* TOOLS_BARETRACE_CAPTURE_H */
