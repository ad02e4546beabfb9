/*
 * tools/baretrace/output/stats/diff_clock.c: what the times of stats --diff
 * (and --diff --hist) are, from the clock each capture noted
 * (decode/clock.c), and so how much a time must grow to fail the gate.
 *
 * Exact (both traces under QEMU -icount with a fixed shift and
 * sleep=off, as make ci runs): times are instruction counts, every run of
 * one build repeats them exactly, and there is no floor (0 unless
 * --floor N instructions): one instruction more is the code's doing.
 *
 * Host time (either trace from QEMU without -icount): QEMU's virtual
 * clock is the host's, and a vCPU's durations include every moment QEMU
 * did not run it: QEMU's one TCG thread runs each other vCPU for up to
 * its round-robin period (TCG_KICK_PERIOD, 100 ms) before coming back,
 * and the host's scheduler stops QEMU itself. So the default floor is
 * 100 ms per CPU of the trace: (CPUs - 1) turns of the others and one for
 * the host; a busier host can stop QEMU for longer, which no floor can
 * bound (docs/ci.md). --floor US sets another.
 *
 * Neither note (a board's counter over a serial line, or a file captured
 * before the note existed): 1 us, as before the note (--floor US).
 */
#include <stdio.h>

#include "../../decode/decode.h"
#include "../../decode/units.h"

#include "stats.h"

#define HOST_FLOOR_PER_CPU_NS	100000000u	/* QEMU's TCG_KICK_PERIOD */

uint64_t bt_ticks_insns(uint64_t ticks, uint64_t freq, unsigned shift)
{
	unsigned __int128 per = (unsigned __int128)freq << shift;

	if (!freq)
		return ticks;
	return (uint64_t)(((unsigned __int128)ticks * 1000000000u + per / 2) / per);
}

static void say(const char *which, const struct bt_clock *k)
{
	char buf[96];

	printf("# clock of %s: %s\n", which, bt_clock_say(k, buf, sizeof(buf)));
}

void bt_diff_unit(struct bt_diff_unit *u, const struct bt_clock *a, const struct bt_clock *b,
		  uint64_t ncpus, const struct bt_diff_opts *opt)
{
	u->exact = bt_clock_exact(a) && bt_clock_exact(b) && a->shift == b->shift;
	u->host = a->kind == BT_CLOCK_HOST || b->kind == BT_CLOCK_HOST;
	u->name = u->exact ? "instructions" : "microseconds";
	if (u->exact)
		u->floor = opt->floor >= 0 ? (uint64_t)(opt->floor + 0.5) : 0;
	else if (opt->floor >= 0)
		u->floor = (uint64_t)(opt->floor * 1000 + 0.5);
	else if (u->host)
		u->floor = (ncpus ? ncpus : 1) * (uint64_t)HOST_FLOOR_PER_CPU_NS;
	else
		u->floor = 1000;
}

void bt_diff_unit_say(const struct bt_diff_unit *u, const struct bt_clock *a,
		      const struct bt_clock *b)
{
	if (a->kind == b->kind && a->shift == b->shift && a->sleep_off == b->sleep_off) {
		say("both", a);
	} else {
		say("OLD", a);
		say("NEW", b);
	}
	if (u->exact)
		return;
	if (bt_clock_exact(a) || bt_clock_exact(b))
		printf("# one trace is exact and the other not: compared in time; exact figures "
		       "need both from make ci\n");
	if (u->host)
		printf("# note: host time moves with the host's load and QEMU's scheduling of "
		       "its vCPUs, so a time fails only when it grows by the floor too; for "
		       "exact instruction counts capture both with make ci (QEMU -icount; "
		       "docs/ci.md)\n");
}

void bt_diff_floor_say(const struct bt_diff_unit *u)
{
	char buf[32];

	if (u->exact && u->floor)
		printf("# floor: a count must also grow by %llu instructions or more\n",
		       (unsigned long long)u->floor);
	else if (u->exact)
		printf("# exact instruction counts: no floor (one instruction more counts)\n");
	if (u->exact)
		return;
	bt_fmt_usecs(buf, sizeof(buf), u->floor, 1000000000);
	printf("# floor: a time must also grow by %s us or more%s\n", buf,
	       u->host ? " (host time: 100 ms per CPU, docs/ci.md)" : "");
}
