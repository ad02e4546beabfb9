-: /tmp/off.c kernel/visibility.h \
 /usr/lib/gcc-cross/aarch64-linux-gnu/12/include/stddef.h kernel/percpu.h \
 /usr/lib/gcc-cross/aarch64-linux-gnu/12/include/stdbool.h \
 /usr/lib/gcc-cross/aarch64-linux-gnu/12/include/stdint.h \
 /usr/lib/gcc-cross/aarch64-linux-gnu/12/include/stdint-gcc.h \
 include/baretrace.h kernel/barrier.h kernel/config.h trace/output/ring.h \
 trace/core/fgraph.h include/baretrace_trace.h
kernel/visibility.h:
/usr/lib/gcc-cross/aarch64-linux-gnu/12/include/stddef.h:
kernel/percpu.h:
/usr/lib/gcc-cross/aarch64-linux-gnu/12/include/stdbool.h:
/usr/lib/gcc-cross/aarch64-linux-gnu/12/include/stdint.h:
/usr/lib/gcc-cross/aarch64-linux-gnu/12/include/stdint-gcc.h:
include/baretrace.h:
kernel/barrier.h:
kernel/config.h:
trace/output/ring.h:
trace/core/fgraph.h:
include/baretrace_trace.h:
