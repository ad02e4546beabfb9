# examples/mbedtls/app.mk: mbed TLS's own self-test program, built
# unchanged from Debian's source package as a baretrace app.
#
# tools/fetch-source mbedtls (run by the first build of this app) unpacks the source into
# build/third-party/mbedtls-VERSION and names that folder in
# build/third-party/mbedtls.dir. Every file of the library is built as it
# is; programs/test/selftest.c too, through selftest_main.c (its main()
# renamed mbedtls_selftest_main so main.c can call it). mbedtls_config.h (ours) adjusts the
# library's default configuration to bare metal.
# (fetched by the first build that needs it: the Makefile's THIRD_PARTY_DIR)
MBEDTLS_DIR := $(call THIRD_PARTY_DIR,mbedtls)
ifeq ($(wildcard $(MBEDTLS_DIR)/library/aes.c),)
$(error examples/mbedtls needs mbed TLS's source, which tools/fetch-source mbedtls could not fetch (it says why above); it puts Debian's source package in $(BUILD)/third-party)
endif
MBEDTLS_DIR := $(abspath $(MBEDTLS_DIR))

app-srcs    := main.c port.c selftest_main.c $(MBEDTLS_DIR)/library/*.c
app-incdirs := $(MBEDTLS_DIR)/include $(MBEDTLS_DIR)
# The library's default configuration, then ours (mbedtls_config.h).
# Its warnings are shown, never errors (app code has no -Werror).
app-cflags  := '-DMBEDTLS_USER_CONFIG_FILE="mbedtls_config.h"'
