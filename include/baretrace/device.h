/*
 * include/baretrace/device.h: finding a device in the device tree and
 * mapping its registers (part of baretrace.h; include that). Thread
 * context, any CPU.
 *
 *   struct bt_device d;
 *   if (bt_dev_find("arm,pl011", 0, &d) == 0 &&
 *       bt_dev_map(d.base, d.size, &regs) == 0) {
 *           id = bt_read32(regs + 0xfe0);
 *           if (d.irq >= 0)
 *                   irq_register(d.irq, my_handler, NULL);
 *   }
 *
 * Errors are negative BT_E* values; bt_strerror names them. A call that
 * fails changes nothing.
 */
#ifndef BARETRACE_DEVICE_H
#define BARETRACE_DEVICE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BT_EINVAL	(-1)	/* size 0, range wraps, or a bad argument */
#define BT_ERAM		(-2)	/* the range overlaps RAM (or the image) */
#define BT_ENOSPACE	(-3)	/* the device window is full */
#define BT_ENODTB	(-4)	/* the loader passed no device tree */
#define BT_ENODEV	(-5)	/* no such compatible (with status okay) */
#define BT_EREG		(-6)	/* its reg does not translate to a CPU address */
#define BT_ERANGE	(-7)	/* beyond the physical addresses the CPU has */

const char *bt_strerror(int err);

struct bt_device {
	uint64_t base;		/* reg[0], as a CPU physical address */
	uint64_t size;		/* reg[0]'s size */
	int irq;		/* interrupts[0] as the ID irq_register takes,
				 * or -1: none, or a controller or cell
				 * format the kernel cannot translate */
	int node;		/* the node's offset in the device tree */
};

/* The index-th node (0 = first, depth first) whose compatible list holds
 * 'compatible' and whose status is absent or "okay". The interrupt comes
 * from the node's interrupts property and its interrupt parent
 * (interrupt-parent up the tree): on a GIC (arm,gic-400,
 * arm,cortex-a15-gic) <SPI n> is ID 32 + n and <PPI n> is 16 + n; on the
 * Pi 3's brcm,bcm2836-armctrl-ic, <bank n> is the kernel's numbering of
 * that VideoCore interrupt (board/rpi-common/rpi.h). 0 or a BT_E*. */
int bt_dev_find(const char *compatible, unsigned int index, struct bt_device *out);

/* Maps [phys, phys + size) as Device-nGnRE, read-write, never executable,
 * into the kernel's device window (a virtual range of its own; the
 * kernel's own identity map of the board's peripherals is not used), and
 * stores the virtual address of 'phys' in *va. Pages are 4 KiB: phys need
 * not be page-aligned. A mapping lasts until power-off (there is no
 * unmap); the window holds 2 MiB in all. Refused: size 0 or a range that
 * wraps (BT_EINVAL), any overlap with RAM or the image (BT_ERAM), beyond
 * the CPU's physical address size (BT_ERANGE). All CPUs see the mapping
 * when it returns. */
int bt_dev_map(uint64_t phys, uint64_t size, volatile uint8_t **va);

#ifdef __cplusplus
}
#endif

#endif /* BARETRACE_DEVICE_H */
