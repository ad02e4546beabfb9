# mk/rpi.mk: the Raspberry Pi boards' files and flows (sdcard, run-uboot),
# read by the Makefile at this point.

# ---- Raspberry Pi flows ------------------------------------------------------
# Boards whose board.mk includes board/rpi-common/rpi.mk (BOARD_FLOW := rpi)
# also get, next to the Image, what the Pi firmware boots:
#   kernel8.img   the Image under the name the firmware loads (BOARD_IMAGE_NAME)
#   config.txt    the firmware's settings (BOARD_CONFIG_TXT)
#   cmdline.txt   the boot line of make run (boot_line): panic=poweroff,
#                 make run's tracing (TRACE_ARGS; TRACE= for none), then
#                 BOOTARGS as typed; the firmware hands it over in
#                 /chosen/bootargs, so a card records a trace out of the
#                 box and ends a crash as make run does.
#   boot.scr      the U-Boot flow's script (board/rpi-common/boot.cmd),
#                 setting bootargs to cmdline.txt's line, quoted for
#                 U-Boot's shell (tools/uboot-quote)
# 'make sdcard FIRMWARE_DIR=dir [SDCARD_FLOW=uboot]' adds the firmware
# files (RPI_FIRMWARE) and writes sdcard/ and sdcard.img (tools/mksdcard).
ifeq ($(BOARD_FLOW),rpi)
RPI_BOOT_FILES := $(OUT)/$(BOARD_IMAGE_NAME) $(OUT)/config.txt $(OUT)/cmdline.txt \
  $(OUT)/boot.scr
RPI_CMDLINE = $(call boot_line,$(TRACE_ARGS))
SDCARD_FLOW ?= direct
FIRMWARE_DIR ?=
.PHONY: sdcard run-uboot rpi-bootargs
all: $(RPI_BOOT_FILES)

$(OUT)/$(BOARD_IMAGE_NAME): $(OUT)/Image
	$(Q)cp $< $@

$(OUT)/config.txt: $(BOARD_CONFIG_TXT)
	$(Q)cp $< $@

# Rewritten only when BOOTARGS changes, so boot.scr is remade only then.
$(OUT)/cmdline.txt: rpi-bootargs
	@mkdir -p $(dir $@)
	$(Q)printf '%s\n' $(call shell_quote,$(RPI_CMDLINE)) > $@.new
	$(Q)if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

# The template's @BOOTARGS@ becomes cmdline.txt's line as one U-Boot word.
$(OUT)/boot.cmd: board/rpi-common/boot.cmd $(OUT)/cmdline.txt
	$(Q)word=$$(tools/uboot-quote "$$(cat $(OUT)/cmdline.txt)") && \
	  sed "s|@BOOTARGS@|$$(printf '%s' "$$word" | sed 's/[\\|&]/\\&/g')|" $< > $@

$(OUT)/boot.scr: $(OUT)/boot.cmd
	@$(if $(Q),echo "  MKIMAGE $@")
	$(Q)mkimage -A arm64 -O linux -T script -C none -n baretrace -d $< $@ >/dev/null

sdcard: all $(if $(filter uboot,$(SDCARD_FLOW)),$(UBOOT_BIN))
	$(Q)tools/mksdcard --out $(OUT)/sdcard.img --flow '$(SDCARD_FLOW)' \
	  --firmware-dir '$(FIRMWARE_DIR)' --firmware '$(RPI_FIRMWARE)' \
	  --uboot '$(UBOOT_BIN)' $(RPI_BOOT_FILES)

# Debian's U-Boot and kernel device trees, fetched once (tools/fetch-pi).
$(RPI_UBOOT_DEB) $(RPI_KERNEL_DEB)/.fetched:
	$(Q)tools/fetch-pi

# 'make run-uboot' (boards with RPI_QEMU_DTB): the U-Boot flow on QEMU.
# The card is 'make sdcard SDCARD_FLOW=uboot' less the firmware, which
# QEMU stands in for: it loads U-Boot and Debian's device tree for the
# board; U-Boot runs boot.scr from the card, so the boot arguments are the
# card's (cmdline.txt: make run's boot line, boot_line).
# The trace is captured and reported as by make run.
run-uboot: all host-tools $(UBOOT_BIN) $(RPI_KERNEL_DEB)/.fetched $(QEMU_BIN)
	$(Q)[ -n "$(RPI_QEMU_DTB)" ] || { echo "make run-uboot: BOARD=$(BOARD) names no \
	  device tree for QEMU (RPI_QEMU_DTB)" >&2; exit 1; }
	$(Q)tools/mksdcard --out $(OUT)/run-uboot/sdcard.img --flow uboot --no-firmware \
	  --uboot '$(UBOOT_BIN)' $(RPI_BOOT_FILES)
	@mkdir -p $(RUN_DIR) && rm -f $(RUN_DIR)/trace.* $(RUN_DIR)/status
	@dtb=$$(ls $(RPI_KERNEL_DEB)/usr/lib/linux-image-*/broadcom/$(RPI_QEMU_DTB) | head -n 1); \
	trap : INT; status=0; $(RUN) --uboot '$(UBOOT_BIN)' --sd $(OUT)/run-uboot/sdcard.img \
	  --qemu-flags "-dtb $$dtb $(QEMU_FLAGS)" --status $(RUN_DIR)/status \
	  $(if $(TIMEOUT),--timeout '$(TIMEOUT)') \
	  $(if $(CAPTURE),--capture $(RUN_DIR)/trace.bt $(if $(value EXEC),--exec $(call shell_quote,$(value EXEC)))) || status=$$?; \
	echo "(U-Boot's mini UART output: $(OUT)/run-uboot/miniuart.log)"; \
	$(RUN_REPORT)
else
sdcard run-uboot:
	@echo "make $@: for the Raspberry Pi boards (BOARD=rpi4 or rpi3), not $(BOARD)" >&2; exit 1
endif
