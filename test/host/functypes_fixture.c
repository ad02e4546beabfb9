/*
 * test/host/functypes_fixture.c: functions whose DWARF test_functypes.c
 * reads: built for aarch64 with -g by that test (never run), so the
 * types and the registers they take are GCC's own.
 */
#include <stdbool.h>
#include <stdint.h>

#define FX __attribute__((noipa, used))

__asm__(".text\n.globl _text\n_text:\n");	/* what baretrace images have */

typedef enum { FX_OK = 0, FX_EBUSY = -16, FX_EINVAL = -22 } fx_err;
typedef uint8_t fx_id;
typedef const volatile fx_id fx_cv_id;
enum fx_color { FX_RED = 1, FX_GREEN = 2, FX_BLUE = 0xc0000000u };
struct fx_pair { long a, b; };		/* 16 bytes: two registers */
struct fx_big { long a, b, c; };	/* by address */
struct fx_vec { float x, y, z; };	/* an HFA: v registers */
union fx_word { uint32_t u; float f; };	/* 4 bytes: one register */

volatile long fx_sink;

FX fx_err fx_read(fx_cv_id id, void *buf, uint16_t len) { fx_sink = id + (long)buf + len; return FX_OK; }
FX int8_t fx_ints(int8_t a, uint8_t b, int16_t c, uint16_t d, int32_t e, uint32_t f, int64_t g,
		  uint64_t h) { fx_sink = a + b + c + d + e + f + g + (long)h; return a; }
FX bool fx_flags(bool on, char c, signed char sc, enum fx_color col) { fx_sink = on + c + sc + col; return on; }
FX struct fx_pair fx_pair(struct fx_pair p, int k) { p.a += k; return p; }
FX long fx_mixed(double d, struct fx_vec v, struct fx_big big, __int128 w, int last)
{
	fx_sink = (long)d + (long)v.x + big.a + (long)w;
	return last;
}
FX void fx_void(const char *s, union fx_word w) { fx_sink = (long)s + w.u; }
FX int fx_var(int n, ...) { return n; }
FX float fx_float(int x) { return (float)x; }
FX int fx_stack(int a, int b, int c, int d, int e, int f, struct fx_pair g, int h)
{
	return a + b + c + d + e + f + (int)g.a + h;
}
