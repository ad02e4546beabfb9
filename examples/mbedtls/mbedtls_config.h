/*
 * examples/mbedtls/mbedtls_config.h: changes to mbed TLS's default
 * configuration (include/mbedtls/config.h, which includes this file as
 * MBEDTLS_USER_CONFIG_FILE before its consistency checks) for bare metal.
 *
 * Off, because baretrace has no such service: sockets (NET_C), files
 * (FS_IO and PSA's file-backed key storage), time of day (HAVE_TIME,
 * HAVE_TIME_DATE), the OS timers (TIMING_C: its self-test goes with it)
 * and the OS's entropy source (/dev/urandom, getrandom).
 * On, as Debian's build turns them on (debian/rules), or because they
 * bring a self-test: MD2, MD4, CMAC, ARIA, NIST key wrap, EC J-PAKE.
 * Not on: MEMORY_BUFFER_ALLOC_C (selftest.c then puts a 1 MB buffer on
 * main()'s stack, 16 KiB here), THREADING_C (pthreads) and HAVEGE_C
 * (needs TIMING_C).
 */
#ifndef EXAMPLES_MBEDTLS_CONFIG_H
#define EXAMPLES_MBEDTLS_CONFIG_H

#undef MBEDTLS_NET_C
#undef MBEDTLS_FS_IO
#undef MBEDTLS_PSA_ITS_FILE_C
#undef MBEDTLS_PSA_CRYPTO_STORAGE_C
#undef MBEDTLS_HAVE_TIME
#undef MBEDTLS_HAVE_TIME_DATE
#undef MBEDTLS_TIMING_C

/* Entropy: port.c's mbedtls_hardware_poll(), not the OS. */
#define MBEDTLS_NO_PLATFORM_ENTROPY
#define MBEDTLS_ENTROPY_HARDWARE_ALT

#define MBEDTLS_MD2_C
#define MBEDTLS_MD4_C
#define MBEDTLS_CMAC_C
#define MBEDTLS_ARIA_C
#define MBEDTLS_NIST_KW_C
#define MBEDTLS_ECJPAKE_C

#endif
