/*
 * test/apps/typed/main.c: functions whose arguments and return values
 * the host shows by name and type (test/typed_args.py, docs/host-tool.md
 * "Arguments by name and type"). Every argument comes from the seed
 * given after '--' (3 without one), by formulas the test repeats, and
 * each result is printed, so the test checks the host tool's typed
 * values against both.
 *
 * Traced with trace_args=ty_*:8:s01, so the strings x0 and x1 point to
 * are recorded for every call: a char * shows its string (cut at 32
 * bytes), NULL stays NULL, a pointer outside RAM is never read.
 *
 * noipa keeps each a real call with its declared parameters: GCC may
 * not clone it (".constprop.0") or pass its arguments another way.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TY __attribute__((noipa))

enum ty_err { TY_OK = 0, TY_EBUSY = -16, TY_EINVAL = -22 };
enum ty_mode { TY_MODE_OFF, TY_MODE_SLOW, TY_MODE_FAST = 7 };

struct ty_point { int x, y; };		/* 8 bytes: one register */
struct ty_big { long a, b, c; };	/* 24 bytes: copied, passed by address */

static uint8_t sensor_buf[64];

TY enum ty_err ty_sensor_read(uint8_t id, void *buf, uint16_t len)
{
	if (len > sizeof(sensor_buf) / 2)
		return TY_EINVAL;
	memset(buf, id, len);
	return TY_OK;
}

TY int8_t ty_narrow(int8_t s8, uint8_t u8, int16_t s16, uint16_t u16, int32_t s32, uint32_t u32,
		    int64_t s64, uint64_t u64)
{
	return (int8_t)(s8 + u8 + s16 + u16 + s32 + (int32_t)u32 + (int8_t)s64 + (int8_t)u64);
}

TY bool ty_check(bool on, enum ty_mode mode, char c)
{
	return on && mode == TY_MODE_FAST && c != 0;
}

TY enum ty_mode ty_mode_of(int k)
{
	return (enum ty_mode)k;
}

TY size_t ty_name_len(const char *name)
{
	return strlen(name);
}

TY size_t ty_greet(const char *who, const char *where)
{
	return strlen(who) + (where ? strlen(where) : 0);
}

TY int ty_peek(const char *p)	/* never reads p: the tracer must not either */
{
	return p != NULL;
}

TY long ty_point_sum(struct ty_point p, struct ty_big big, int k)
{
	return (p.x + p.y) * k + big.a + big.b + big.c;
}

TY double ty_scale(double f, int k)
{
	return f * k;
}

TY void ty_void(int x)
{
	__asm__ volatile("" :: "r"(x));
}

TY unsigned short ty_u16_ret(int x)
{
	return (unsigned short)(x * 1000);
}

TY int ty_many(int a, int b, int c, int d, int e, int f, int g, int h, int i, int j)
{
	return a + b + c + d + e + f + g + h + i + j;
}

int main(int argc, char **argv)
{
	int seed = argc > 0 ? atoi(argv[0]) : 3;
	struct ty_point p = { seed, -seed * 2 };
	struct ty_big big = { 100, 200, 300 + seed };
	static const char name[] = "sensor";

	printf("typed: seed %d buf %p name %p\n", seed, (void *)sensor_buf, (const void *)name);
	printf("typed: ty_sensor_read big %d\n",
	       ty_sensor_read((uint8_t)seed, sensor_buf, (uint16_t)(16 * seed + 16)));
	printf("typed: ty_sensor_read small %d\n",
	       ty_sensor_read((uint8_t)(seed + 1), sensor_buf, (uint16_t)seed));
	printf("typed: ty_narrow %d\n",
	       ty_narrow((int8_t)(-seed - 2), (uint8_t)(200 + seed), (int16_t)(-1000 * seed),
			 (uint16_t)(60000 + seed), -100000 * seed, 4000000000u + (uint32_t)seed,
			 -(INT64_C(1) << 40) * seed, (UINT64_C(1) << 63) + (uint64_t)seed));
	printf("typed: ty_check %d\n",
	       ty_check(seed & 1, seed > 2 ? TY_MODE_FAST : TY_MODE_SLOW, (char)('A' + seed)));
	printf("typed: ty_check %d\n", ty_check(false, TY_MODE_OFF, '\n'));
	printf("typed: ty_mode_of %d\n", (int)ty_mode_of(seed));
	printf("typed: ty_mode_of %d\n", (int)ty_mode_of(7));
	printf("typed: ty_name_len %u\n", (unsigned)ty_name_len(name));
	printf("typed: ty_greet %u\n", (unsigned)ty_greet("world", NULL));
	printf("typed: ty_greet %u\n",
	       (unsigned)ty_greet("0123456789abcdefghijklmnopqrstuvwxyz", name + seed));
	printf("typed: ty_peek %d\n", ty_peek((const char *)16));
	printf("typed: ty_point_sum %ld\n", ty_point_sum(p, big, seed));
	printf("typed: ty_scale %d\n", (int)ty_scale(1.5, seed));
	ty_void(seed);
	printf("typed: ty_u16_ret %u\n", (unsigned)ty_u16_ret(seed * 100));
	printf("typed: ty_many %d\n", ty_many(1, 2, 3, 4, 5, 6, 7, 8, 9, seed));
	return 0;
}
