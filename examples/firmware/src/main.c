/*
 * examples/firmware/src/main.c: sends a message over the loopback link
 * in pieces no larger than the ring, checks what comes back, and prints
 * its CRC-16.
 *
 *   make APP=examples/firmware run
 */
#include <stdio.h>
#include <string.h>

#include "fw/crc.h"
#include "fw/link.h"

static const char message[] = "baretrace: bring your own code";

int main(void)
{
	const struct link_ops *link = &loopback_link;
	const uint8_t *p = (const uint8_t *)message;
	size_t left = strlen(message), pieces = 0, back = 0;
	uint16_t crc = 0xFFFF;
	uint8_t buf[RING_SLOTS];

	link->open(0, 0);
	while (left) {
		size_t sent = link->send(0, p, left);
		size_t got = loopback_receive(buf, sizeof buf);

		for (size_t i = 0; i < got; i++) {
			if (buf[i] != p[i]) {
				printf("firmware: byte %lu came back as 0x%02x\n", (unsigned long)(back + i), buf[i]);
				return 1;
			}
			crc = crc16_update(crc, buf[i]);
		}
		p += sent;
		left -= sent;
		back += got;
		pieces++;
	}
	printf("firmware %s: %lu bytes in %lu pieces through a ring of %d slots, crc16 0x%04x\n",
	       FW_VERSION, (unsigned long)back, (unsigned long)pieces, RING_SLOTS, crc);
	return 0;
}
