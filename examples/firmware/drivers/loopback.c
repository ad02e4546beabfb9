/* examples/firmware/drivers/loopback.c: a link whose bytes come back
 * through a ring. The interface passes a port and flags this driver has
 * no use for (built with -Wno-unused-parameter, app.mk). */
#include "fw/link.h"
#include "fw/ring.h"

static struct ring loop;

static int loopback_open(unsigned int port, unsigned int flags)
{
	loop.head = loop.tail = 0;
	return 0;
}

static size_t loopback_send(unsigned int port, const uint8_t *buf, size_t len)
{
	size_t n = 0;

	while (n < len && ring_put(&loop, buf[n]))
		n++;
	return n;
}

size_t loopback_receive(uint8_t *buf, size_t max)
{
	size_t n = 0;

	while (n < max && ring_get(&loop, &buf[n]))
		n++;
	return n;
}

const struct link_ops loopback_link = {
	.open = loopback_open,
	.send = loopback_send,
};
