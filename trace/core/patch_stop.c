/*
 * trace/core/patch_stop.c: writing an instruction that another CPU may be
 * executing, when the architecture does not allow that concurrently.
 *
 * The Arm ARM (DDI 0487, B2.2.5, "Concurrent modification and execution
 * of instructions") promises old-or-new behaviour only when the
 * instruction before the write and the one after it are each a B, BL,
 * BRK, HVC, ISB, NOP, SMC or SVC. The function tracer's NOP <-> BL
 * qualifies; a probe's "any instruction <-> BRK" does not. So such a
 * write happens while no other CPU runs anything but this file's wait:
 *
 *   this CPU                          every other online CPU (IPI)
 *   interrupts masked                 arrives, counts itself
 *   smp_call_cpus_bounded ...         the last to arrive writes the word,
 *                                     cleans D / invalidates I to the PoU
 *                                     (broadcast), publishes 'done'
 *                                     the others wait for 'done', then ISB
 *   ISB                               return from the IPI (ERET)
 *
 * A CPU waiting here cannot be inside the old instruction (interrupts
 * come between instructions) and runs an ISB before it goes back to it.
 * A CPU with interrupts masked (inside a probe's BRK handler, say) is
 * waited for: so when the write happens no CPU is in such a handler
 * either. One that does not arrive within STOP_US makes the try fail
 * (the arrived ones see 'aborted' and go back; nothing is written), and
 * after STOP_TRIES such tries the write fails.
 * With no other CPU online the write happens here, interrupts masked.
 * Thread context; trace_lock held (one stop at a time).
 */
#include <stdint.h>

#include "barrier.h"
#include "core.h"
#include "ktime.h"
#include "percpu.h"
#include "smp.h"
#include "text_alias.h"

#define STOP_US		100000	/* every CPU arrives within this, or no write */

enum { STOP_GATHER, STOP_WRITING, STOP_DONE, STOP_ABORTED };

/* One stop at a time (trace_lock); the IPI's CPUs read it, the last to
 * arrive writes 'err', 'state' moves by compare-and-swap only. */
static struct {
	uintptr_t addr;
	uint32_t old, insn;
	unsigned int want, arrived, inside;
	int state, err;
	uint64_t deadline;	/* counter value: give up after it */
	uintptr_t gen;		/* which stop: a call taken very late finds another */
} stop;

static void stop_here(void *arg)
{
	int st = STOP_GATHER;

	if ((uintptr_t)arg != __atomic_load_n(&stop.gen, __ATOMIC_ACQUIRE))
		return;	/* an older stop's call, long over */
	__atomic_add_fetch(&stop.inside, 1, __ATOMIC_ACQ_REL);
	if (__atomic_add_fetch(&stop.arrived, 1, __ATOMIC_ACQ_REL) == stop.want &&
	    __atomic_compare_exchange_n(&stop.state, &st, STOP_WRITING, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		stop.err = text_write32((void *)stop.addr, stop.old, stop.insn);
		text_sync(stop.addr, stop.addr + 4);	/* DSB included */
		__atomic_store_n(&stop.state, STOP_DONE, __ATOMIC_RELEASE);
	}
	while ((st = __atomic_load_n(&stop.state, __ATOMIC_ACQUIRE)) < STOP_DONE) {
		if (st == STOP_GATHER && counter_read() > stop.deadline)
			__atomic_compare_exchange_n(&stop.state, &st, STOP_ABORTED, false,
						    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
		cpu_relax();
	}
	isb();	/* the new word, not a prefetched old one (the ERET also syncs) */
	__atomic_sub_fetch(&stop.inside, 1, __ATOMIC_RELEASE);
}

static int stop_once(uintptr_t addr, uint32_t old, uint32_t insn)
{
	uint64_t others = nr_cpus_online > 1 ? smp_others_mask() : 0;
	unsigned long flags = irq_save();
	int st = STOP_GATHER, err;

	if (!others) {
		err = text_write32((void *)addr, old, insn);
		text_sync(addr, addr + 4);
		irq_restore(flags);
		return err;
	}
	stop.addr = addr;
	stop.old = old;
	stop.insn = insn;
	stop.want = 0;
	for (uint64_t m = others; m; m &= m - 1)
		stop.want++;
	stop.arrived = 0;
	stop.err = 0;
	stop.deadline = counter_read() + STOP_US * time_counter_hz() / 1000000;
	__atomic_store_n(&stop.state, STOP_GATHER, __ATOMIC_RELAXED);
	__atomic_store_n(&stop.gen, stop.gen + 1, __ATOMIC_RELEASE);	/* the rest first */
	smp_call_cpus_bounded(others, stop_here, (void *)stop.gen, 2 * STOP_US);
	/* A CPU never reached (the call taken back) aborts it here; then
	 * wait until every CPU that arrived has left (the call is taken
	 * back from any that did not start it, so none starts later). */
	__atomic_compare_exchange_n(&stop.state, &st, STOP_ABORTED, false,
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	while (__atomic_load_n(&stop.inside, __ATOMIC_ACQUIRE))
		cpu_relax();
	isb();
	irq_restore(flags);
	return __atomic_load_n(&stop.state, __ATOMIC_ACQUIRE) == STOP_DONE ? stop.err : PATCH_ESTOPPED;
}

/* An emulator that runs the CPUs in turn can leave one without a turn
 * for tens of milliseconds: a stop that gathered too slowly is tried
 * again, each try bounded, nothing written by a failed one. */
#define STOP_TRIES	10

int patch_stop_write32(uintptr_t addr, uint32_t old, uint32_t insn)
{
	int err = PATCH_ESTOPPED;

	for (unsigned int t = 0; t < STOP_TRIES && err == PATCH_ESTOPPED; t++)
		err = stop_once(addr, old, insn);
	return err;
}
