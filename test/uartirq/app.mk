# test/uartirq/app.mk: a kernel test app: it reaches kernel internals and keeps -Werror.
app-incdirs := $(KERNEL_INCLUDES)
app-cflags := -Werror
