/*
 * tools/baretrace/input/capture.h: the byte sources of `capture`
 * (capture_src.c) as capture.c uses them.
 */
#ifndef TOOLS_BARETRACE_CAPTURE_H
#define TOOLS_BARETRACE_CAPTURE_H

#include <sys/types.h>

#include "../bt.h"

/* A readable fd for the source; *child is QEMU's pid, or 0. Dies on error. */
int bt_source_open(const struct bt_capture_opts *o, pid_t *child);
/* Closes it; stops QEMU first if asked. -1 if QEMU could not be started. */
int bt_source_close(int fd, pid_t child, int stop_child);

#endif /* TOOLS_BARETRACE_CAPTURE_H */
