/* sources: kernel/bootinfo/fdt.c kernel/bootinfo/fdt_addr.c */
/*
 * test/host/test_fdt_addr.c: the kernel's DTB address code (fdt_addr.c:
 * parents, reg through every bus's ranges, compatible search, aliases,
 * stdout-path) on Debian's real Raspberry Pi 3 and Pi 4 device trees and
 * on QEMU virt's (argv[1]).
 *
 * Every node's parent and every reg entry's CPU address are held against
 * rpi_dtb.h's separate reader (written for test_rpi3_dtb/test_rpi4_dtb),
 * and the nodes the kernel takes its console and interrupt controller
 * from against board/rpi3/board.h's values.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tap.h"
#include "rpi_dtb.h"
#include "fdt_addr.h"

#include "../../board/rpi3/board.h"

struct tally {
	unsigned int nodes, parent_bad, regs, translated, reg_bad;
};

/* Every node below 'from': parent and reg entries, kernel vs rpi_dtb.h. */
static void walk(int from, struct tally *t)
{
	int root = fdt_path(fdt, "/");

	for (int c = fdt_first_child(fdt, from); c >= 0; c = fdt_next_sibling(fdt, c)) {
		t->nodes++;
		if (fdt_parent(fdt, c) != parent_of(root, c)) {
			t->parent_bad++;
			printf("# %s: parent %d, expected %d\n", fdt_name(fdt, c),
			       fdt_parent(fdt, c), parent_of(root, c));
		}
		for (int i = 0; i < 8; i++) {
			uint64_t addr = 0, size = 0;
			int ok, got = fdt_reg_cpu(fdt, c, i, &addr, &size) == 0;
			uint64_t want = reg_cpu(c, i, &ok);
			int bus = parent_of(root, c), len;
			const void *reg = fdt_prop(fdt, c, "reg", &len);
			int ac = cells_of(bus, "#address-cells", 2), sc = cells_of(bus, "#size-cells", 1);

			if (!reg || len < 4 * (ac + sc) * (i + 1))
				break;	/* no entry i */
			t->regs++;
			t->translated += got;
			if (got != ok || (ok && addr != want) ||
			    (got && sc && size != cells_at(reg, i * (ac + sc) + ac, sc))) {
				t->reg_bad++;
				printf("# %s reg[%d]: kernel %d %#llx+%#llx, expected %d %#llx\n",
				       fdt_name(fdt, c), i, got, (unsigned long long)addr,
				       (unsigned long long)size, ok, (unsigned long long)want);
			}
		}
		walk(c, t);
	}
}

static void check_all(const char *name)
{
	struct tally t = { 0 };
	int root = fdt_path(fdt, "/");

	tap_ok(fdt_parent(fdt, root) == -1, "%s: the root has no parent", name);
	walk(root, &t);
	tap_ok(t.nodes > 20 && t.parent_bad == 0, "%s: fdt_parent of all %u nodes as found "
	       "from the root (%u differ)", name, t.nodes, t.parent_bad);
	tap_ok(t.regs > 10 && t.translated > 10 && t.reg_bad == 0,
	       "%s: fdt_reg_cpu of all %u reg entries (%u CPU-visible) as rpi_dtb.h "
	       "translates them (%u differ)", name, t.regs, t.translated, t.reg_bad);
}

/* The node's reg[i] as the kernel reads it, or ~0 if it cannot. */
static uint64_t kreg(int node, int i)
{
	uint64_t addr, size;

	return node >= 0 && fdt_reg_cpu(fdt, node, i, &addr, &size) == 0 ? addr : ~0ULL;
}

