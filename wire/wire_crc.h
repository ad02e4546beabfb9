/*
 * wire/wire_crc.h: the CRC-32 steps the writers share inside wire/
 * (wire.c's wire_crc32, wire_escape.c's one-pass frame; wire.md 2: IEEE
 * 802.3, reflected, polynomial 0xEDB88320). Every step takes and returns
 * the running CRC inverted, as the register holds it between bytes.
 * Freestanding.
 */
#ifndef WIRE_CRC_H
#define WIRE_CRC_H

#include <stdint.h>

/* The CRC of each byte value (wire.c). */
extern const uint32_t wire_crc_table[256];

static inline uint32_t wire_crc_byte_table(uint32_t crc, uint8_t b)
{
	return (crc >> 8) ^ wire_crc_table[(crc ^ b) & 0xff];
}

/* Eight bytes held little-endian in w (byte 0 the low one, the first
 * the reflected CRC takes). */
static inline uint32_t wire_crc_word_table(uint32_t crc, uint64_t w)
{
	crc ^= (uint32_t)w;
	for (int i = 0; i < 4; i++)
		crc = (crc >> 8) ^ wire_crc_table[crc & 0xff];
	crc ^= (uint32_t)(w >> 32);
	for (int i = 0; i < 4; i++)
		crc = (crc >> 8) ^ wire_crc_table[crc & 0xff];
	return crc;
}

/*
 * On the target (arm64, freestanding) the CRC32 instructions, which take
 * this polynomial reflected as the table does, do eight bytes an
 * instruction. The build says -march=armv8-a, where they are optional,
 * so the assembler is told about them here and wire_crc_insn_present()
 * reads ID_AA64ISAR0_EL1.CRC32 (bits 19:16) once; every core a board
 * here names (Cortex-A53, A72, QEMU's max) has them. The host keeps the
 * table.
 */
#if defined(__aarch64__) && __STDC_HOSTED__ == 0 && \
	__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WIRE_CRC_INSN 1

/* 0 not yet known, 1 present, -1 absent: wire_crc_insn_probe (wire.c)
 * reads ID_AA64ISAR0_EL1 on the first call; first callers that race
 * store the same value. */
extern int wire_crc_insn;
int wire_crc_insn_probe(void);

static inline int wire_crc_insn_present(void)
{
	int known = __atomic_load_n(&wire_crc_insn, __ATOMIC_RELAXED);

	return __builtin_expect(known != 0, 1) ? known > 0 : wire_crc_insn_probe();
}

static inline uint32_t wire_crc_word_insn(uint32_t crc, uint64_t w)
{
	__asm__(".arch_extension crc\n\tcrc32x %w0, %w0, %x1" : "+r"(crc) : "r"(w));
	return crc;
}

static inline uint32_t wire_crc_u32_insn(uint32_t crc, uint32_t w)
{
	__asm__(".arch_extension crc\n\tcrc32w %w0, %w0, %w1" : "+r"(crc) : "r"(w));
	return crc;
}

static inline uint32_t wire_crc_u16_insn(uint32_t crc, uint16_t h)
{
	__asm__(".arch_extension crc\n\tcrc32h %w0, %w0, %w1" : "+r"(crc) : "r"((uint32_t)h));
	return crc;
}

static inline uint32_t wire_crc_byte_insn(uint32_t crc, uint8_t b)
{
	__asm__(".arch_extension crc\n\tcrc32b %w0, %w0, %w1" : "+r"(crc) : "r"((uint32_t)b));
	return crc;
}
#endif

#endif /* WIRE_CRC_H */
