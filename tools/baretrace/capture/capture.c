/*
 * tools/baretrace/capture/capture.c: `baretrace capture`. Splits the UART
 * stream (wire/wire.c's stream decoder): console text goes to stdout as it
 * arrives, each frame that passed its CRC is appended to the trace file and
 * flushed, so the file is valid whenever the capture stops. Stops at an
 * end-of-stream frame, end of input, or SIGTERM/SIGHUP.
 *
 * SIGINT (or Ctrl-C typed on a raw terminal), and --timeout S when it
 * passes, ask the target to end the run (the end request,
 * docs/serial-line.md; 'i' interrupt, 'h' hang): the target reports,
 * drains and sends the end-of-stream frame as at any end. A target that
 * does not within END_WAIT_S (every CPU masked, a dead board), or a
 * second SIGINT, and the capture stops there: QEMU is stopped and the
 * final line "baretrace: exit status N (WORD)" is the host's.
 *
 * The frames also go through a quiet decoder, only to count events,
 * losses and sequence gaps for the status line and the summary.
 *
 * With --qemu the capture does not stop at the end-of-stream frame: the
 * console lines after it still come, and QEMU exits by itself at
 * power-off. Text passes through until it does, for at most DRAIN_S;
 * only then is QEMU stopped. A run that traced nothing sends no frame
 * at all: its end is the target's final console line, after which QEMU
 * exits with the application's status (no failure; capture_con.c).
 *
 * The line is two-way (QEMU or a serial port): stdin goes to the target
 * (capture_keys.c), after the --exec commands, if any, have had their
 * replies (capture_exec.c). Ctrl-] on a terminal leaves. The capture
 * tells the target it is there (capture_mark.c).
 *
 * Console text goes out through capture_con.c, and every line of the
 * capture's own is preceded by bt_con_break(): none starts inside a
 * console line.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "../../../wire/wire.h"
#include "../base/util.h"
#include "../decode/decode.h"
#include "../input/tracefile.h"

#include "capture.h"
#include "outcome.h"

#define STATUS_MS	250
#define DRAIN_S		3.0	/* after the END frame, for QEMU to exit */
#define END_WAIT_S	10.0	/* after the end request, for the END frame */

static volatile sig_atomic_t stop_signal, interrupts;

