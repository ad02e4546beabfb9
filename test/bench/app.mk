# test/bench/app.mk: the benchmark app reaches kernel internals and keeps
# -Werror. anchor/ is the Linux module of make bench-anchor, not built here.
# Two copies of the workload have no patch site: one plain, one built
# for gcov (the Makefile's GCOV list), which needs the cross compiler's
# libgcov (gcov_glue.c fills in what it expects of glibc).
app-incdirs := $(KERNEL_INCLUDES)
app-cflags := -Werror
app-ignore := anchor/*
app-notrace := workload_nosite.c workload_gcov.c gcov_glue.c
app-libs := -lgcov
