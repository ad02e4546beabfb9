/*
 * trace/core/probe_insn.h: which A64 instructions a probe may displace.
 *
 * A probe replaces one instruction with BRK and runs the original out of
 * line, at another address (trace/core/probe.c). That is only the same
 * computation when the instruction does not depend on where it sits and
 * does not decide where execution goes next: so branches, everything
 * that reads the PC, exclusive load/store pairs (the BRK between a load
 * and its store clears the monitor, so the pair would retry for ever),
 * and the instructions that generate exceptions are refused. Pure C: the
 * host tests it (test/host/test_probe_insn.c).
 */
#ifndef TRACE_PROBE_INSN_H
#define TRACE_PROBE_INSN_H

#include <stdint.h>

/* NULL when insn may run out of line, else why not ("a branch (B, BL)"). */
const char *probe_insn_refusal(uint32_t insn);

#endif /* TRACE_PROBE_INSN_H */
