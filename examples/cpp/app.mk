# examples/cpp/app.mk: the sources in link order, which is the order
# their static constructors run in; strict warnings for our own code.
app-srcs := sensor.cpp probes.cpp main.cpp
app-cflags := -Werror
