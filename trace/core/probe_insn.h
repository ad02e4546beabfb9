/*
 * trace/core/probe_insn.h: which A64 instructions a probe may displace,
 * and at which places of a function it may go.
 *
 * A probe replaces one instruction with BRK and runs the original out of
 * line, at another address (trace/core/probe.c). That is only the same
 * computation when the instruction does not depend on where it sits and
 * does not decide where execution goes next: so branches, everything
 * that reads the PC, exclusive load/store pairs (the BRK between a load
 * and its store clears the monitor, so the pair would retry for ever),
 * reads of the registers the BRK's own exception writes (ELR_EL1,
 * SPSR_EL1, ESR_EL1, FAR_EL1) and the instructions that generate
 * exceptions are refused (probe_insn.c). And the exception must not
 * fall between two instructions that rely on no exception coming
 * between them: from a load-exclusive to its store-exclusive, from a
 * write of ELR_EL1/SPSR_EL1 to the ERET that reads it (probe_window.c).
 * docs/probes.md lists every refusal. Pure C: the host tests it
 * (test/host/test_probe_insn.c, test/host/test_probe_window.c) and
 * fuzzes it (test/fuzz/fuzz_probe_place.c).
 */
#ifndef TRACE_PROBE_INSN_H
#define TRACE_PROBE_INSN_H

#include <stddef.h>
#include <stdint.h>

/* Words walked from an opening instruction to its closing one at most
 * (probe_window.c says why 32 is enough). */
#define PROBE_WINDOW_MAX	32

/* NULL when insn may run out of line, else why not ("a branch (B, BL)"). */
const char *probe_insn_refusal(uint32_t insn);

/* NULL when nothing around word 'at' of a function's code body[0..n)
 * forbids an exception there, else why. Reads body[0..n) only. */
const char *probe_window_refusal(const uint32_t *body, size_t n, size_t at);

/* Both: the word body[at] itself first, then its place. */
const char *probe_place_refusal(const uint32_t *body, size_t n, size_t at);

#endif /* TRACE_PROBE_INSN_H */
