/* examples/firmware/include/fw/crc.h: CRC-16/CCITT-FALSE. */
#ifndef FW_CRC_H
#define FW_CRC_H

#include <stdint.h>

uint16_t crc16_update(uint16_t crc, uint8_t b);

#endif
