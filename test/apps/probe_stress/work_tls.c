/*
 * test/apps/probe_stress/work_tls.c: mbed TLS's groups (stress.h),
 * library code nobody here wrote, built unchanged: SHA-256 of 187 bytes
 * fed in two pieces; AES-128 ECB and AES-256 CBC there and back; bignum
 * addition, multiplication, division and a modular exponentiation
 * (64-bit exponent, 128-bit modulus). Every context
 * is on the caller's stack (the bignums' limbs on the heap), so CPUs may
 * run them together.
 */
#include <stdint.h>
#include <string.h>

#include "mbedtls/aes.h"
#include "mbedtls/bignum.h"
#include "mbedtls/sha256.h"

#include "stress.h"

static uint64_t mix_bytes(uint64_t h, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h;
}

static void fill(uint8_t *p, size_t n, unsigned int k)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)(i * k + 3);
}

static uint64_t sha256_slice(void)
{
	mbedtls_sha256_context ctx;
	uint8_t data[187], out[32], out224[32];
	int err;

	fill(data, sizeof(data), 7);
	mbedtls_sha256_init(&ctx);
	err = mbedtls_sha256_starts_ret(&ctx, 0);
	err |= mbedtls_sha256_update_ret(&ctx, data, 37);
	err |= mbedtls_sha256_update_ret(&ctx, data + 37, sizeof(data) - 37);
	err |= mbedtls_sha256_finish_ret(&ctx, out);
	mbedtls_sha256_free(&ctx);
	err |= mbedtls_sha256_ret(data, 3, out224, 1);	/* SHA-224 */
	return mix_bytes(mix_bytes((uint64_t)err, out, sizeof(out)), out224, 28);
}

static uint64_t aes_slice(void)
{
	mbedtls_aes_context enc, dec;
	uint8_t key[32], iv[16], iv2[16], plain[64], cipher[64], back[64];
	int err;

	fill(key, sizeof(key), 13);
	fill(plain, sizeof(plain), 5);
	mbedtls_aes_init(&enc);
	mbedtls_aes_init(&dec);
	err = mbedtls_aes_setkey_enc(&enc, key, 128);
	err |= mbedtls_aes_crypt_ecb(&enc, MBEDTLS_AES_ENCRYPT, plain, cipher);
	uint64_t h = mix_bytes(0, cipher, 16);

	err |= mbedtls_aes_setkey_enc(&enc, key, 256);
	err |= mbedtls_aes_setkey_dec(&dec, key, 256);
	fill(iv, sizeof(iv), 3);
	memcpy(iv2, iv, sizeof(iv));
	err |= mbedtls_aes_crypt_cbc(&enc, MBEDTLS_AES_ENCRYPT, sizeof(plain), iv, plain, cipher);
	err |= mbedtls_aes_crypt_cbc(&dec, MBEDTLS_AES_DECRYPT, sizeof(plain), iv2, cipher, back);
	mbedtls_aes_free(&enc);
	mbedtls_aes_free(&dec);
	h = mix_bytes(h, cipher, sizeof(cipher));
	return mix_bytes(h ^ (uint64_t)err, back, sizeof(back)) ^
	       (uint64_t)(memcmp(plain, back, sizeof(back)) != 0);
}

static uint64_t mpi_slice(void)
{
	mbedtls_mpi a, b, n, e, x, q, r;
	uint8_t buf[64];
	uint64_t h = 0;
	int err;

	mbedtls_mpi_init(&a), mbedtls_mpi_init(&b), mbedtls_mpi_init(&n);
	mbedtls_mpi_init(&e), mbedtls_mpi_init(&x), mbedtls_mpi_init(&q);
	mbedtls_mpi_init(&r);
	fill(buf, 32, 11);
	err = mbedtls_mpi_read_binary(&a, buf, 32);	/* 256 bits */
	fill(buf, 24, 29);
	err |= mbedtls_mpi_read_binary(&b, buf, 24);	/* 192 bits */
	fill(buf, 16, 37);
	buf[15] |= 1;					/* odd: a Montgomery modulus */
	err |= mbedtls_mpi_read_binary(&n, buf, 16);
	fill(buf, 8, 41);
	err |= mbedtls_mpi_read_binary(&e, buf, 8);	/* 64 bits */
	err |= mbedtls_mpi_add_mpi(&x, &a, &b);
	err |= mbedtls_mpi_write_binary(&x, buf, 40);
	h = mix_bytes(h, buf, 40);
	err |= mbedtls_mpi_mul_mpi(&x, &a, &b);
	err |= mbedtls_mpi_write_binary(&x, buf, 56);
	h = mix_bytes(h, buf, 56);
	err |= mbedtls_mpi_div_mpi(&q, &r, &x, &n);
	err |= mbedtls_mpi_write_binary(&q, buf, 48);
	h = mix_bytes(h, buf, 48);
	err |= mbedtls_mpi_write_binary(&r, buf, 16);
	h = mix_bytes(h, buf, 16);
	err |= mbedtls_mpi_exp_mod(&x, &a, &e, &n, NULL);
	err |= mbedtls_mpi_write_binary(&x, buf, 16);
	h = mix_bytes(h, buf, 16);
	mbedtls_mpi_free(&a), mbedtls_mpi_free(&b), mbedtls_mpi_free(&n);
	mbedtls_mpi_free(&e), mbedtls_mpi_free(&x), mbedtls_mpi_free(&q);
	mbedtls_mpi_free(&r);
	return h ^ (uint64_t)err;
}

static const char *const sha256_funcs[] = {
	"mbedtls_sha256_starts_ret", "mbedtls_sha256_update_ret", "mbedtls_sha256_finish_ret",
	"mbedtls_internal_sha256_process", "mbedtls_sha256_ret", NULL,
};
static const char *const aes_funcs[] = {
	"mbedtls_aes_setkey_enc", "mbedtls_aes_setkey_dec", "mbedtls_aes_crypt_ecb",
	"mbedtls_aes_crypt_cbc", "mbedtls_internal_aes_encrypt", "mbedtls_internal_aes_decrypt",
	NULL,
};
static const char *const mpi_funcs[] = {
	"mbedtls_mpi_mul_mpi", "mpi_mul_hlp", "mbedtls_mpi_div_mpi", "mbedtls_mpi_add_abs",
	"mbedtls_mpi_sub_abs", "mbedtls_mpi_shift_l", "mbedtls_mpi_cmp_abs", "mpi_montmul",
	"mbedtls_mpi_exp_mod", "mbedtls_mpi_grow", NULL,
};

const struct stress_group stress_sha256 = {
	.name = "sha256", .slice = sha256_slice, .funcs = sha256_funcs,
};
const struct stress_group stress_aes = {
	.name = "aes", .slice = aes_slice, .funcs = aes_funcs,
};
const struct stress_group stress_mpi = {
	.name = "mpi", .slice = mpi_slice, .funcs = mpi_funcs,
};
