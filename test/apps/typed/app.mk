# test/apps/typed/app.mk: our own test code keeps the kernel's -Werror.
app-cflags := -Werror
