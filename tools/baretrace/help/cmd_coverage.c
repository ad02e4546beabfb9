/*
 * tools/baretrace/help/cmd_coverage.c: `baretrace coverage` and `baretrace
 * ktap`, the two commands whose output is a CI system's (output/coverage.c
 * and output/ktap_cmd.c parse their options).
 */
#include "help.h"

static const struct bt_opt_help coverage_opts[] = {
	{ "--elf ELF", "an image's ELF, for its functions' source lines;\n"
		       "one per board or build (may be repeated)" },
	{ "-o, --output FILE.info", "the lcov tracefile to write" },
	{ "--no-demangle", "C++ names as the symbol table has them" },
	{ NULL, NULL },
};

const struct bt_cmd_help bt_help_coverage = {
	.name = "coverage",
	.summary = "function coverage of traced runs as lcov data",
	.synopsis =
		"coverage TRACE.bt... --elf ELF [--elf ELF]... -o FILE.info\n"
		"    [--no-demangle]",
	.about =
		"Merge the coverage frames of runs traced with trace=coverage into lcov\n"
		"tracefile data (genhtml and lcov --summary read it), and print the\n"
		"functions reached of those patchable per top folder.",
	.opts = coverage_opts,
	.exit_status =
		"0  FILE.info was written\n"
		"1  bad input: a trace no ELF matches, a trace without coverage frames,\n"
		"   FILE.info could not be written (nothing is written)\n"
		"2  a bad command line",
	.examples =
		"baretrace coverage ktest.bt --elf build/qemu-virt/baretrace.elf \\\n"
		"    -o coverage.info\n"
		"  then: genhtml coverage.info -o coverage-html",
	.manual =
		"Writes function coverage as lcov tracefile data (genhtml, lcov --summary read "
		"it) from the coverage frames of runs traced with trace=coverage: per "
		"source file, each patchable function at the line of its name (the "
		"ELF's DWARF) with FN, FNDA (1 if reached), FNF, FNH and a DA line.\n"
		"\n"
		"The traces merge: a function is reached if any run, boot (the previous "
		"boot's frames too) or board reached it. Each trace goes to the --elf "
		"whose image hash its metadata names; a trace no ELF matches is refused "
		"and nothing is written, so give an --elf per board or build. Prints "
		"functions reached of functions patchable per top folder (boot, kernel, "
		"drivers, board, the application's folder). In names every ',' is ';' "
		"(lcov 1.16 ends a name at a comma): \"f(int; char)\".",
};

static const struct bt_opt_help ktap_opts[] = {
	{ "--junit FILE", "the results as JUnit XML in FILE" },
	{ "--suite NAME", "the suite of top-level tests (default ktest)" },
	{ NULL, NULL },
};

const struct bt_cmd_help bt_help_ktap = {
	.name = "ktap",
	.summary = "a run's KTAP results from its console log, as a summary and JUnit",
	.synopsis = "ktap LOG [--junit FILE] [--suite NAME]",
	.about =
		"Read the KTAP results in a run's console log (make run's output,\n"
		"capture --log FILE, QEMU's serial output; - for stdin): print a summary\n"
		"and, with --junit FILE, write them as JUnit XML.",
	.opts = ktap_opts,
	.exit_status =
		"0  every test passed or was skipped and the plan completed\n"
		"1  a log without KTAP, or a FILE that cannot be written (nothing is\n"
		"   written)\n"
		"2  a bad command line\n"
		"3  a test failed or the plan did not complete",
	.examples =
		"make run BOOTARGS='-- ktest' | tee run.log; baretrace ktap run.log \\\n"
		"    --junit ktest.xml\n"
		"  the kernel's test suites, as JUnit XML for a CI system",
	.manual =
		"Reads the KTAP results in a run's console log (make run's output, "
		"capture --log FILE, QEMU's serial output; - for stdin; trace files hold "
		"no console text) and prints a summary; with --junit FILE it writes the "
		"results as JUnit XML, a testcase per KTAP test (suite: the subtest's name, NAME for "
		"top-level tests, default ktest), the test's \"#\" diagnostic lines as "
		"the failure text, \"# SKIP\" as skipped. A run that did not complete "
		"its plan (crash, hang, a cut log) or ended with a crash, panic or hang "
		"adds a failed testcase \"run\" saying how it ended.",
};
