/*
 * tools/baretrace/capture/capture_src.c: where `capture` reads the UART from: a
 * serial port set raw at a baud rate, a file holding a raw log, or the
 * stdout of a QEMU it starts (QEMU's serial line with -nographic or
 * -serial stdio). The line goes both ways: what capture_keys.c writes
 * reaches the target's UART through the port itself or QEMU's stdin.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "../base/util.h"

#include "capture.h"

static const struct {
	unsigned baud;
	speed_t speed;
} speeds[] = {
	{ 9600, B9600 }, { 19200, B19200 }, { 38400, B38400 }, { 57600, B57600 },
	{ 115200, B115200 }, { 230400, B230400 }, { 460800, B460800 },
	{ 500000, B500000 }, { 576000, B576000 }, { 921600, B921600 },
	{ 1000000, B1000000 }, { 1152000, B1152000 }, { 1500000, B1500000 },
	{ 2000000, B2000000 }, { 3000000, B3000000 }, { 4000000, B4000000 },
};

/*
 * Raw 8N1, no flow control, reads of whatever has arrived. Non-blocking,
 * for the writes toward the target; reads only follow poll().
 */
static int open_serial(const char *dev, unsigned baud)
{
	int fd = open(dev, O_RDWR | O_NOCTTY | O_NONBLOCK);
	struct termios t;
	speed_t speed = 0;

	if (fd < 0)
		bt_die(BT_EXIT_INPUT, "cannot open serial port %s: %s", dev, strerror(errno));
	for (size_t i = 0; i < sizeof(speeds) / sizeof(speeds[0]); i++)
		if (speeds[i].baud == baud)
			speed = speeds[i].speed;
	if (!speed)
		bt_die(BT_EXIT_USAGE, "baud rate %u is not one termios supports "
		       "(9600 ... 4000000, e.g. 115200)", baud);
	if (tcgetattr(fd, &t))
		bt_die(BT_EXIT_INPUT, "%s is not a serial port: %s", dev, strerror(errno));
	cfmakeraw(&t);
	t.c_cflag |= CLOCAL | CREAD;
	t.c_cflag &= ~(CSTOPB | CRTSCTS);
	t.c_iflag &= ~(IXON | IXOFF | IXANY);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (cfsetispeed(&t, speed) || cfsetospeed(&t, speed) || tcsetattr(fd, TCSANOW, &t))
		bt_die(BT_EXIT_INPUT, "cannot set %s to %u baud raw: %s", dev, baud,
		       strerror(errno));
	return fd;
}

/*
 * QEMU runs in its own process group with its stdin a pipe from us
 * (never our terminal), so a Ctrl-C reaches only us; we then stop it and
 * still write the summary. We hold the pipe open to the end: QEMU never
 * sees its input end, whatever happens to ours.
 *
 * Being in another group, QEMU would outlive a capture that is killed
 * with its group (a harness's timeout, SIGKILL), holding whatever it
 * inherited (a caller's stderr pipe, which its reader then waits on
 * forever). So QEMU dies with us: the kernel sends it SIGKILL when we
 * end, however we end (PR_SET_PDEATHSIG, kept across execvp). A parent
 * that ended before the prctl took hold is seen by getppid() no longer
 * being ours.
 */
static int start_qemu(char **argv, pid_t *child, int *to_target)
{
	int p[2], in[2];
	pid_t self = getpid();

	if (pipe(p) || pipe(in))
		bt_die(BT_EXIT_INPUT, "pipe: %s", strerror(errno));
	*child = fork();
	if (*child < 0)
		bt_die(BT_EXIT_INPUT, "fork: %s", strerror(errno));
	if (*child == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != self)
			_exit(127);
		setpgid(0, 0);
		dup2(p[1], STDOUT_FILENO);
		dup2(in[0], STDIN_FILENO);
		close(p[0]);
		close(p[1]);
		close(in[0]);
		close(in[1]);
		execvp(argv[0], argv);
		fprintf(stderr, "baretrace: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(p[1]);
	close(in[0]);
	fcntl(in[1], F_SETFL, O_NONBLOCK);
	fcntl(in[1], F_SETFD, FD_CLOEXEC);
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	*to_target = in[1];
	return p[0];
}

int bt_source_open(const struct bt_capture_opts *o, pid_t *child, int *to_target)
{
	int fd;

	*child = 0;
	*to_target = -1;
	if (o->serial)
		return *to_target = open_serial(o->serial, o->baud ? o->baud : 115200);
	if (o->qemu_argv)
		return start_qemu(o->qemu_argv, child, to_target);
	fd = strcmp(o->file, "-") ? open(o->file, O_RDONLY) : dup(0);	/* "-": stdin */
	if (fd < 0)
		bt_die(BT_EXIT_INPUT, "cannot open %s: %s", o->file, strerror(errno));
	return fd;
}

#define CHILD_GRACE_MS	300
#define CHILD_TERM_MS	3000	/* after SIGTERM, before SIGKILL */

/* Waits up to ms for child to end: its pid (reaped), 0 if still running. */
static pid_t wait_ms(pid_t child, int *status, int ms)
{
	pid_t done;

	for (int t = 0;; t += 10) {
		while ((done = waitpid(child, status, WNOHANG)) < 0 && errno == EINTR)
			;
		if (done != 0 || t >= ms)
			return done;
		usleep(10 * 1000);
	}
}

int bt_source_close(int fd, int to_target, pid_t child, int stop_child)
{
	int status = 0;
	pid_t done;

	close(fd);
	if (to_target >= 0 && to_target != fd)
		close(to_target);
	if (!child)
		return 0;
	/* Ended by itself? Then its status says how; if not, it is stopped
	 * here and its status (killed by us) says nothing. Its output may
	 * close a moment before it can be reaped: give it CHILD_GRACE_MS.
	 * SIGTERM lets QEMU end cleanly; one that has not within
	 * CHILD_TERM_MS (stopped, stuck) gets SIGKILL: never left behind. */
	done = wait_ms(child, &status, CHILD_GRACE_MS);
	if (done == 0) {
		if (stop_child) {
			kill(child, SIGTERM);
			if (wait_ms(child, &status, CHILD_TERM_MS) == 0)
				kill(child, SIGKILL);
		}
		while (waitpid(child, &status, 0) < 0 && errno == EINTR)
			;
		if (stop_child)
			return WIFEXITED(status) && WEXITSTATUS(status) == 127 ? -1 : 0;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return -1;	/* exec failed; the child said why */
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : (status ? status : 0);
}
