/* test/target/test_kernel.c: symbols, formatting, boot data, newlib. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <baretrace.h>

#include "kprintf.h"
#include "ktest.h"
#include "symbols.h"

int __attribute__((noinline)) symbol_probe_function(int x)
{
	return x + 7;
}

KTEST(symbols_name_a_function_and_offsets)
{
	uintptr_t a = (uintptr_t)&symbol_probe_function, off = 99, size = 0;

	KT_STREQ(t, sym_lookup(a, &off, &size), "symbol_probe_function");
	KT_EQ(t, off, 0);
	KT_EXPECT(t, size >= 8);
	KT_STREQ(t, sym_lookup(a + 4, &off, NULL), "symbol_probe_function");
	KT_EQ(t, off, 4);
	KT_EQ(t, sym_address("symbol_probe_function"), a);
	KT_EQ(t, sym_address("no_such_function_anywhere"), 0);
	KT_EXPECT(t, sym_lookup(0x10, NULL, NULL) == NULL);
	KT_EXPECT(t, sym_count() > 100);
}

KTEST(kernel_formatter_matches_newlib)
{
	char a[64], b[64];

	ksnprintf(a, sizeof(a), "%d|%5u|%-4x|%08lx|%s|%c", -42, 7U, 0xabU,
		  0xdeadbeefUL, "str", 'q');
	snprintf(b, sizeof(b), "%d|%5u|%-4x|%08lx|%s|%c", -42, 7U, 0xabU,
		 0xdeadbeefUL, "str", 'q');
	KT_STREQ(t, a, b);
}

KTEST(newlib_formats_floating_point)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.3f", 2.5 * 1.25);
	KT_STREQ(t, buf, "3.125");
}

KTEST(newlib_reports_errors_through_errno)
{
	errno = 0;
	KT_EXPECT(t, fopen("/nope", "r") == NULL);
	KT_EQ(t, errno, ENOENT);
	KT_EXPECT(t, malloc((size_t)1 << 40) == NULL);	/* larger than RAM */
}
