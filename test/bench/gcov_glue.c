/*
 * test/bench/gcov_glue.c: what Debian's cross libgcov.a (built for
 * aarch64-linux-gnu, against glibc) expects of its C library and newlib
 * does not have. Only the writing of .gcda files at exit reaches these,
 * and it never runs here (static destructors never run, and there is no
 * file system): each fails the way a missing file system would, so that
 * libgcov would give up on the file, not crash.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/types.h>

/* glibc's errno is a function; newlib's is __errno(). */
int *__errno_location(void)
{
	return &errno;
}

/* glibc's stderr is a variable; newlib's a macro on the reentrancy
 * structure. Set before main() (the counters' own constructors, priority
 * 100, run first and do not print). */
#undef stderr
FILE *stderr;

__attribute__((constructor(101))) static void gcov_glue_stderr(void)
{
	stderr = _REENT->_stderr;
}

int access(const char *path, int mode)
{
	(void)path;
	(void)mode;
	errno = ENOENT;
	return -1;
}

int mkdir(const char *path, mode_t mode)
{
	(void)path;
	(void)mode;
	errno = ENOSYS;
	return -1;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	(void)addr;
	(void)len;
	(void)prot;
	(void)flags;
	(void)fd;
	(void)off;
	errno = ENOMEM;
	return (void *)-1;	/* MAP_FAILED */
}
