/* sources: trace/core/probe_spec.c trace/core/probe_insn.c */
/*
 * test/fuzz/fuzz_probe_spec.c: a probe's text (trace_probe=, the probe
 * command) from arbitrary bytes, and an instruction word from the first
 * four. The parser must stay inside the text and, when it accepts it,
 * leave a spec whose every field is in range (names NUL-terminated, at
 * most 8 fetches, registers 0-34 (x0-x30, sp, pc, $retval, a global),
 * at most 3 reads each, types known, offsets multiples of 4);
 * when it refuses, it says why.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../trace/core/probe_insn.h"
#include "../../trace/core/probe_spec.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	struct probe_spec s;
	const char *why = NULL;

	memcpy(text, data, size);
	text[size] = '\0';
	if (size >= 4) {
		uint32_t insn;

		memcpy(&insn, data, 4);
		const char *r = probe_insn_refusal(insn);

		must(!r || *r);
	}
	if (probe_spec_parse(text, &s, &why)) {
		must(why && *why);
	} else {
		must(memchr(s.name, 0, sizeof(s.name)) && s.name[0]);
		must(memchr(s.sym, 0, sizeof(s.sym)) && s.sym[0]);
		must(s.offset % 4 == 0 && s.nfetch <= PROBE_FETCH_MAX);
		for (unsigned int k = 0; k < s.nfetch; k++) {
			must(memchr(s.fetch[k].name, 0, sizeof(s.fetch[k].name)) != NULL);
			const struct probe_fetch *f = &s.fetch[k];

			must(f->reg <= PROBE_REG_GLOBAL && f->deref <= PROBE_DEREF_MAX);
			must(strcmp(probe_type_name(f->type), "?") != 0);
			must(!f->deref || f->reg != PROBE_REG_PC);
			/* $retval only in a return probe, which fetches nothing
			 * but it, sp, memory at them and globals */
			must(f->reg != PROBE_REG_RETVAL || s.ret);
			must(!s.ret || f->reg == PROBE_REG_RETVAL || f->reg == PROBE_REG_SP ||
			     f->reg == PROBE_REG_GLOBAL);
			/* a global is memory, named */
			must(f->reg != PROBE_REG_GLOBAL ||
			     (f->deref >= 1 && f->gsym[0] && memchr(f->gsym, 0, sizeof(f->gsym))));
		}
	}
	free(text);
	return 0;
}
