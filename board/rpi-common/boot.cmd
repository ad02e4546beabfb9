# U-Boot script for baretrace on a Raspberry Pi (the U-Boot flow).
# The firmware starts U-Boot's rpi_arm64 build (config.txt:
# kernel=u-boot.bin) and hands it its device tree; U-Boot's distro boot
# finds boot.scr on the FAT partition and runs this. The Makefile writes
# cmdline.txt's line in below, quoted for U-Boot's shell (tools/uboot-quote);
# 'make sdcard SDCARD_FLOW=uboot' puts it all on a card.
setenv bootargs @BOOTARGS@
load ${devtype} ${devnum}:${distro_bootpart} ${kernel_addr_r} kernel8.img
# fdt_addr: the firmware's device tree, which U-Boot's Pi code records.
booti ${kernel_addr_r} - ${fdt_addr}
