# board/rpi-common/rpi.mk: included by every Raspberry Pi board.mk.
# Shared Pi sources (pin routing, watchdog reset and power-off) and what
# the Makefile's "Raspberry Pi flows" section needs: the name the firmware
# loads (arm_64bit=1 boots kernel8.img) and the board's config.txt.
BOARD_SRCS       += board/rpi-common/rpi.c
BOARD_FLOW       := rpi
BOARD_IMAGE_NAME := kernel8.img
BOARD_CONFIG_TXT := board/$(BOARD)/config.txt
# Debian's files for the U-Boot flow (tools/fetch-pi puts them in
# build/debs): the rpi_arm64 U-Boot, one build for the Pi 3 and 4, and the
# folder of Debian's arm64 kernel package whose usr/lib/linux-image-*/
# broadcom/ holds the Pi device trees. UBOOT_BIN= picks another U-Boot.
RPI_DEBS         := build/debs
RPI_UBOOT_DEB    := $(RPI_DEBS)/u-boot-rpi/usr/lib/u-boot/rpi_arm64/u-boot.bin
RPI_KERNEL_DEB   := $(RPI_DEBS)/linux-image-arm64
UBOOT_BIN        ?= $(RPI_UBOOT_DEB)
