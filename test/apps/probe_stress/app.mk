# test/apps/probe_stress/app.mk: the probe stress test's image
# (test/probe_stress.py): a probe on every instruction of chosen functions
# of the demo (its sources, examples/demo, built here as they are), of
# mbed TLS (the library of Debian's source with examples/mbedtls's
# configuration and port, as examples/mbedtls/app.mk builds it: the same
# objects) and of the locks, one after the other. The driver reaches
# the trace core's probes and rings, as the KTAP suites of test/target do.
# (fetched by the first build that needs it: the Makefile's THIRD_PARTY_DIR)
MBEDTLS_DIR := $(call THIRD_PARTY_DIR,mbedtls)
ifeq ($(wildcard $(MBEDTLS_DIR)/library/aes.c),)
$(error test/apps/probe_stress needs mbed TLS's source, which tools/fetch-source mbedtls could not fetch (it says why above); it puts Debian's source package in $(BUILD)/third-party)
endif
MBEDTLS_DIR := $(abspath $(MBEDTLS_DIR))
PS_DEMO := $(abspath examples/demo)

app-srcs := main.c sweep.c ring_count.c work_demo.c work_tls.c work_lock.c \
  $(addprefix $(PS_DEMO)/,block.c csum.c filter.c fmt.c fsm.c sensor_model.c spsc.c) \
  $(abspath examples/mbedtls/port.c) $(MBEDTLS_DIR)/library/*.c
# mbed TLS's folders first: its files find their headers as in
# examples/mbedtls (no kernel header has a name they include).
app-incdirs := $(MBEDTLS_DIR)/include $(MBEDTLS_DIR) $(abspath examples/mbedtls) \
  $(KERNEL_INCLUDES) $(PS_DEMO)
app-cflags := '-DMBEDTLS_USER_CONFIG_FILE="mbedtls_config.h"'
