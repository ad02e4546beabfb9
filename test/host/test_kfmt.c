/* sources: kernel/lib/kfmt.c */
/*
 * test/host/test_kfmt.c: kvsnprintf against hand-written expected
 * strings. The expected text is typed in here rather than taken from the
 * host's printf, so a shared misunderstanding cannot make both agree.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "kprintf.h"
#include "tap.h"

/*
 * Formats through kvsnprintf without the format attribute ksnprintf
 * carries, so cases like "%q" compile under -Werror. Checks the text and
 * that the return value is its length.
 */
static void check(const char *want, const char *fmt, ...)
{
	char buf[128];
	va_list ap;
	int n;

	memset(buf, 'Z', sizeof(buf));
	va_start(ap, fmt);
	n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	int pass = strcmp(buf, want) == 0 && n == (int)strlen(want);

	if (!tap_ok(pass, "\"%s\" gives \"%s\"", fmt, want))
		tap_diag("got \"%s\" (returned %d), want \"%s\" (%zu)", buf, n,
			 want, strlen(want));
}

static void conversions(void)
{
	check("42", "%d", 42);
	check("-7", "%i", -7);
	check("-2147483648", "%d", INT_MIN);
	check("4294967295", "%u", 4294967295u);
	check("deadbeef", "%x", 0xdeadbeefu);
	check("DEADBEEF", "%X", 0xdeadbeefu);
	check("0", "%x", 0u);
	check("hi there", "%s", "hi there");
	check("(null)", "%s", (char *)NULL);
	check("A", "%c", 'A');
	check("100%", "100%%");
	check("k=v 31 1f", "%s=%c %u %x", "k", 'v', 31u, 31u);
}

static void width_and_flags(void)
{
	check("   42", "%5d", 42);
	check("42   |", "%-5d|", 42);
	check("00042", "%05d", 42);
	/* Zero padding goes between the sign and the digits... */
	check("-0042", "%05d", -42);
	/* ...space padding before the sign... */
	check("  -42", "%5d", -42);
	/* ...and '-' wins over '0': padding after, and never zeros. */
	check("-42  |", "%-05d|", -42);
	check("0000beef", "%08x", 0xbeefu);
	check("  x", "%3c", 'x');
	check("ab   |", "%-5s|", "ab");
	/* '0' is ignored for strings: zero-padding a name is never wanted. */
	check("   ab", "%05s", "ab");
	/* A width narrower than the value never truncates it. */
	check("abcdef", "%3s", "abcdef");
	check("123456", "%2d", 123456);
}

static void lengths(void)
{
	check("-9223372036854775808", "%ld", (long)INT64_MIN);
	check("9223372036854775807", "%ld", (long)INT64_MAX);
	check("-1", "%lld", -1LL);
	check("18446744073709551615", "%lu", (unsigned long)UINT64_MAX);
	check("123456789abcdef0", "%lx", 0x123456789abcdef0UL);
	check("FEDCBA9876543210", "%llX", 0xfedcba9876543210ULL);
	check("18446744073709551615", "%zu", (size_t)SIZE_MAX);
	/* Without 'l' only 32 bits are taken, like the C library. */
	check("-1", "%d", (int)0xffffffff);
}

static void pointers(void)
{
	check("0x1234", "%p", (void *)(uintptr_t)0x1234);
	check("0xffff000040080000", "%p", (void *)(uintptr_t)0xffff000040080000);
	check("0x0", "%p", (void *)NULL);
	check("    0x1234", "%10p", (void *)(uintptr_t)0x1234);
	check("0x1234    |", "%-10p|", (void *)(uintptr_t)0x1234);
	/* Zero padding goes between "0x" and the digits. */
	check("0x00001234", "%010p", (void *)(uintptr_t)0x1234);
}

