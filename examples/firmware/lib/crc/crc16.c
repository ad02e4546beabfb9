/* examples/firmware/lib/crc/crc16.c: CRC-16/CCITT-FALSE, bit by bit
 * (polynomial 0x1021, initial value 0xFFFF, no reflection). */
#include "fw/crc.h"

uint16_t crc16_update(uint16_t crc, uint8_t b)
{
	crc ^= (uint16_t)(b << 8);
	for (int i = 0; i < 8; i++)
		crc = crc & 0x8000 ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
	return crc;
}
