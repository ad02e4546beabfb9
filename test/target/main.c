/*
 * test/target/main.c: the target test image (make APP=test/target).
 *
 * With no arguments, or "ktest [prefix...]", runs the KTAP suites and
 * returns the number of failed tests. The other first arguments are boot
 * scenarios that test/run.py checks from the outside:
 *   crash null       a load from an unmapped address in crash_null_deref
 *   crash textwrite  a store into kernel text in crash_text_write
 *   panic            panic() from main (test/outcomes.py)
 *   printlines       every CPU prints numbered lines at once
 *   conread          reads bytes the harness types (test_api_console.c)
 *   hang             never returns (the runner must time out and say so)
 *   gdbhang          traces known calls, then spins with interrupts masked
 *                    (scenario_hang.c; test/gdb_check.py reads it with gdb)
 *   args ...         prints argc and each argv word in brackets
 *   golden           a fixed call tree for the golden trace test
 *   reset [spoil=crc|image|block]
 *                    traced work, a reset in its middle, and a second
 *                    boot that finds the first one's trace (scenario_reset.c)
 *   soak SECONDS     every control operation while every CPU writes
 *   overflow N, guardwrite N, crashprint, serror
 *                    kernel protections (scenarios_kern.c)
 *   spin SECONDS, lockup CPU MS, lockcrash MS, lockexit, stuck CPU [panic]
 *                    the break key and the lockup detector (scenarios_hang.c)
 *   busy MS          CPU 0 computes MS ms, the others idle (scenario_busy.c)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <baretrace.h>

#include "exception.h"
#include "ktest.h"
#include "output/export.h"
#include "target.h"

int main(int argc, char **argv)
{
	if (argc == 0 || !strcmp(argv[0], "ktest")) {
		/* The suites read the rings themselves: a block the tick
		 * closes (ring_close_if_older) must not be sent first by an
		 * idle CPU, or by the tick itself on one CPU, however slow
		 * the host. test_export turns idle export on for its test. */
		export_idle_enable(false);
		return ktest_run(argc > 1 ? argc - 1 : 0, argv + 1);
	}
	if (!strcmp(argv[0], "crash") && argc == 2)
		return scenario_crash(argv[1]);
	if (!strcmp(argv[0], "panic"))
		panic("test: panic on purpose, %d", 7);
	if (!strcmp(argv[0], "printlines"))
		return scenario_printlines();
	if (!strcmp(argv[0], "conread"))
		return scenario_conread();
	if (!strcmp(argv[0], "golden"))
		return scenario_golden();
	if (!strcmp(argv[0], "histwork"))
		return scenario_histwork(argc > 1 ? argv[1] : NULL);
	if (!strcmp(argv[0], "histev"))
		return scenario_histev(argc > 1 ? argv[1] : NULL);
	if (!strcmp(argv[0], "reset"))
		return scenario_reset(argc > 1 ? argv[1] : NULL);
	if (!strcmp(argv[0], "resetprobe") &&
	    (argc == 1 || (argc == 2 && !strcmp(argv[1], "entry"))))
		return scenario_reset_probe(argc == 1);
	if (!strcmp(argv[0], "soak") && argc == 2)
		return scenario_soak((unsigned int)strtoul(argv[1], NULL, 10));
	if (!strcmp(argv[0], "overflow") && argc == 2)
		return scenario_overflow(argv[1]);
	if (!strcmp(argv[0], "crashprint"))
		return scenario_crashprint();
	if (!strcmp(argv[0], "serror"))
		return scenario_serror();
	if (!strcmp(argv[0], "guardwrite") && argc == 2)
		return scenario_guardwrite(argv[1]);
	if (!strcmp(argv[0], "gdbhang"))
		return scenario_gdbhang();
	if (!strcmp(argv[0], "spin") && argc == 2)
		return scenario_spin((unsigned int)strtoul(argv[1], NULL, 10));
	if (!strcmp(argv[0], "lockup") && argc == 3)
		return scenario_lockup(argv[1], argv[2]);
	if (!strcmp(argv[0], "lockexit"))
		return scenario_lockexit();
	if (!strcmp(argv[0], "lockcrash") && argc == 2)
		return scenario_lockcrash(argv[1]);
	if (!strcmp(argv[0], "stuck") && (argc == 2 || (argc == 3 && !strcmp(argv[2], "panic"))))
		return scenario_stuck(argv[1], argc == 3 ? argv[2] : NULL);
	if (!strcmp(argv[0], "busy") && argc == 2)
		return scenario_busy(argv[1]);
	if (!strcmp(argv[0], "hang"))
		for (;;)
			time_delay_us(1000);
	if (!strcmp(argv[0], "args")) {
		printf("args: argc=%d", argc);
		for (int i = 0; i < argc; i++)
			printf(" [%s]", argv[i]);
		printf("\n");
		return 0;
	}
	printf("test: unknown scenario '%s' (ktest, crash null|textwrite, panic, printlines, golden, histwork [crash], histev [crash], reset [spoil=crc|image|block], resetprobe [entry], soak SECONDS, overflow N, guardwrite N, crashprint, serror, spin SECONDS, lockup CPU MS, lockcrash MS, lockexit, stuck CPU [panic], busy MS, hang, gdbhang, args)\n",
	       argv[0]);
	return 2;
}
