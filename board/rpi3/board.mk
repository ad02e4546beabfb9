# board/rpi3/board.mk: Raspberry Pi 3 Model B and QEMU raspi3b, Cortex-A53,
# BCM2836 local interrupt controller (no GIC), spin table.
BOARD_CFLAGS   := -mcpu=cortex-a53
BOARD_DRIVERS  := pl011 pl011_div pl011_baud gtimer spintable
BOARD_SRCS     := board/rpi-common/bcm2836_intc.c
BOARD_NOTRACE  := board/rpi-common/bcm2836_intc.c
include board/rpi-common/rpi.mk
RPI_FIRMWARE   := bootcode.bin start.elf fixup.dat bcm2710-rpi-3-b.dtb
# QEMU raspi3b: always 4 CPUs (-smp must say 4) and 1 GiB (-m may only
# say 1G); the CPU type is fixed by the machine.
QEMU_MACHINE   := raspi3b
QEMU_CPU       ?= cortex-a53
QEMU_SMP       ?= 4
QEMU_MEM       ?= 1G
BOARD_RUN      := direct
# 'make run-uboot': the device tree QEMU hands U-Boot as the Pi firmware
# would (from Debian's kernel package, RPI_KERNEL_DEB in rpi.mk).
RPI_QEMU_DTB   := bcm2837-rpi-3-b.dtb
TEST_BOOTS     := direct
# 'make debug': QEMU loads an Image with text_offset 0 at 0x200000 here.
export LOAD_ADDR ?= 0x200000
