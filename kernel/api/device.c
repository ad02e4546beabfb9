/* kernel/api/device.c: include/baretrace/device.h, finding a device in
 * the loader's device tree and mapping its registers. */
#include <stddef.h>
#include <stdint.h>

#include <baretrace.h>

#include "fdt.h"
#include "fdt_addr.h"
#include "fdt_dev.h"
#include "mmu.h"

const char *bt_strerror(int err)
{
	switch (err) {
	case 0: return "no error";
	case BT_EINVAL: return "invalid argument (size 0, or a range that wraps)";
	case BT_ERAM: return "overlaps RAM or the kernel image";
	case BT_ENOSPACE: return "the device window is full";
	case BT_ENODTB: return "no device tree from the loader";
	case BT_ENODEV: return "no such device in the device tree";
	case BT_EREG: return "reg does not translate to a CPU address";
	case BT_ERANGE: return "beyond the CPU's physical address size";
	default: return "unknown error";
	}
}

static uint32_t prop_u32(const void *fdt, int node, const char *name, uint32_t dflt)
{
	int len;
	const void *p = fdt_prop(fdt, node, name, &len);

	return p && len == 4 ? fdt_be32(p) : dflt;
}

/* The node whose phandle is 'ph', or -1 (a depth-first walk). */
static int by_phandle(const void *fdt, int node, uint32_t ph)
{
	for (int c = fdt_first_child(fdt, node); c >= 0; c = fdt_next_sibling(fdt, c)) {
		if (prop_u32(fdt, c, "phandle", 0) == ph)
			return c;
		int found = by_phandle(fdt, c, ph);

		if (found >= 0)
			return found;
	}
	return -1;
}

/* interrupts[0] of 'node' as an interrupt ID, or -1. */
static int node_irq(const void *fdt, int node)
{
	int len, n = node, parent = -1;
	const void *spec = fdt_prop(fdt, node, "interrupts", &len);

	if (!spec)
		return -1;
	while (n >= 0 && !fdt_prop(fdt, n, "interrupt-parent", NULL))
		n = fdt_parent(fdt, n);
	if (n >= 0)
		parent = by_phandle(fdt, fdt_path(fdt, "/"),
				    prop_u32(fdt, n, "interrupt-parent", 0));
	if (parent < 0)
		return -1;
	uint32_t ncells = prop_u32(fdt, parent, "#interrupt-cells", 0);
	uint32_t cells[4];

	if (ncells == 0 || ncells > 4 || (uint32_t)len < 4 * ncells)
		return -1;
	for (uint32_t i = 0; i < ncells; i++)
		cells[i] = fdt_be32((const uint8_t *)spec + 4 * i);
	for (unsigned int w = 0; w < irqchip_fdt_nbases; w++)
		for (int c = 0; c < 3 && irqchip_fdt_bases[w].compat[c]; c++)
			if (fdt_prop_has_string(fdt, parent, "compatible",
						irqchip_fdt_bases[w].compat[c]))
				return irqchip_fdt_irq(w, cells, (int)ncells);
	return -1;	/* a parent the kernel does not drive (a GPIO block...) */
}

/* The index-th okay node holding 'compat', depth first under 'node'. */
static int nth_compatible(const void *fdt, int node, const char *compat,
			  unsigned int *index)
{
	for (int c = fdt_first_child(fdt, node); c >= 0; c = fdt_next_sibling(fdt, c)) {
		/* Bounded string compares: a bad tree cannot make them run on. */
		int okay = !fdt_prop(fdt, c, "status", NULL) ||
			   fdt_prop_has_string(fdt, c, "status", "okay") ||
			   fdt_prop_has_string(fdt, c, "status", "ok");

		if (fdt_prop_has_string(fdt, c, "compatible", compat) && okay &&
		    (*index)-- == 0)
			return c;
		int found = nth_compatible(fdt, c, compat, index);

		if (found >= 0)
			return found;
	}
	return -1;
}

int bt_dev_find(const char *compatible, unsigned int index, struct bt_device *out)
{
	const void *fdt = fdt_boot_blob();

	if (!compatible || !out)
		return BT_EINVAL;
	if (!fdt)
		return BT_ENODTB;
	int node = nth_compatible(fdt, fdt_path(fdt, "/"), compatible, &index);

	if (node < 0)
		return BT_ENODEV;
	uint64_t base, size;

	if (fdt_reg_cpu(fdt, node, 0, &base, &size))
		return BT_EREG;
	out->base = base;
	out->size = size;
	out->irq = node_irq(fdt, node);
	out->node = node;
	return 0;
}

/* BT_ERAM if [lo, hi) meets a range of any /memory node of the DTB (the
 * kernel maps only the first; the Pi 4 has more). */
static int dtb_ram_overlap(uint64_t lo, uint64_t hi)
{
	const void *fdt = fdt_boot_blob();

	if (!fdt)
		return 0;
	int root = fdt_path(fdt, "/");

	for (int c = fdt_first_child(fdt, root); c >= 0; c = fdt_next_sibling(fdt, c)) {
		uint64_t base, size;

		if (!fdt_prop_has_string(fdt, c, "device_type", "memory"))
			continue;
		for (int i = 0; !fdt_reg_cpu(fdt, c, i, &base, &size); i++)
			if (lo < base + size && base < hi)
				return BT_ERAM;
	}
	return 0;
}

int bt_dev_map(uint64_t phys, uint64_t size, volatile uint8_t **va)
{
	uintptr_t v;

	if (!va || !size || phys + size < phys)
		return BT_EINVAL;
	if (dtb_ram_overlap(phys, phys + size))
		return BT_ERAM;
	int err = mmu_map_device(phys, size, &v);

	if (!err)
		*va = (volatile uint8_t *)v;
	return err;
}
