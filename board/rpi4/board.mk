# board/rpi4/board.mk: Raspberry Pi 4 Model B, Cortex-A72, GIC-400, spin table.
BOARD_CFLAGS   := -mcpu=cortex-a72
BOARD_DRIVERS  := pl011 pl011_div pl011_baud gicv2 gtimer spintable
BOARD_SRCS     :=
include board/rpi-common/rpi.mk
# Firmware files 'make sdcard' takes from FIRMWARE_DIR (the Pi 4 boots
# from its EEPROM, so no bootcode.bin).
RPI_FIRMWARE   := start4.elf fixup4.dat bcm2711-rpi-4-b.dtb
# U-Boot for 'make sdcard SDCARD_FLOW=uboot': UBOOT_BIN, board/rpi-common/rpi.mk.
# QEMU 7.2 has no Pi 4 model: no 'make run', no boots in 'make test'; the
# rpi4 stage of test/run.py checks the image statically and board/rpi3
# runs the shared Pi code under QEMU raspi3b.
QEMU_MACHINE   :=
BOARD_RUN      := none
TEST_BOOTS     :=
TEST_STAGES    := host,build,rpi4
