/* sources: trace/core/probe_spec.c */
/*
 * test/host/test_probe_spec.c: the names of a probe's fetches
 * (trace/core/probe_spec.c). Every export shows a fetch by its name, so
 * two fetches never share one: the same NAME= twice is refused, and an
 * unnamed fetch gets a word made of its location, made unique.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../../trace/core/probe_spec.h"
#include "tap.h"

/* The fetch names text parses to, joined by ' ', into out; or the
 * refusal. */
static const char *names(const char *text, char *out, size_t n)
{
	struct probe_spec s;
	const char *why = "";
	size_t len = 0;

	if (probe_spec_parse(text, &s, &why))
		return snprintf(out, n, "refused: %s", why), out;
	out[0] = '\0';
	for (unsigned int k = 0; k < s.nfetch && len < n; k++)
		len += (size_t)snprintf(out + len, n - len, "%s%s", k ? " " : "", s.fetch[k].name);
	return out;
}

static void named(const char *text, const char *want)
{
	char got[256];

	tap_ok(!strcmp(names(text, got, sizeof(got)), want), "%s: '%s' (got '%s')", text, want, got);
}

static void refused(const char *text)
{
	char got[256];

	names(text, got, sizeof(got));
	tap_ok(strstr(got, "refused: two fetches have the same NAME=") == got,
	       "%s is refused for its names (%s)", text, got);
}

int main(void)
{
	/* derived from the location: a word, displacements signed */
	named("p=f+8,+8(x0),-8(x0)", "x0_p8 x0_m8");
	named("p=f+8,x0,sp,pc,+0(sp):u8,-16(x29)", "x0 sp pc sp_p0 x29_m16");
	named("p=f+8,+8(+0(x1)):u32,-4(+16(+0(sp)))", "x1_p0_p8 sp_p0_p16_m4");
	named("p=f+8,@counter,@pair+8,+2(@head+8):u8,+0(@head),@name.1",
	      "counter pair_p8 head_p8_p2 head_p0 name_1");
	named("r=f%return,$retval,+8($retval):u16,-8(sp)", "retval retval_p8 sp_m8");
	named("p=f+8,+0x10(x2)", "x2_p16");
	/* unnamed fetches of one location: told apart by a suffix */
	named("p=f+8,x0:u8,x0:x64", "x0 x0_2");
	named("p=f+8,x0,x0,x0", "x0 x0_2 x0_3");
	/* an explicit name keeps it; the derived one moves aside */
	named("p=f+8,+8(x0),x0_p8=x1", "x0_p8_2 x0_p8");
	named("p=f+8,x0,x0_2=x1,x0", "x0 x0_2 x0_3");
	/* cut to fit, still unique */
	named("p=f+8,-2147483647(+2147483647(x30)),-2147483647(+2147483647(x30)):u8",
	      "x30_p2147483647_m214748 x30_p2147483647_m21_2");
	/* the same explicit name twice: refused */
	refused("p=f+8,a=x0,a=x1");
	refused("p=f+8,a=x0:u8,x1,a=+8(x0)");
	refused("r=f%return,v=$retval,v=+0($retval)");
	named("p=f+8,a=x0,b=x0", "a b");
	return tap_done();
}
