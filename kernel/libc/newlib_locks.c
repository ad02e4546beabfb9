/*
 * kernel/libc/newlib_locks.c: newlib's retargetable locks as SMP locks.
 *
 * newlib (built with --enable-newlib-retargetable-locking) calls these
 * around stdio, malloc, atexit and the environment. All locks are
 * recursive spinlocks: the owner is a CPU id, and only the owner changes
 * 'depth'. Thread context only; interrupt handlers never call newlib.
 */
#include <stdint.h>
#include <sys/lock.h>

#include "exception.h"
#include "percpu.h"
#include "spinlock.h"

struct __lock {
	struct spinlock lock;
	int owner;		/* CPU id + 1, 0 when free; written by the owner */
	unsigned int depth;	/* recursion depth; only the owner touches it */
};

#define LOCK_INIT { SPINLOCK_INIT, 0, 0 }

struct __lock __lock___sinit_recursive_mutex = LOCK_INIT;
struct __lock __lock___sfp_recursive_mutex = LOCK_INIT;
struct __lock __lock___atexit_recursive_mutex = LOCK_INIT;
struct __lock __lock___at_quick_exit_mutex = LOCK_INIT;
struct __lock __lock___malloc_recursive_mutex = LOCK_INIT;
struct __lock __lock___env_recursive_mutex = LOCK_INIT;
struct __lock __lock___tz_mutex = LOCK_INIT;
struct __lock __lock___dd_hash_mutex = LOCK_INIT;
struct __lock __lock___arc4random_mutex = LOCK_INIT;

/* Locks made at run time (one per FILE). Never freed: the pool only
 * grows, and a closed FILE's lock is simply not reused. */
#define LOCK_POOL 32
static struct __lock lock_pool[LOCK_POOL];
static unsigned int lock_pool_used;

void __retarget_lock_init(_LOCK_T *lock)
{
	unsigned int i = __atomic_fetch_add(&lock_pool_used, 1, __ATOMIC_RELAXED);

	if (i >= LOCK_POOL)
		panic("newlib lock pool exhausted (%u locks)", LOCK_POOL);
	*lock = &lock_pool[i];
}

void __retarget_lock_init_recursive(_LOCK_T *lock)
{
	__retarget_lock_init(lock);
}

void __retarget_lock_close(_LOCK_T lock)
{
	(void)lock;
}

void __retarget_lock_close_recursive(_LOCK_T lock)
{
	(void)lock;
}

static int me(void)
{
	return (int)this_cpu()->cpu + 1;
}

void __retarget_lock_acquire_recursive(_LOCK_T l)
{
	if (l->owner != me()) {
		spin_lock(&l->lock);
		l->owner = me();
	}
	l->depth++;
}

int __retarget_lock_try_acquire_recursive(_LOCK_T l)
{
	if (l->owner != me()) {
		if (!spin_trylock(&l->lock))
			return 0;
		l->owner = me();
	}
	l->depth++;
	return 1;
}

void __retarget_lock_release_recursive(_LOCK_T l)
{
	if (--l->depth == 0) {
		l->owner = 0;
		spin_unlock(&l->lock);
	}
}

void __retarget_lock_acquire(_LOCK_T l)
{
	__retarget_lock_acquire_recursive(l);
}

int __retarget_lock_try_acquire(_LOCK_T l)
{
	return __retarget_lock_try_acquire_recursive(l);
}

void __retarget_lock_release(_LOCK_T l)
{
	__retarget_lock_release_recursive(l);
}
