# board/qemu-virt/board.mk: QEMU virt, Cortex-A72, GICv2, PSCI.
BOARD_CFLAGS   := -mcpu=cortex-a72
BOARD_DRIVERS  := pl011 pl011_div pl011_baud gicv2 gtimer psci
BOARD_SRCS     :=
QEMU_MACHINE   := virt
QEMU_CPU       ?= cortex-a72
QEMU_SMP       ?= 4
QEMU_MEM       ?= 512M
# how the image is booted by 'make run': uboot (disk + boot.scr) or direct
BOARD_RUN      := uboot
UBOOT_BIN      := /usr/lib/u-boot/qemu_arm64/u-boot.bin
# boot modes test/run.py runs the KTAP suites in, and extra scenarios
TEST_BOOTS     := direct uboot el2 smp1 cpumax