static void odd_formats(void)
{
	/* An unknown conversion comes out as written, args untouched. */
	check("%q", "%q");
	check("a%yb 5", "a%yb %d", 5);
	/* A lone '%' at the very end is dropped, not read past. */
	check("50", "50%");
	check("50", "50%-0");
	check("", "");
	/* A '*' width comes from the arguments; negative means left. */
	check("   ab|", "%*s|", 5, "ab");
	check("ab   |", "%*s|", -5, "ab");
	check("[   7]", "[%*d]", 4, 7);
	/* Absurd widths are clamped (1024), never overflow the int. */
	char big[2048];
	int n = ksnprintf(big, sizeof(big), "%2147483648d|", 5);
	tap_ok(n == 1025 && big[1023] == '5' && big[1024] == '|',
	       "a width beyond INT_MAX is clamped to 1024");
}

static void truncation(void)
{
	char buf[16];
	int n;

	memset(buf, 'Z', sizeof(buf));
	n = ksnprintf(buf, 5, "hello world");
	tap_eq_int(n, 11, "truncated: returns the full length");
	tap_eq_str(buf, "hell", "truncated: size-1 chars and a NUL");
	tap_ok(buf[5] == 'Z', "truncated: nothing written past size");

	memset(buf, 'Z', sizeof(buf));
	n = ksnprintf(buf, 4, "%d", 123456);
	tap_ok(n == 6 && strcmp(buf, "123") == 0,
	       "truncated inside a number: \"123\", returns 6");

	memset(buf, 'Z', sizeof(buf));
	n = ksnprintf(buf, 4, "%10d", 1);
	tap_ok(n == 10 && strcmp(buf, "   ") == 0,
	       "truncated inside padding: \"   \", returns 10");

	memset(buf, 'Z', sizeof(buf));
	n = ksnprintf(buf, 1, "abc");
	tap_ok(n == 3 && buf[0] == '\0' && buf[1] == 'Z',
	       "size 1: only the NUL, returns 3");

	memset(buf, 'Z', sizeof(buf));
	n = ksnprintf(buf, 0, "abc%d", 12);
	int untouched = 1;

	for (size_t i = 0; i < sizeof(buf); i++)
		untouched &= buf[i] == 'Z';
	tap_ok(n == 5 && untouched, "size 0: writes nothing, returns 5");

	memset(buf, 'Z', sizeof(buf));
	n = ksnprintf(buf, 6, "hello");
	tap_ok(n == 5 && strcmp(buf, "hello") == 0 && buf[6] == 'Z',
	       "exact fit: whole text, NUL in the last byte");
}

static char emitted[2048];
static size_t emitted_n;
static int emits;

static void emit(const char *s, size_t n)
{
	if (emitted_n + n < sizeof(emitted)) {
		memcpy(emitted + emitted_n, s, n);
		emitted_n += n;
		emitted[emitted_n] = '\0';
	}
	emits++;
}

static int chunks(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	emitted_n = 0;
	emitted[0] = '\0';
	emits = 0;
	va_start(ap, fmt);
	n = kvformat_chunks(buf, size, emit, fmt, ap);
	va_end(ap);
	return n;
}

/* kprintf's path for lines longer than its buffer: all of the line,
 * its newline included, through a window of 16 bytes. */
static void long_lines(void)
{
	char buf[16], word[601], want[700];
	int n;

	for (int i = 0; i < 600; i++)
		word[i] = (char)('a' + i % 26);
	word[600] = '\0';
	snprintf(want, sizeof(want), "bootargs: \"%s\" %5d|%-3s|\n", word, 42, "x");
	n = chunks(buf, sizeof(buf), "bootargs: \"%s\" %5d|%-3s|\n", word, 42, "x");
	tap_eq_int(n, (long long)strlen(want), "chunks: returns the whole length");
	tap_eq_str(emitted, want, "chunks: a 600-character line comes out whole, newline included");
	tap_eq_int(emits, (int)((strlen(want) + 15) / 16), "chunks: one emit per full window and the rest");
	n = chunks(buf, sizeof(buf), "exactly 16 bytes");
	tap_ok(n == 16 && emits == 1 && !strcmp(emitted, "exactly 16 bytes"),
	       "chunks: a text of exactly the window is one emit");
	n = chunks(buf, sizeof(buf), "");
	tap_ok(n == 0 && emits == 0, "chunks: nothing to say, no emit");
}

int main(void)
{
	conversions();
	width_and_flags();
	lengths();
	pointers();
	odd_formats();
	truncation();
	long_lines();
	return tap_done();
}
