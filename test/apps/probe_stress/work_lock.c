/*
 * test/apps/probe_stress/work_lock.c: the locks' group (stress.h): the
 * application's spinlock (bt_spin_lock: the kernel's ticket lock) and
 * newlib's recursive lock (kernel/libc/newlib_locks.c), each with a
 * load-exclusive/store-exclusive loop. Each run takes each lock
 * LOCK_ROUNDS times and adds 1 to that lock's own shared counter under
 * it, without an atomic: run on every CPU at once, a lock that let two
 * in would lose an increment, and its counter would not be
 * runs * LOCK_ROUNDS.
 */
#include <stdint.h>
#include <sys/lock.h>

#include <baretrace.h>
#include <baretrace/lock.h>

#include "stress.h"

#define LOCK_ROUNDS 32

static bt_spinlock spin = BT_SPINLOCK_INIT;
static _LOCK_T newlib_lock;
static volatile uint64_t shared[2];	/* [0] under spin, [1] under newlib_lock */

static void lock_setup(void)
{
	if (!newlib_lock)
		__retarget_lock_init_recursive(&newlib_lock);
}

static uint64_t lock_slice(void)
{
	uint64_t h = 0;

	for (unsigned int i = 0; i < LOCK_ROUNDS; i++) {
		bt_spin_lock(&spin);
		shared[0] = shared[0] + 1;
		bt_spin_unlock(&spin);
		__retarget_lock_acquire_recursive(newlib_lock);
		__retarget_lock_acquire_recursive(newlib_lock);	/* the owner again */
		shared[1] = shared[1] + 1;
		__retarget_lock_release_recursive(newlib_lock);
		__retarget_lock_release_recursive(newlib_lock);
		h = h * 31 + i;
	}
	return h;
}

static const char *const lock_funcs[] = {
	"bt_spin_lock", "bt_spin_unlock", "__retarget_lock_acquire_recursive",
	"__retarget_lock_release_recursive", NULL,
};

const struct stress_group stress_lock = {
	.name = "lock", .slice = lock_slice, .setup = lock_setup,
	.shared = shared, .nshared = 2, .shared_per_run = LOCK_ROUNDS, .funcs = lock_funcs,
};
