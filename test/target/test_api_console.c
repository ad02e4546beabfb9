/* test/target/test_api_console.c: include/baretrace/console.h with no
 * input (the target stage's QEMU reads /dev/null). Typed bytes are
 * tested by the 'conread' scenario (scenario_conread below), which the
 * target stage feeds through QEMU's standard input. */
#include <stdint.h>
#include <stdio.h>

#include <baretrace.h>

#include "ktest.h"
#include "target.h"

KTEST(api_console_empty_reads_time_out)
{
	uint64_t hz = time_counter_hz();
	uint8_t buf[8] = { 0 };

	KT_EQ(t, bt_console_trygetc(), -1);
	KT_EQ(t, bt_console_getc_timeout(0), -1);
	uint64_t c0 = time_counter();

	KT_EQ(t, bt_console_getc_timeout(20000), -1);
	KT_EXPECT(t, (time_counter() - c0) * 1000 >= 20 * hz);	/* waited 20 ms */
	c0 = time_counter();
	KT_EQ(t, bt_console_read(buf, sizeof(buf), 5000), 0);
	KT_EXPECT(t, (time_counter() - c0) * 1000 >= 5 * hz);
	KT_EQ(t, buf[0], 0);
	KT_EQ(t, bt_console_read(buf, 0, 1000000), 0);	/* len 0: at once */
}

/* The bytes the target stage types, and what the reader must get: the
 * first Ctrl-\ of a pair is delivered, a DLE not followed by CAN too. */
static const uint8_t fed_want[] = { 'a', 'b', 0x1c, 'c', 0x10, 'x', 'd', '\n' };

int scenario_conread(void)
{
	uint8_t got[32];
	size_t n = 0;

	printf("KTAP version 1\n1..2\n");
	printf("%s 1 api_console_nothing_before_input\n",
	       bt_console_trygetc() == -1 ? "ok" : "not ok");
	printf("conread: ready\n");
	fflush(stdout);
	/* The harness types half a second after 'ready'; 20 s bounds a
	 * host that never does. */
	while (n < sizeof(fed_want)) {
		size_t r = bt_console_read(got + n, sizeof(got) - n, 20000000);

		if (!r)
			break;
		n += r;
	}
	int ok = n == sizeof(fed_want);

	for (size_t i = 0; ok && i < n; i++)
		ok = got[i] == fed_want[i];
	printf("conread: got %u bytes:", (unsigned int)n);
	for (size_t i = 0; i < n; i++)
		printf(" %02x", got[i]);
	printf("\n%s 2 api_console_reads_typed_bytes\n", ok ? "ok" : "not ok");
	return !ok;
}