static void on_signal(int sig)
{
	if (sig == SIGINT)
		interrupts++;
	else
		stop_signal = sig;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* poll()'s timeout until t: never negative (that would be "forever"). */
static int ms_until(double t)
{
	double ms = (t - now()) * 1000 + 1;

	return ms < 0 ? 0 : (int)ms;
}

static uint64_t lost_so_far(const struct bt_decoder *d)
{
	struct bt_loss l;

	bt_loss(d, &l);
	return l.lost;
}

static void draw_status(struct capture *c, double t)
{
	/* Not while keys go to the target: the console is the user's then,
	 * and through a pipe (qemu-run's tee) text and status would mix. */
	if (!c->status || bt_con_mid_line() || c->keys->tty)
		return;
	if (t > c->rate_t) {	/* rates smoothed over the last second or so */
		double dt = t - c->rate_t, keep = dt >= 1.0 ? 0 : 1.0 - dt;

		c->ev_rate = keep * c->ev_rate +
			     (1 - keep) * (double)(c->bd.events - c->rate_events) / dt;
		c->byte_rate = keep * c->byte_rate +
			       (1 - keep) * (double)(c->wire_bytes - c->rate_bytes) / dt;
		c->rate_t = t;
		c->rate_events = c->bd.events;
		c->rate_bytes = c->wire_bytes;
	}
	fprintf(stderr, "\r\033[K[capture %.1fs] %llu frames, %llu events (%.0f/s), "
		"%.1f KB/s, %llu lost", t - c->t0, (unsigned long long)c->dec.frames,
		(unsigned long long)c->bd.events, c->ev_rate, c->byte_rate / 1024,
		(unsigned long long)lost_so_far(&c->bd));
	bt_con_status_drawn();
	c->last_draw = t;
}

static void on_text(struct capture *c, const uint8_t *p, size_t n)
{
	bt_cap_mark_text(&c->mark, c->keys, p, n);
	c->keys->hold = 0;	/* the target's UART is up */
	bt_exec_text(&c->exec, p, n);
	bt_con_text(p, n);
}

static void on_frame(struct capture *c, const struct wire_ev *ev)
{
	if (c->clock_len && bt_file_write(c->out, c->clock, c->clock_len))
		bt_die(BT_EXIT_INPUT, "cannot write %s: %s", c->path, strerror(errno));
	c->clock_len = 0;	/* a run that sends no frame keeps the bare magic */
	if (bt_file_write(c->out, ev->payload, ev->payload_len))
		bt_die(BT_EXIT_INPUT, "cannot write %s: %s", c->path, strerror(errno));
	if (bt_dec_frame(&c->bd, ev->payload, ev->payload_len) < 0 && !c->version_warned++)
		bt_warn("the target speaks stream format version %llu, this baretrace versions "
			"%d to %d: frames are stored but cannot be decoded here",
			(unsigned long long)c->bd.meta.version, WIRE_VERSION_MIN, WIRE_VERSION_MAX);
	if (ev->frame.type == WIRE_FRAME_END) {
		static uint8_t esc[2 * WIRE_MAX_PAYLOAD + 16];

		c->end_bytes = ev->masked ?
			wire_escape_masked(esc, sizeof(esc), ev->payload, ev->payload_len) :
			wire_escape(esc, sizeof(esc), ev->payload, ev->payload_len);
		c->ended = 1;
		wire_end_decode(ev->frame.body, ev->frame.body_len, NULL, 0, &c->run);
	}
}

static void feed(struct capture *c, const uint8_t *p, size_t n)
{
	struct wire_ev ev;

	/* After the end-of-stream frame, the rest of this read is text only. */
	while (n) {
		size_t used = wire_dec_feed(&c->dec, p, n, &ev);

		p += used;
		n -= used;
		if (ev.type == WIRE_EV_TEXT)
			on_text(c, ev.text, ev.text_len);
		else if (ev.type == WIRE_EV_FRAME && !c->ended)
			on_frame(c, &ev);
	}
}

/*
 * What to wait for: the source (slot 0), stdin when it is forwarded and
 * the queue has room (its slot in *in_i, else -1), the way to the target
 * when something is queued and may go. Returns the number of fds.
 */
static int poll_set(int fd, const struct bt_keys *k, struct pollfd *p, int *in_i)
{
	int n = 1;

	p[0] = (struct pollfd){ fd, POLLIN, 0 };
	*in_i = -1;
	if (k->in >= 0 && k->len < sizeof(k->buf)) {
		*in_i = n;
		p[n++] = (struct pollfd){ k->in, POLLIN, 0 };
	}
	if (k->len && k->out >= 0 && !k->hold)
		p[n++] = (struct pollfd){ k->out, POLLOUT, 0 };
	return n;
}

int bt_capture(const struct bt_capture_opts *o)
{
	static struct capture c;
	static struct bt_keys keys;
	static uint8_t frame_buf[WIRE_MAX_PAYLOAD], in[65536];
	struct sigaction sa = { 0 };
	struct wire_ev ev;
	struct bt_clock clock;
	pid_t child;
	int fd, to_target, failed = 0, qemu;
	double drain_until = 0, end_asked = 0;
	const char *why = NULL;
	char reason = 0;	/* the end request sent: 'i' or 'h' */
	int host_end = 0;	/* the host ended the run: 1 no answer, 2 asked to */
	int intr_asked = 0;	/* interrupts counted when the request went */

	sa.sa_handler = on_signal;	/* no SA_RESTART: poll() returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	c.path = o->out;
	c.out = bt_file_create(o->out);
	bt_clock_of_capture(&clock, o->qemu_argv, o->serial != NULL);
	c.clock_len = bt_clock_note(&clock, c.clock, sizeof(c.clock));
	wire_dec_init(&c.dec, frame_buf, sizeof(frame_buf));
	bt_dec_init(&c.bd, NULL, NULL);
	c.bd.quiet = 1;
	c.status = isatty(STDERR_FILENO);
	c.t0 = c.rate_t = now();
	bt_con_open(o->log, !strcmp(o->out, "-"));
	fd = bt_source_open(o, &child, &to_target);
	bt_keys_init(&keys, to_target);
	keys.hold = child != 0;
	c.keys = &keys;
	bt_exec_init(&c.exec, o->exec, o->n_exec, o->exec_timeout, now());
	bt_cap_mark_init(&c.mark);
	while (!stop_signal && (!c.ended || (child && now() < drain_until))) {
		struct pollfd p[3];
		int wait = c.status ? STATUS_MS : -1, in_i;
		int np;
		ssize_t n = 0;
		int r;
		int intr = interrupts + keys.interrupt;

		if (!c.ended && intr && to_target < 0) {
			why = " (interrupted)";	/* a file: nobody to ask */
			break;
		}
		if (!c.ended && reason && intr > intr_asked) {
			host_end = 2;		/* interrupted again: no more waiting */
			why = " (no end-of-stream frame: ended by the host)";
			break;
		}
		if (!c.ended && !reason && (intr || (o->timeout && now() >= c.t0 + o->timeout))) {
			intr_asked = intr;
			reason = intr ? 'i' : 'h';
			bt_con_break();
			fprintf(stderr, "baretrace capture: %s: asking the target to end the run "
				"(%s)\n", intr ? "interrupted" : "--timeout passed",
				intr ? "interrupt" : "hang");
			bt_keys_end_request(&keys, reason);
			end_asked = now();
		}
		if (reason && !c.ended && now() >= end_asked + END_WAIT_S) {
			host_end = 1;
			why = " (no end-of-stream frame: ended by the host)";
			break;
		}
		if (!c.ended && bt_exec_step(&c.exec, &keys, now()) < 0) {
			failed = 1;
			why = " (--exec failed)";
			break;
		}
		if (c.exec.done && !keys.listened) {
			bt_con_break();
			bt_keys_listen(&keys);	/* then the keyboard has the line */
		}
		bt_keys_flush(&keys);
		if (keys.leave) {	/* what it could take before is sent */
			why = " (left with Ctrl-])";
			break;
		}
		np = poll_set(fd, &keys, p, &in_i);
		if (!c.exec.done && !c.exec.failed && !c.ended) {
			int left = ms_until(c.exec.deadline);

			if (wait < 0 || left < wait)
				wait = left;
		}
		if (!c.ended && (reason || o->timeout)) {
			int left = ms_until(reason ? end_asked + END_WAIT_S : c.t0 + o->timeout);

			if (wait < 0 || left < wait)
				wait = left;
		}
		if (c.ended)		/* draining QEMU's last console lines */
			wait = ms_until(drain_until);
		r = poll(p, (nfds_t)np, wait);
		if (r > 0 && in_i >= 0 && p[in_i].revents)
			bt_keys_read(&keys);
		if (r > 0 && p[0].revents)
			n = read(fd, in, sizeof(in));
		if (r < 0 || n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			bt_warn("reading the %s: %s", o->serial ? "serial port" : "input",
				strerror(errno));
			failed = 1;
			break;
		}
		if (r > 0 && p[0].revents && n == 0)
			break;	/* end of input */
		c.wire_bytes += (uint64_t)n;
		feed(&c, in, (size_t)n);
		/* A watchdog reset reboots the board: nothing more to wait for. */
		if (c.ended && !drain_until)
			drain_until = now() + (c.run.known && c.run.outcome == RUN_WATCHDOG ?
					       0 : DRAIN_S);
		if (now() - c.last_draw >= STATUS_MS / 1000.0)
			draw_status(&c, now());
	}
	bt_keys_restore();
	wire_dec_finish(&c.dec, &ev);	/* a frame cut off by the end is counted */
	bt_dec_finish(&c.bd);
	qemu = bt_source_close(fd, to_target, child, 1);
	if (qemu < 0) {
		failed = 1;
	} else if (qemu && !c.ended && !why && !stop_signal && !host_end &&
		   !(WIFEXITED(qemu) && bt_con_final_seen())) {
		/* QEMU quit on its own before the target ended the run (and
		 * not because the user left or stopped us): it did not start,
		 * or it crashed. After the end-of-stream frame, or the final
		 * line (a run that traced nothing sends no frame), its status
		 * is the application's (semihosting), for the runner to read. */
		bt_con_break();
		if (WIFEXITED(qemu))
			fprintf(stderr, "baretrace capture: QEMU exited with status %d before "
				"the end of the stream\n", WEXITSTATUS(qemu));
		else
			fprintf(stderr, "baretrace capture: QEMU was ended by signal %d before "
				"the end of the stream\n", WIFSIGNALED(qemu) ? WTERMSIG(qemu) : 0);
		failed = 1;
	}
	if (!why && !stop_signal && !reason && bt_exec_finish(&c.exec) < 0)
		failed = 1;
	if (host_end)
		bt_end_by_host(reason, host_end == 1, END_WAIT_S);
	bt_capture_summary(&c, now() - c.t0, why, stop_signal != 0);
	bt_con_close();
	fclose(c.out);
	bt_dec_free(&c.bd);
	return failed ? BT_EXIT_INPUT : 0;
}
