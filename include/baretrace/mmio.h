/*
 * include/baretrace/mmio.h: device register accessors (part of
 * baretrace.h; include that). "any context".
 *
 * Use them on addresses bt_dev_map() returned (Device-nGnRE memory,
 * include/baretrace/device.h). Each is one load or store of exactly that
 * width with a plain base register (no writeback addressing, so a
 * hypervisor can emulate it from the syndrome) and is never merged,
 * split or dropped by the compiler. The address must be aligned to the
 * width: an unaligned Device access faults.
 *
 * Ordering, from the Arm ARM's rules for Device memory (ARM DDI 0487,
 * chapter B2, the AArch64 memory model: "Device memory" and its
 * Gathering, Reordering and Early write acknowledgement attributes):
 *  - nR (non-Reordering): accesses by one CPU to the same peripheral
 *    reach it in program order. So relaxed accessors to one device are
 *    already ordered among themselves.
 *  - Nothing orders a Device access against Normal memory (RAM): a DMA
 *    descriptor written to RAM may reach memory after the doorbell write
 *    that tells the device to read it, and a load from a DMA buffer may
 *    be performed before the status read that says the buffer is full.
 *  - E (Early write acknowledgement): a store may complete before the
 *    device has seen it; a later read of the same device returns only
 *    after it (nR), so read back a register to be sure a write arrived
 *    (say, before relying on an interrupt being acknowledged).
 *
 * So the ordered accessors add:
 *  bt_writeN: DMB OSHST before the store. Every earlier store (to RAM or
 *     a device) is observed before this store, for all observers in the
 *     Outer Shareable domain, which includes DMA masters.
 *  bt_readN:  DMB OSHLD after the load. Every later load and store waits
 *     for this load to complete, so data read from a DMA buffer after a
 *     status read is at least as new as that status.
 * The _relaxed forms have no barrier: for a run of accesses to one device
 * with no RAM data involved (polling a status register, programming
 * several registers), or with your own bt_mb()/bt_wmb()/bt_rmb().
 * Neither form waits for a write to take effect at the device (see E).
 */
#ifndef BARETRACE_MMIO_H
#define BARETRACE_MMIO_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Full barriers between memory and device accesses, outer shareable. */
#define bt_mb()		__asm__ volatile("dmb osh" ::: "memory")
#define bt_wmb()	__asm__ volatile("dmb oshst" ::: "memory")
#define bt_rmb()	__asm__ volatile("dmb oshld" ::: "memory")

#define BT_MMIO_ACCESSORS(bits, type, ld, st, reg)			\
static inline type bt_read##bits##_relaxed(const volatile void *addr)	\
{									\
	type v;								\
	__asm__ volatile(ld " %" reg "0, [%1]"				\
			 : "=r"(v) : "r"(addr) : "memory");		\
	return v;							\
}									\
static inline void bt_write##bits##_relaxed(type v, volatile void *addr) \
{									\
	__asm__ volatile(st " %" reg "0, [%1]"				\
			 :: "rZ"(v), "r"(addr) : "memory");		\
}									\
static inline type bt_read##bits(const volatile void *addr)		\
{									\
	type v = bt_read##bits##_relaxed(addr);				\
	bt_rmb();							\
	return v;							\
}									\
static inline void bt_write##bits(type v, volatile void *addr)		\
{									\
	bt_wmb();							\
	bt_write##bits##_relaxed(v, addr);				\
}

BT_MMIO_ACCESSORS(8, uint8_t, "ldrb", "strb", "w")
BT_MMIO_ACCESSORS(16, uint16_t, "ldrh", "strh", "w")
BT_MMIO_ACCESSORS(32, uint32_t, "ldr", "str", "w")
BT_MMIO_ACCESSORS(64, uint64_t, "ldr", "str", "x")

#undef BT_MMIO_ACCESSORS

#ifdef __cplusplus
}
#endif

#endif /* BARETRACE_MMIO_H */
