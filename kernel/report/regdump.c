/* kernel/report/regdump.c: see regdump.h. Built without patch sites: it runs
 * in crash reports. */
#include <stdbool.h>
#include <stdint.h>

#include "kprintf.h"
#include "regdump.h"
#include "symbols.h"

static uint64_t (*ret_translate)(uint64_t ret, unsigned int *hooked);

void regdump_set_translate(uint64_t (*translate)(uint64_t ret, unsigned int *hooked))
{
	ret_translate = translate;
}

void regdump_sym(const char *label, uintptr_t addr)
{
	uintptr_t off, size;
	const char *name = sym_lookup(addr, &off, &size);

	if (name)
		kprintf("%s%016lx  %s+0x%lx/0x%lx\n", label, (unsigned long)addr,
			name, (unsigned long)off, (unsigned long)size);
	else
		kprintf("%s%016lx  ?\n", label, (unsigned long)addr);
}

void regdump_regs(const struct exc_frame *f)
{
	regdump_sym("ELR ", f->elr);
	regdump_sym("LR  ", f->x[30]);
	for (int i = 0; i < 30; i += 3)
		kprintf("x%-2d %016lx  x%-2d %016lx  x%-2d %016lx\n", i,
			(unsigned long)f->x[i], i + 1, (unsigned long)f->x[i + 1],
			i + 2, (unsigned long)f->x[i + 2]);
	kprintf("x30 %016lx  sp  %016lx\n", (unsigned long)f->x[30],
		(unsigned long)f->sp);
}

static bool fp_plausible(uintptr_t fp, uintptr_t prev)
{
	/* Frame records live on a stack, 16-byte aligned, and move up. */
	return fp && !(fp & 15) && fp > prev && fp - prev < (1 << 20);
}

static void print_entry(unsigned int n, uintptr_t pc)
{
	char label[16];

	ksnprintf(label, sizeof(label), "  #%-2u ", n);
	regdump_sym(label, pc);
}

static unsigned int put(uintptr_t *out, unsigned int n, uintptr_t pc)
{
	if (out)
		out[n] = pc;
	else
		print_entry(n, pc);
	return n + 1;
}

unsigned int regdump_walk(uintptr_t pc, uintptr_t fp, uintptr_t *out)
{
	unsigned int hooked = 0;	/* return addresses the graph tracer hooked */
	unsigned int n = put(out, 0, pc);

	for (uintptr_t prev = fp - 1; n < BACKTRACE_MAX && fp_plausible(fp, prev);) {
		const uint64_t *rec = (const uint64_t *)fp;
		uintptr_t ret = ret_translate ? ret_translate(rec[1], &hooked) : rec[1];

		if (!ret)
			break;
		n = put(out, n, ret - 4);	/* the call, not the return point */
		prev = fp;
		fp = rec[0];
	}
	return n;
}

void regdump_backtrace_print(const uintptr_t *pcs, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		print_entry(i, pcs[i]);
}
