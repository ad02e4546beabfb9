# examples/firmware/app.mk: an existing firmware tree as it is: sources in
# subfolders, its own include folder and build-time settings, and code
# that warns under -Wextra (unused parameters in the driver interface).
app-srcs    := src/*.c drivers/*.c lib/*/*.c
app-incdirs := include
app-defines := FW_VERSION=\"2.1\" RING_SLOTS=8
app-cflags  := -Werror -Wno-unused-parameter
# The checksum runs per byte: left without a patch site, never traced.
app-notrace := lib/crc/*.c
