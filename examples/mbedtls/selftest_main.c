/*
 * examples/mbedtls/selftest_main.c: mbed TLS's own self-test program,
 * programs/test/selftest.c of its source tree, compiled as it is. Only
 * its main() is renamed, so examples/mbedtls/main.c can call it with an
 * argv of its own: the tests, their order and their verdicts are mbed
 * TLS's.
 */
#define main mbedtls_selftest_main
#include "programs/test/selftest.c"
