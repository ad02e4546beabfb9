/*
 * examples/mbedtls/port.c: what mbed TLS asks of its platform that an
 * operating system would give it (MBEDTLS_ENTROPY_HARDWARE_ALT in
 * mbedtls_config.h).
 *
 * mbedtls_hardware_poll() is the entropy source. These boards as QEMU
 * models them have no random number generator baretrace drives, so this
 * one mixes the generic counter with a call count (splitmix64): enough
 * for the self-tests (the entropy source test checks that the bytes are
 * neither stuck nor repeated between two polls), NOT entropy. A real
 * product would read its TRNG here.
 */
#include <stddef.h>
#include <stdint.h>

#include <baretrace.h>

int mbedtls_hardware_poll(void *data, unsigned char *output, size_t len, size_t *olen);

static uint64_t port_mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

int mbedtls_hardware_poll(void *data, unsigned char *output, size_t len, size_t *olen)
{
	static uint64_t calls;
	uint64_t state = port_mix(time_counter() ^ port_mix(++calls));
	size_t i;

	(void)data;
	for (i = 0; i < len; i++) {
		if (i % 8 == 0 && i > 0)
			state = port_mix(state);
		output[i] = (unsigned char)(state >> (8 * (i % 8)));
	}
	*olen = len;
	return 0;
}
