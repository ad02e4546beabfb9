# test/bench/app.mk: the benchmark app reaches kernel internals and keeps
# -Werror. anchor/ is the Linux module of make bench-anchor, not built here.
app-incdirs := $(KERNEL_INCLUDES)
app-cflags := -Werror
app-ignore := anchor/*
