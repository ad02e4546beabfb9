/*
 * test/target/test_probe_global.c: probe fetches of globals by name,
 * @SYMBOL[+OFF] (trace/core/probe.c probe_resolve, from the image's table
 * of data objects, tools/mktables_objs.c): the variables' values when
 * the probe ran, for an instruction probe and a return probe, a static
 * found by its name, and refusals (no such variable, a function's name,
 * a read past the variable's end) that plant nothing; and nested memory
 * fetches, +D(+D(...)), through a global and a register, a null link
 * marked unreadable.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <baretrace.h>
#include <baretrace_trace.h>

#include "ktest.h"
#include "shell.h"
#include "kprintf.h"
#include "symbols.h"
#include "tracecheck.h"
#include "tracers/retprobe.h"

#include "probe_check.h"

volatile uint64_t pb_gcount;
struct pb_gpair_t {
	uint32_t a;
	uint32_t pad;
	uint64_t b;
};
volatile struct pb_gpair_t pb_gpair;
static volatile uint16_t pb_gstatic;

static struct rec recs[CHECK_MAX];

static int plant(const char *text, const char **why)
{
	struct probe_spec s;

	*why = "";
	if (probe_spec_parse(text, &s, why))
		return -100;
	return s.ret ? retprobe_plant(&s, why) : probe_plant(&s, why, NULL);
}

static uint32_t number_of(const char *name, bool ret)
{
	struct probe_view v;

	for (unsigned int i = 0; i < PROBE_MAX; i++)
		if ((ret ? retprobe_get(i, &v) : probe_get(i, &v)) && !strcmp(v.spec.name, name))
			return v.number;
	return 0;
}

static uint64_t next_varint(const uint8_t **p, const uint8_t *end)
{
	uint64_t v = 0;

	*p += wire_varint_get(*p, (size_t)(end - *p), &v);
	return v;
}

/* The values of the records of probe 'number' among n records, in
 * order: vals[i][k] for record i, fetch k (nf fetches); how many. */
static unsigned int values(unsigned int n, uint32_t number, unsigned int nf, int64_t (*vals)[4])
{
	unsigned int got = 0;

	for (unsigned int i = 0; i < n; i++) {
		const uint8_t *p = recs[i].data, *end = p + recs[i].data_len;

		if (recs[i].kind != WIRE_REC_EXT || recs[i].subtype != WIRE_EXT_PROBE ||
		    next_varint(&p, end) != number || *p != nf || p[1] || got >= 4)
			continue;
		p += 2;
		for (unsigned int k = 0; k < nf; k++)
			vals[got][k] = wire_unzigzag(next_varint(&p, end));
		got++;
	}
	return got;
}

/* Sets the variables, then calls pb_mt. */
static uint64_t call_with(uint64_t count, uint64_t b, uint16_t st, uint64_t x)
{
	pb_gcount = count;
	pb_gpair.b = b;
	pb_gstatic = st;
	return pb_mt(x, 1);
}

KTEST(probe_global_fetches_read_the_variables_by_name)
{
	int64_t iv[4][4], rv[4][4];
	char text[200];
	const char *why;
	uintptr_t size = 0;

	KT_EQ(t, sym_object("pb_gcount", &size), (uintptr_t)&pb_gcount);
	KT_EQ(t, size, sizeof(pb_gcount));
	KT_EQ(t, sym_object("pb_gstatic", &size), (uintptr_t)&pb_gstatic);
	check_reset();
	pbt_spec(text, sizeof(text), "gi", "pb_mt", (uintptr_t)pb_mt, pb_mt_at,
		 "@pb_gcount:u32,b=@pb_gpair+8:x64,@pb_gstatic:s16");
	KT_EQ(t, plant(text, &why), 0);
	KT_EQ(t, plant("gr=pb_mt%return,$retval,n=@pb_gcount", &why), 0);
	KT_EQ(t, call_with(7, 0x1122334455667788ULL, 0xffff, 40), 41);
	KT_EQ(t, call_with(1ULL << 33, 5, 12, 99), 100);
	uint32_t ni = number_of("gi", false), nr = number_of("gr", true);

	KT_EQ(t, probe_remove("gi", &why), 0);
	KT_EQ(t, retprobe_remove("gr", &why), 0);
	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX);

	KT_EQ(t, values(n, ni, 3, iv), 2);
	KT_EQ(t, iv[0][0], 7);
	KT_EQ(t, iv[0][1], 0x1122334455667788LL);
	KT_EQ(t, iv[0][2], -1);				/* s16 0xffff */
	KT_EQ(t, iv[1][0], 0);				/* u32 of 1 << 33 */
	KT_EQ(t, iv[1][1], 5);
	KT_EQ(t, iv[1][2], 12);
	KT_EQ(t, values(n, nr, 2, rv), 2);
	KT_EQ(t, rv[0][0], 41);
	KT_EQ(t, rv[0][1], 7);
	KT_EQ(t, rv[1][0], 100);
	KT_EQ(t, rv[1][1], 1LL << 33);
}

