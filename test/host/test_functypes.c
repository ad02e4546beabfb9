/* sources: tools/baretrace/model/functypes.c tools/baretrace/model/srcmap.c tools/baretrace/model/elf_syms.c tools/baretrace/output/render/typed.c tools/baretrace/output/render/json.c tools/baretrace/base/util.c kernel/lib/nearest.c tools/baretrace/decode/symtab.c wire/wire.c wire/wire_syms.c -lelf -ldw */
/*
 * test/host/test_functypes.c: signatures from DWARF (model/functypes.c)
 * and values shown by them (output/render/typed.c), on functions GCC built for
 * aarch64 (test/host/functypes_fixture.c, cross-compiled here with -g):
 * names, types through typedefs and qualifiers, enumerators, the x
 * registers AAPCS64 gives each parameter (v registers for floating point
 * and HFAs, an even pair for __int128, two for a 16-byte struct, an
 * address for a larger one, none once x7 is used), the text and JSON for
 * register values chosen here, and the fallbacks: --no-types, a site
 * DWARF has no function at, an ELF without DWARF.
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../tools/baretrace/decode/decode.h"
#include "../../tools/baretrace/decode/symtab.h"
#include "../../tools/baretrace/model/model.h"
#include "../../tools/baretrace/output/render/render.h"
#include "../../wire/wire.h"

#include "tap.h"

#define FIXTURE	"build/host/functypes_fixture.elf"
#define PLAIN	"build/host/functypes_plain.elf"
#define NSITES	16

static const char *const funcs[] = {
	"fx_read", "fx_ints", "fx_flags", "fx_pair", "fx_mixed", "fx_void", "fx_var", "fx_float",
	"fx_stack",
};
#define NFUNCS	(sizeof(funcs) / sizeof(funcs[0]))

static struct bt_sym sites[NSITES];
static uint64_t text_at;
static struct bt_decoder dec;

static int take(const char *name, uint64_t value, void *arg)
{
	(void)arg;
	if (!strcmp(name, "_text"))
		text_at = value;
	for (size_t i = 0; i < NFUNCS; i++)
		if (!strcmp(name, funcs[i])) {
			sites[i].start = value;
			sites[i].name = strdup(name);
		}
	return 0;
}

/* Sites 0..NFUNCS-1 are the fixture's functions, as offsets from _text. */
static void load(const char *path)
{
	int fd = open(path, O_RDONLY);
	Elf *e;

	elf_version(EV_CURRENT);
	e = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ, NULL);
	if (!e) {
		printf("Bail out! cannot read %s\n", path);
		exit(1);
	}
	bt_elf_symbols(e, take, NULL);
	elf_end(e);
	close(fd);
	for (size_t i = 0; i < NFUNCS; i++)
		sites[i].start -= text_at;
	sites[NFUNCS].name = strdup("fx_nowhere");	/* no DWARF function here */
	sites[NFUNCS].start = 0x100000;
	dec.syms.by_site = sites;
	dec.syms.nsites = NSITES;
	dec.elf_path = path;
}

static const struct bt_sig *sig(unsigned site)
{
	return bt_sig_find(dec.elf_path, &dec.syms, site);
}

static void args_are(unsigned site, const int64_t *v, unsigned n, const char *want)
{
	char buf[512];

	tap_ok(!bt_typed_args(&dec, site, v, n, NULL, buf, sizeof(buf)), "%s: typed", funcs[site]);
	tap_eq_str(buf, want, funcs[site]);
}

static void ret_is(unsigned site, int64_t v, int want_rc, const char *want)
{
	char buf[64] = "";
	int rc = bt_typed_retval(&dec, site, v, buf, sizeof(buf));

	tap_eq_int(rc, want_rc, funcs[site]);
	if (rc > 0)
		tap_eq_str(buf, want, funcs[site]);
}

static void regs(void)
{
	const struct bt_sig *s;
	static const int mixed[] = { -1, -1, 0, 2, 4 }, stack[] = { 0, 1, 2, 3, 4, 5, 6, -1 };

	s = sig(4);	/* fx_mixed(double, struct fx_vec, struct fx_big, __int128, int) */
	tap_ok(s && s->np == 5, "fx_mixed: 5 parameters");
	for (size_t i = 0; s && i < s->np && i < 5; i++)
		tap_eq_int(s->p[i].reg, mixed[i], s->p[i].name);
	tap_ok(s && s->p[3].nregs == 2, "__int128 takes an even pair");
	s = sig(8);	/* fx_stack: g, a 16-byte struct, in x6-x7; h on the stack */
	tap_ok(s && s->np == 8, "fx_stack: 8 parameters");
	for (size_t i = 0; s && i < s->np && i < 8; i++)
		tap_eq_int(s->p[i].reg, stack[i], s->p[i].name);
	s = sig(6);
	tap_ok(s && s->variadic && s->np == 1, "fx_var: one parameter and '...'");
}

