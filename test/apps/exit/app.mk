# test/apps/exit/app.mk: our own example code keeps the kernel's -Werror.
app-cflags := -Werror
