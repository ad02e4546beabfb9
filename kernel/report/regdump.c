/* kernel/report/regdump.c: see regdump.h. Built without patch sites: it runs
 * in crash reports. */
#include <stdbool.h>
#include <stdint.h>

#include "hooks.h"
#include "kprintf.h"
#include "regdump.h"
#include "symbols.h"

static uint64_t (*ret_translate)(uint64_t ret, unsigned int *hooked);
static bool (*unwind_head)(const struct exc_frame *f, uintptr_t *func, uintptr_t *ret,
			   uintptr_t *fp);

void regdump_set_translate(uint64_t (*translate)(uint64_t ret, unsigned int *hooked))
{
	ret_translate = translate;
}

void regdump_set_unwind_head(bool (*head)(const struct exc_frame *f, uintptr_t *func,
					  uintptr_t *ret, uintptr_t *fp))
{
	unwind_head = head;
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
	/* Frame records live on a stack, 16-byte aligned, and move up; but
	 * the trace core's trampoline (trace/core/entry.S) links its record
	 * {&A, func + 8} just above record A {caller's fp, return address},
	 * so the walk may step down once by 16 there. A chain that loops is
	 * still cut at BACKTRACE_MAX entries. */
	return fp && !(fp & 15) && (fp > prev ? fp - prev < (1 << 20) : fp == prev - 16);
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

static uint64_t translate(uint64_t ret, unsigned int *hooked)
{
	return ret_translate ? ret_translate(ret, hooked) : ret;
}

/*
 * The calls the frame records from x29 do not show yet: code interrupted
 * before its function stored {x29, x30}. A function's first instruction
 * has not run (every function here opens with its frame record, built
 * -fno-omit-frame-pointer), so the return address is still in x30; and
 * code that a patch site called before the traced function's prologue
 * (a recorder, a trampoline), or that a traced function returned to
 * through the graph tracer's return trampoline, is known to the trace
 * core, which names the traced function, where its return address is,
 * and where the frame records go on (*fp, x29 unless it says otherwise).
 */
static unsigned int walk_head(const struct exc_frame *f, uintptr_t *out, unsigned int n,
			      unsigned int *hooked, uintptr_t *fp)
{
	uintptr_t func = 0, ret = 0, off = 1;

	if (!(unwind_head && unwind_head(f, &func, &ret, fp)) &&
	    !(sym_lookup(f->elr, &off, NULL) && off == 0))
		return n;
	if (!func && !ret)
		ret = f->x[30];		/* at a function's first instruction */
	if (func)
		n = put(out, n, func + 4);	/* its patch site's BL */
	if (ret && (ret = translate(ret, hooked)))
		n = put(out, n, ret - 4);
	return n;
}

unsigned int regdump_walk(const struct exc_frame *f, uintptr_t *out)
{
	unsigned int hooked = 0;	/* return addresses the graph tracer hooked */
	unsigned int n = put(out, 0, f->elr);
	uintptr_t fp = f->x[29];

	n = walk_head(f, out, n, &hooked, &fp);
	for (uintptr_t prev = fp - 1; n < BACKTRACE_MAX && fp_plausible(fp, prev);) {
		const uint64_t *rec = (const uint64_t *)fp;
		uintptr_t ret = translate(rec[1], &hooked);

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
