/*
 * examples/mbedtls/main.c: runs mbed TLS's self-test program
 * (programs/test/selftest.c, built unchanged through selftest_main.c) as
 * a baretrace app. Its argv is "selftest" followed by the boot arguments
 * after '--', so those are selftest's own options and test names
 * ("-x rsa ecp" runs every test but rsa and ecp; "aes sha256" only those).
 *
 * selftest ends with exit(): its status (0 when every test passed)
 * becomes the run's exit status. An atexit() handler registered first
 * prints how long the tests took on the generic counter.
 */
#include <stdio.h>
#include <stdlib.h>

#include <baretrace.h>

#define MBEDTLS_ARGS_MAX 32

int mbedtls_selftest_main(int argc, char *argv[]);

static uint64_t app_t0;

static void app_report_time(void)
{
	uint64_t ticks = time_counter() - app_t0;
	uint64_t hz = time_counter_hz();

	printf("mbedtls: self-test took %llu counter ticks (%llu us at %llu Hz)\n",
	       (unsigned long long)ticks,
	       (unsigned long long)(ticks * 1000000 / hz), (unsigned long long)hz);
}

int main(int argc, char **argv)
{
	static char *args[MBEDTLS_ARGS_MAX + 2];
	int i;

	if (argc > MBEDTLS_ARGS_MAX) {
		printf("mbedtls: error: more than %d arguments\n", MBEDTLS_ARGS_MAX);
		return 2;
	}
	args[0] = "selftest";
	for (i = 0; i < argc; i++)
		args[i + 1] = argv[i];
	args[argc + 1] = NULL;
	if (atexit(app_report_time) != 0) {
		printf("mbedtls: error: atexit failed\n");
		return 2;
	}
	app_t0 = time_counter();
	return mbedtls_selftest_main(argc + 1, args);
}