KTEST(probe_global_refusals_plant_nothing)
{
	char text[200];
	const char *why;
	unsigned int before = probe_count(), rbefore = retprobe_count();

	pbt_spec(text, sizeof(text), "gbad", "pb_mt", (uintptr_t)pb_mt, pb_mt_at, "@no_such_var_q");
	KT_EQ(t, plant(text, &why), TRACE_EINVAL);
	KT_EXPECT(t, strstr(why, "no global") != NULL);
	pbt_spec(text, sizeof(text), "gbad", "pb_mt", (uintptr_t)pb_mt, pb_mt_at, "@pb_mt");
	KT_EQ(t, plant(text, &why), TRACE_EINVAL);		/* a function, not a variable */
	pbt_spec(text, sizeof(text), "gbad", "pb_mt", (uintptr_t)pb_mt, pb_mt_at, "@pb_gcount+4:u64");
	KT_EQ(t, plant(text, &why), TRACE_EINVAL);
	KT_EXPECT(t, strstr(why, "past") != NULL);
	KT_EQ(t, plant("gbad=pb_mt%return,@pb_gstatic+2:u8", &why), TRACE_EINVAL);
	KT_EQ(t, plant("gbad=pb_mt%return,@", &why), -100);
	KT_EQ(t, plant("gbad=pb_mt%return,@pb_gcount+x", &why), -100);
	KT_EQ(t, probe_count(), before);
	KT_EQ(t, retprobe_count(), rbefore);
	KT_EQ(t, pbt_insn_at(pb_mt_at), INSN_ADD_X4_X2_X3);
}

/* A two-node list the nested fetches walk. */
struct pb_node {
	uint32_t val;
	uint32_t pad;
	struct pb_node *next;
};
static struct pb_node pb_n2 = { .val = 22 }, pb_n1 = { .val = 11, .next = &pb_n2 };
struct pb_node *volatile pb_ghead = &pb_n1;

KTEST(probe_nested_memory_fetches_follow_pointers)
{
	static const uint32_t words[4];
	char line[SHELL_LINE_MAX];
	int64_t v[4][4];
	char text[200];
	const char *why;

	KT_EQ(t, pb_ghead->val, 11);	/* used, so the link keeps it (--gc-sections) */
	check_reset();
	pbt_spec(text, sizeof(text), "nest", "pb_add", (uintptr_t)pb_add, pb_add_at,
		 "+0(@pb_ghead):u32,+0(+8(@pb_ghead)):u32,+0(+8(x5)):s32,+8(+8(+8(x5)))");
	KT_EQ(t, plant(text, &why), 0);
	if (*why)
		kprintf("# %s\n", why);
	uint32_t number = number_of("nest", false);

	/* x5 is the list's first node (pb_add's third argument). */
	KT_EQ(t, pb_add(1, 2, (const uint32_t *)&pb_n1), 3);
	pb_n2.val = (uint32_t)-5;
	KT_EQ(t, pb_add(1, 2, (const uint32_t *)&pb_n1), 3);
	pb_n2.val = 22;
	KT_EQ(t, pb_add(1, 2, words), 3);	/* words: +8 holds 0, a null link */
	strcpy(line, "probe");
	KT_EQ(t, shell_exec(line), 0);		/* the list writes the locations back */
	KT_EQ(t, probe_remove("nest", &why), 0);
	unsigned int n = check_collect(smp_cpu_id(), recs, CHECK_MAX), got = 0;

	for (unsigned int i = 0; i < n && got < 3; i++) {
		const uint8_t *p = recs[i].data, *end = p + recs[i].data_len;

		if (recs[i].kind != WIRE_REC_EXT || recs[i].subtype != WIRE_EXT_PROBE ||
		    next_varint(&p, end) != number || *p++ != 4)
			continue;
		uint8_t mask = *p++;

		for (unsigned int k = 0; k < 4; k++)
			v[got][k] = wire_unzigzag(next_varint(&p, end));
		/* The last fetch: n1->next->next is null, +8 of it is not read. */
		KT_EQ(t, mask, got < 2 ? 8 : 12);	/* then x5 + 8 is null too */
		got++;
	}
	KT_EQ(t, got, 3);
	KT_EQ(t, v[0][0], 11);
	KT_EQ(t, v[0][1], 22);
	KT_EQ(t, v[0][2], 22);
	KT_EQ(t, v[1][2], -5);
	KT_EQ(t, v[1][1], 0xfffffffb);		/* u32 of the same word */
	KT_EQ(t, v[2][0], 11);			/* the globals' reads, still good */
	KT_EQ(t, v[2][2], pbt_null_reason());	/* unreadable: NULL + 8 */
}
