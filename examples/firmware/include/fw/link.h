/* examples/firmware/include/fw/link.h: a serial link driver's interface. */
#ifndef FW_LINK_H
#define FW_LINK_H

#include <stddef.h>
#include <stdint.h>

struct link_ops {
	int (*open)(unsigned int port, unsigned int flags);
	size_t (*send)(unsigned int port, const uint8_t *buf, size_t len);
};

/* A loopback link: what is sent comes back in the order sent. */
extern const struct link_ops loopback_link;
size_t loopback_receive(uint8_t *buf, size_t max);

#endif
