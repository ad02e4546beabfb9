# board/rpi4/board.mk: Raspberry Pi 4 Model B, Cortex-A72, GIC-400, spin table.
BOARD_CFLAGS   := -mcpu=cortex-a72
BOARD_DRIVERS  := pl011 pl011_div pl011_baud gicv2 gtimer spintable
BOARD_SRCS     :=
include board/rpi-common/rpi.mk
# Firmware files 'make sdcard' takes from FIRMWARE_DIR (the Pi 4 boots
# from its EEPROM, so no bootcode.bin).
RPI_FIRMWARE   := start4.elf fixup4.dat bcm2711-rpi-4-b.dtb
# U-Boot for 'make sdcard SDCARD_FLOW=uboot': UBOOT_BIN, board/rpi-common/rpi.mk.
# QEMU raspi4b (QEMU 9.0 and later; Debian 12's 7.2 has none): always 4
# CPUs and 2 GiB (board revision 1.5), the CPU fixed by the machine. The
# QEMU is tools/fetch-qemu's (run by the first rpi4 boot): the system's if it has
# raspi4b, else Debian's backports build unpacked into build/qemu-pi4.
QEMU_MACHINE   := raspi4b
QEMU_CPU       ?= cortex-a72
QEMU_SMP       ?= 4
QEMU_MEM       ?= 2G
QEMU_BIN       := build/qemu-pi4/qemu-system-aarch64
# 'make run' and the direct boots of make test load kernel8.img as the
# firmware does (-kernel) with the device tree the firmware would pass
# (Debian's, from the kernel package; rpi.mk); 'make run-uboot' boots
# Debian's U-Boot from the card with the same tree.
BOARD_RUN      := direct
RPI_QEMU_DTB   := bcm2711-rpi-4-b.dtb
QEMU_DTB       := $(RPI_QEMU_DTB)
# make BOARD=rpi4 test: the raspi4b boots are test/rpi4_qemu.py's stage
# (its multi-threaded KTAP boot has a wider bound than the target stage's).
TEST_BOOTS     := direct
TEST_STAGES    := host,build,rpi4,rpi4-qemu,rpi4-uboot
# 'make debug': QEMU loads an Image with text_offset 0 at 0x200000 here.
export LOAD_ADDR ?= 0x200000