static void check_rpi3(void)
{
	int serial0 = fdt_alias(fdt, "serial0"), out = fdt_stdout(fdt), len;
	const char *a0 = fdt_prop(fdt, fdt_path(fdt, "/aliases"), "serial0", &len);
	const char *sp = fdt_prop(fdt, fdt_path(fdt, "/chosen"), "stdout-path", &len);
	char alias[32] = "";

	tap_ok(a0 && serial0 >= 0 && serial0 == fdt_path(fdt, a0),
	       "rpi3: fdt_alias serial0 is the node /aliases names (%s)", a0 ? a0 : "?");
	if (sp)
		sscanf(sp, "%31[^:]", alias);
	tap_ok(out >= 0 && out == fdt_alias(fdt, alias) && out != serial0 &&
	       !fdt_prop_has_string(fdt, out, "compatible", "arm,pl011"),
	       "rpi3: fdt_stdout follows stdout-path \"%s\" to alias %s, %s (the mini UART, "
	       "not the PL011 the kernel drives)", sp ? sp : "?", alias,
	       out >= 0 ? fdt_name(fdt, out) : "?");
	tap_eq_u64(kreg(serial0, 0), BOARD_UART_BASE,
		   "rpi3: serial0 (arm,pl011) reg through /soc ranges = BOARD_UART_BASE");
	tap_eq_u64(kreg(fdt_find_compatible(fdt, "brcm,bcm2836-l1-intc"), 0),
		   BOARD_LOCAL_INTC_BASE,
		   "rpi3: brcm,bcm2836-l1-intc reg = BOARD_LOCAL_INTC_BASE");
	tap_eq_u64(kreg(fdt_find_compatible(fdt, "brcm,bcm2836-armctrl-ic"), 0),
		   BOARD_ARMCTRL_IC_BASE,
		   "rpi3: brcm,bcm2836-armctrl-ic reg = BOARD_ARMCTRL_IC_BASE");
	tap_ok(fdt_find_compatible(fdt, "arm,gic-400") < 0,
	       "rpi3: no arm,gic-400 (the Pi 3 has no GIC)");
	uint64_t addr, size;

	tap_ok(fdt_reg_cpu(fdt, fdt_path(fdt, "/cpus/cpu@1"), 0, &addr, &size) != 0,
	       "rpi3: /cpus/cpu@1 reg (an MPIDR, /cpus has no ranges) is not a CPU address");
}

int main(int argc, char **argv)
{
	size_t size = 0;

	if (!rpi_dtb_load("bcm2837-rpi-3-b.dtb", &size) || fdt_check(fdt, size)) {
		printf("not ok 1 - Debian's bcm2837-rpi-3-b.dtb under build/debs (tools/fetch-pi)\n");
		return 1;
	}
	check_all("rpi3");
	check_rpi3();
	free((void *)fdt);
	if (!rpi_dtb_load("bcm2711-rpi-4-b.dtb", &size) || fdt_check(fdt, size)) {
		printf("not ok 99 - Debian's bcm2711-rpi-4-b.dtb under build/debs\n");
		return 1;
	}
	check_all("rpi4");
	/* The Pi 4's GIC-400, reached through /soc's ARM-local range (its
	 * values against board/rpi4/board.h: test_rpi4_dtb); the two reg
	 * entries gicv2.c takes: */
	int gic = fdt_find_compatible(fdt, "arm,gic-400");

	tap_ok(gic >= 0 && kreg(gic, 0) != ~0ULL && kreg(gic, 1) == kreg(gic, 0) + 0x1000,
	       "rpi4: arm,gic-400 distributor %#llx, CPU interface %#llx (+0x1000)",
	       (unsigned long long)kreg(gic, 0), (unsigned long long)kreg(gic, 1));
	free((void *)fdt);
	if (argc > 1 && (fdt = load(argv[1], &size)) && fdt_check(fdt, size) == 0) {
		int g = fdt_find_compatible(fdt, "arm,cortex-a15-gic");

		check_all("virt");
		tap_ok(g >= 0 && fdt_stdout(fdt) >= 0 &&
		       fdt_prop_has_string(fdt, fdt_stdout(fdt), "compatible", "arm,pl011"),
		       "virt: a GICv2 node and a PL011 stdout-path");
	}
	free((void *)fdt);
	return tap_done();
}
