/*
 * test/target/scenario_reset_probe.c: probes on both sides of a reset,
 * for the previous boot's kept hits named by the right definitions
 * (issue 39 item 8; test/reset_probe.py reads the capture).
 *
 * The first boot plants probe 'pa' on pb_mt's add (fetches a = x2:u32,
 * b = x3:u32), calls pb_mt(i, 1000 + i) RP_HITS times and resets through
 * PSCI SYSTEM_RESET with no drain. The second boot finds the first one's
 * trace; while its exporter is still sending the kept blocks, it plants
 * another probe, 'pb' on pb_add's add (one fetch, p = x5:x64), with the
 * console command (which sends its schema at once), then (unless 'entry'
 * was given) a return probe 'pr' on pb_add the same way, calls pb_add
 * once and powers off. Each
 * boot's first probe: without numbers of their own per boot, both would
 * be probe 1. Both schemas must reach the host even while an idle CPU
 * holds the exporter's lock (a slow host reader: test/reset_probe.py
 * stalls it).
 */
#include <stdio.h>

#include <baretrace.h>

#include "core/probe.h"
#include "output/prev.h"
#include "power.h"
#include "shell.h"
#include "target.h"

#include "probe_check.h"

#define RP_HITS		20000

int scenario_reset_probe(bool ret)
{
	static const uint32_t words[2] = { 1, 2 };
	char line[SHELL_LINE_MAX];
	struct probe_view v, r;

	if (prev_found() == PREV_NONE) {
		snprintf(line, sizeof(line), "probe pa=pb_mt+%lu a=x2:u32 b=x3:u32",
			 (unsigned long)((uintptr_t)pb_mt_at - (uintptr_t)pb_mt));
		if (shell_exec(line) || !pbt_view("pa", &v))
			return 1;
		for (unsigned int i = 0; i < RP_HITS; i++)
			pb_mt(i, 1000 + i);
		printf("resetprobe: first boot: probe pa (number %lu) hit %d times, then a reset\n",
		       (unsigned long)v.number, RP_HITS);
		hw_reset();
		printf("resetprobe: the reset returned\n");
		return 1;
	}
	snprintf(line, sizeof(line), "probe pb=pb_add+%lu p=x5:x64",
		 (unsigned long)((uintptr_t)pb_add_at - (uintptr_t)pb_add));
	if (shell_exec(line) || !pbt_view("pb", &v))
		return 1;
	snprintf(line, sizeof(line), "probe pr=pb_add%%return $retval:u64");	/* shell_exec cuts it */
	if (ret && (shell_exec(line) || !pbt_view("pr", &r)))
		return 1;
	pb_add(1, 2, words);
	printf("resetprobe: second boot: previous boot %lu; probe pb (number %lu) hit once\n",
	       (unsigned long)prev_boot_number(), (unsigned long)v.number);
	if (ret)
		printf("resetprobe: second boot: return probe pr (number %lu) hit once\n",
		       (unsigned long)r.number);
	return 0;
}
