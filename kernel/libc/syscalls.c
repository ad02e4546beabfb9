/*
 * kernel/libc/syscalls.c: the system calls newlib expects from its host.
 *
 * One console for stdin/stdout/stderr and no files. Thread context only:
 * newlib itself is not used from interrupt handlers.
 */
#include <errno.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>

#include "console.h"
#include "console_input.h"
#include "exception.h"
#include "heap.h"
#include "power.h"
#include "ktime.h"

int _write(int fd, const char *buf, int len)
{
	if (fd != 1 && fd != 2) {
		errno = EBADF;
		return -1;
	}
	console_write(buf, (size_t)len);
	return len;
}

/* Waits for the first byte, then returns what has already arrived, up
 * to and including a newline. */
int _read(int fd, char *buf, int len)
{
	int n = 0;

	if (fd != 0) {
		errno = EBADF;
		return -1;
	}
	if (len <= 0)
		return 0;
	buf[n++] = (char)console_getc();
	while (n < len && buf[n - 1] != '\n') {
		int c = console_trygetc();

		if (c < 0)
			break;
		buf[n++] = (char)c;
	}
	return n;
}

void *_sbrk(ptrdiff_t incr)
{
	void *p = heap_sbrk(incr);

	if (!p) {
		errno = ENOMEM;
		return (void *)-1;
	}
	return p;
}

void _exit(int status)
{
	power_exit(status);
}

int _kill(int pid, int sig)
{
	(void)pid;
	panic("signal %d raised (abort() or an assertion)", sig);
}

int _getpid(void)
{
	return 1;
}

int _close(int fd)
{
	(void)fd;
	errno = EBADF;
	return -1;
}

int _fstat(int fd, struct stat *st)
{
	if (fd < 0 || fd > 2) {
		errno = EBADF;
		return -1;
	}
	st->st_mode = S_IFCHR;
	return 0;
}

int _isatty(int fd)
{
	return fd >= 0 && fd <= 2;
}

off_t _lseek(int fd, off_t off, int whence)
{
	(void)fd;
	(void)off;
	(void)whence;
	errno = ESPIPE;
	return -1;
}

int _open(const char *path, int flags, ...)
{
	(void)path;
	(void)flags;
	errno = ENOENT;
	return -1;
}

int _gettimeofday(struct timeval *tv, void *tz)
{
	uint64_t ns = time_ns();

	(void)tz;
	tv->tv_sec = (time_t)(ns / 1000000000);
	tv->tv_usec = (suseconds_t)(ns % 1000000000 / 1000);
	return 0;
}

clock_t _times(struct tms *t)
{
	clock_t ticks = (clock_t)(time_ns() / (1000000000 / CLOCKS_PER_SEC));

	t->tms_utime = ticks;
	t->tms_stime = t->tms_cutime = t->tms_cstime = 0;
	return ticks;
}
