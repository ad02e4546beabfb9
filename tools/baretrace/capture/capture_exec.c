/*
 * tools/baretrace/capture/capture_exec.c: `capture --exec`, the target's
 * shell driven from the host. The shell (kernel/shell/shell.c) prints its
 * prompt "bt> " at the start of a line whenever it waits for a line; so
 * the first prompt says the shell is up, and each later one that the
 * command before it has finished. Each command goes out at a prompt;
 * its reply is the console text up to the next prompt, which the
 * capture prints as it prints all console text.
 *
 * Only console text is searched (capture.c hands over the stream
 * decoder's text, never frame bytes), so a frame that happens to hold
 * "bt> " is no prompt, and a frame cutting a prompt in two does not
 * hide it.
 *
 * The last command may end the run ('exit'): its reply is then the end
 * of the run, not a prompt.
 *
 * A command goes out BT_EXEC_CHUNK bytes at a time (the capture's mark,
 * 3 bytes, before the first), the next chunk only once the shell has
 * echoed the one before, so the target never has more than 11 bytes
 * unread: its PL011 holds 16. Under QEMU's record/replay (make record
 * with one CPU, tools/record) the UART's input is no longer paced by
 * what the FIFO can take: the bytes QEMU read from the host wait in its
 * log for the next checkpoint and then all go into the FIFO at once, and
 * a 16-byte command with its mark overran it (the shell got "on" of
 * "tracer function", and the overrun read as BREAKs).
 */
#include <stdlib.h>
#include <string.h>

#include "../base/util.h"

#include "capture.h"

void bt_exec_init(struct bt_exec *e, char **cmd, int n, double timeout, double now)
{
	memset(e, 0, sizeof(*e));
	e->cmd = cmd;
	e->n = n;
	e->done = n == 0;
	e->timeout = timeout;
	e->deadline = now + timeout;
	e->line_start = 1;
}

void bt_exec_text(struct bt_exec *e, const uint8_t *p, size_t n)
{
	static const char prompt[] = BT_SHELL_PROMPT;

	for (size_t i = 0; i < n; i++) {
		uint8_t c = p[i];

		/* The echo of the chunk sent: its bytes in order, whatever
		 * else the console prints between them. */
		if (e->chunk && e->echoed < e->chunk_len && c == (uint8_t)e->chunk[e->echoed])
			e->echoed++;
		if (e->match || e->line_start) {
			if (c == (uint8_t)prompt[e->match]) {
				e->line_start = 0;
				if (++e->match == sizeof(prompt) - 1) {
					e->prompts++;
					e->match = 0;
				}
				continue;
			}
			e->match = 0;
		}
		/* "\r\n" ends a console line; a lone '\r' keeps us at its start */
		e->line_start = c == '\n' || (c == '\r' && e->line_start);
	}
}

static void say(const struct bt_exec *e, const char *what)
{
	bt_con_break();
	fprintf(stderr, "baretrace capture: --exec '%s' (%d of %d): %s\n",
		e->cmd[e->sent - 1], e->sent, e->n, what);
}

/* The next chunk of the command being sent; its '\r' goes with the
 * last one (the prompt after it is the reply, no echo is awaited). */
static int send_chunk(struct bt_exec *e, struct bt_keys *k)
{
	size_t len = strlen(e->rest);

	if (len > BT_EXEC_CHUNK)
		len = BT_EXEC_CHUNK;
	if (bt_keys_queue(k, e->rest, len))
		return -1;
	e->chunk = e->rest;
	e->chunk_len = len;
	e->echoed = 0;
	e->rest += len;
	if (*e->rest)
		return 0;
	e->rest = e->chunk = NULL;
	return bt_keys_queue(k, "\r", 1);
}

int bt_exec_step(struct bt_exec *e, struct bt_keys *k, double now)
{
	if (e->done || e->failed)
		return 0;
	if (e->rest && e->echoed == e->chunk_len) {
		if (send_chunk(e, k)) {
			say(e, "the target takes no input");
			e->failed = 1;
			return -1;
		}
		return 0;
	}
	if (e->prompts && !e->rest) {
		e->prompts = 0;	/* a burst of prompts answers one command */
		if (e->sent == e->n) {
			e->done = 1;
			return 0;
		}
		e->rest = e->cmd[e->sent];
		if (send_chunk(e, k)) {
			e->sent++;
			say(e, "the target takes no input");
			e->failed = 1;
			return -1;
		}
		e->sent++;
		e->deadline = now + e->timeout;
		return 0;
	}
	if (now < e->deadline)
		return 0;
	if (!e->sent) {
		bt_con_break();
		fprintf(stderr, "baretrace capture: --exec: no shell prompt '%s' within %g s "
			"(is the target booted with 'shell'?)\n", BT_SHELL_PROMPT, e->timeout);
	} else {
		char why[96];

		snprintf(why, sizeof(why), "no reply (shell prompt '%s') within %g s",
			 BT_SHELL_PROMPT, e->timeout);
		say(e, why);
	}
	e->failed = 1;
	return -1;
}

int bt_exec_finish(struct bt_exec *e)
{
	if (e->done || e->failed)
		return e->failed ? -1 : 0;
	if (e->sent == e->n)		/* the last command ended the run */
		return 0;
	bt_con_break();
	if (!e->sent)
		fprintf(stderr, "baretrace capture: --exec: the run ended before the shell prompt "
			"'%s' (is the target booted with 'shell'?)\n", BT_SHELL_PROMPT);
	else
		fprintf(stderr, "baretrace capture: --exec '%s' (%d of %d): the run ended before "
			"its reply; %d command%s not sent\n", e->cmd[e->sent - 1], e->sent, e->n,
			e->n - e->sent, e->n - e->sent == 1 ? "" : "s");
	e->failed = 1;
	return -1;
}

int bt_exec_add(char ***cmds, int *n, const char *arg, const char **why)
{
	char *copy = bt_strndup(arg, strlen(arg)), *p = copy;

	for (;;) {
		char *end = strchr(p, ';'), *e;

		if (end)
			*end = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		e = p + strlen(p);
		while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		if (!*p) {
			*why = "--exec '%s' holds an empty command (commands are separated by ';')";
			return -1;
		}
		for (char *q = p; *q; q++)
			if ((unsigned char)*q < ' ' || *q == 0x7f) {
				*why = "--exec '%s': a command is one line of printable characters";
				return -1;
			}
		*cmds = realloc(*cmds, (size_t)(*n + 1) * sizeof(**cmds));
		if (!*cmds)
			bt_die(BT_EXIT_INPUT, "out of memory");
		(*cmds)[(*n)++] = p;
		if (!end)
			return 0;
		p = end + 1;
	}
}