static void text(void)
{
	int64_t rd[] = { 0x7777777700000005, 0x40081230, 0xdead0040 };
	int64_t ints[] = { 0xfb, 0xcb, 0xf448, 0xea63, 0xfffb6c20, 0xee6b2803,
			   -(INT64_C(1) << 40), (int64_t)(UINT64_C(1) << 63) };
	int64_t fl[] = { 1, 0x41, 0xff, (int64_t)0xc0000000u };
	int64_t fl2[] = { 0x100, 0x0a, 0x7f, 3 };
	int64_t mixed[] = { 0x1000, 0x99, 5, 6, -7 };
	int64_t vd[] = { 0, 0x2a };
	int64_t st[] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	args_are(0, rd, 3, "id=5, buf=0x40081230, len=64");
	args_are(0, rd, 2, "id=5, buf=0x40081230, ...");
	args_are(1, ints, 8, "a=-5, b=203, c=-3000, d=60003, e=-300000, f=4000000003, "
		 "g=-1099511627776, h=9223372036854775808");
	args_are(2, fl, 4, "on=true, c='A', sc=-1, col=FX_BLUE");
	args_are(2, fl2, 4, "on=false, c='\\x0a', sc=127, col=3");
	args_are(3, st, 3, "p={...}, k=3");
	args_are(4, mixed, 5, "d=?, v=?, big={...}, w=?, last=-7");
	args_are(5, vd, 2, "s=NULL, w={...}");
	args_are(6, st, 8, "n=1, ...");
	args_are(8, st, 8, "a=1, b=2, c=3, d=4, e=5, f=6, g={...}, ...");
	ret_is(0, -22, 1, "FX_EINVAL");
	ret_is(0, 0xffffffea, 1, "FX_EINVAL");	/* an enum's upper half is not its */
	ret_is(0, 5, 1, "5");			/* no enumerator */
	ret_is(1, 0x1ff, 1, "-1");
	ret_is(2, 0x100, 1, "false");
	ret_is(5, 0, 0, "");
	ret_is(7, 0, 1, "?");
	ret_is(3, 0, 1, "{...}");
}

static void strings(void)
{
	int64_t v[] = { 0x40081230, 0 }, null[] = { 0, 0 };
	struct bt_argstr s[8] = { { 1, (const uint8_t *)"hi\"\n", 4, 0 } };
	char buf[128];

	tap_ok(!bt_typed_args(&dec, 5, v, 2, s, buf, sizeof(buf)), "fx_void: typed, a string");
	tap_eq_str(buf, "s=\"hi\\\"\\x0a\", w={...}", "a char * as a C string literal");
	s[0].flags = WIRE_STR_CUT;
	bt_typed_args(&dec, 5, v, 2, s, buf, sizeof(buf));
	tap_eq_str(buf, "s=\"hi\\\"\\x0a\"..., w={...}", "a cut string: ... after it");
	s[0] = (struct bt_argstr){ 1, NULL, 0, WIRE_STR_UNREADABLE };
	bt_typed_args(&dec, 5, v, 2, s, buf, sizeof(buf));
	tap_eq_str(buf, "s=0x40081230 <unreadable>, w={...}", "an unreadable pointer");
	bt_typed_args(&dec, 5, null, 2, s, buf, sizeof(buf));
	tap_eq_str(buf, "s=NULL, w={...}", "NULL stays NULL");
	s[1] = s[0] = (struct bt_argstr){ 1, (const uint8_t *)"x", 1, 0 };
	v[1] = v[0];
	bt_typed_args(&dec, 0, v, 2, s, buf, sizeof(buf));
	tap_eq_str(buf, "id=48, buf=0x40081230, ...", "no string for a void * or an integer");
}

static void json(void)
{
	int64_t rd[] = { 5, 0x40081230, 64 }, fl[] = { 1, 0x41, 0xff, 2 };
	char *p = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&p, &n);

	tap_eq_int(bt_typed_json_retval(f, &dec, 0, -22, 0), 1, "fx_read: JSON retval");
	tap_eq_int(bt_typed_json_args(f, &dec, 0, rd, 3, NULL, 1), 3, "fx_read: 3 JSON members");
	fputs("|", f);
	tap_eq_int(bt_typed_json_args(f, &dec, 2, fl, 4, NULL, 0), 4, "fx_flags: 4 JSON members");
	fclose(f);
	tap_eq_str(p, "\"retval\":\"FX_EINVAL\",\"id\":5,\"buf\":\"0x40081230\",\"len\":64|"
		   "\"on\":true,\"c\":\"'A'\",\"sc\":-1,\"col\":\"FX_GREEN\"", "JSON");
	free(p);
}

static void fallbacks(void)
{
	int64_t v[] = { 1 };
	char buf[64];

	tap_ok(!sig(NFUNCS), "a site DWARF has no function at: no signature");
	tap_ok(!sig(NFUNCS + 1), "a site with no name: no signature");
	bt_opt_types = 0;
	tap_ok(bt_typed_args(&dec, 0, v, 1, NULL, buf, sizeof(buf)) < 0, "--no-types: raw");
	bt_opt_types = 1;
	dec.elf_path = PLAIN;
	tap_ok(!sig(0), "an ELF without DWARF: no signature");
	dec.elf_path = FIXTURE;
	tap_ok(sig(0) && sig(0) == sig(0), "read once, kept");
}

int main(void)
{
	if (system("aarch64-linux-gnu-gcc -g -O2 -ffreestanding -nostdlib -static -Wl,-e,0 "
		   "-o " FIXTURE " test/host/functypes_fixture.c") ||
	    system("aarch64-linux-gnu-strip -g -o " PLAIN " " FIXTURE)) {
		printf("Bail out! cannot build the fixture with aarch64-linux-gnu-gcc\n");
		return 1;
	}
	load(FIXTURE);
	regs();
	text();
	strings();
	json();
	fallbacks();
	bt_sig_cache_free();
	for (size_t i = 0; i < NSITES; i++)
		free(sites[i].name);
	return tap_done();
}
