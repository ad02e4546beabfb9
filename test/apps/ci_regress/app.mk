# test/apps/ci_regress/app.mk: our own test code keeps the kernel's -Werror.
app-cflags := -Werror
