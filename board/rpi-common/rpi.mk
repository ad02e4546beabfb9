# board/rpi-common/rpi.mk: included by every Raspberry Pi board.mk.
# Shared Pi sources (pin routing, watchdog reset and power-off) and what
# the Makefile's "Raspberry Pi flows" section needs: the name the firmware
# loads (arm_64bit=1 boots kernel8.img) and the board's config.txt.
BOARD_SRCS       += board/rpi-common/rpi.c
BOARD_FLOW       := rpi
BOARD_IMAGE_NAME := kernel8.img
BOARD_CONFIG_TXT := board/$(BOARD)/config.txt
