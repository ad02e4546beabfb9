/*
 * tools/baretrace/output/ci/ktap.h: the ktap command (ktap_cmd.c, ktap.c):
 * a console log's KTAP results, as JUnit XML (junit.c) for CI.
 */
#ifndef TOOLS_BARETRACE_OUTPUT_CI_KTAP_H
#define TOOLS_BARETRACE_OUTPUT_CI_KTAP_H

/* ktap_cmd.c: `baretrace ktap LOG [--junit FILE]`; the exit status. */
int bt_ktap_main(int argc, char **argv);

#endif /* TOOLS_BARETRACE_OUTPUT_CI_KTAP_H */
