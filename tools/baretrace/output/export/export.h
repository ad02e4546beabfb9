/*
 * tools/baretrace/output/export/export.h: the exports, each a file for
 * another program: Chrome JSON (export_chrome.c, chrome_*.c), folded
 * stacks (export_folded.c), SVG flame graphs (export_svg.c, svg_*.c),
 * CTF (export_ctf.c, ctf_*.c), trace-cmd .dat (export_tracecmd*.c,
 * bt_tracecmd.h) and lcov coverage (coverage.c, coverage_lcov.c).
 */
#ifndef TOOLS_BARETRACE_OUTPUT_EXPORT_H
#define TOOLS_BARETRACE_OUTPUT_EXPORT_H
#include "../../../../wire/wire.h"
#include "../../decode/decode.h"
#include "../../decode/symtab.h"
#include "../../model/flame.h"
#include "../../model/model.h"
#include "../render/render.h"

/* ---- chrome_calls.c ---------------------------------------------------- */

#define BT_CALLS_HOLD	65536	/* calls held per CPU before the earliest are written */

/* A returned call, as a complete event to write. */
struct bt_call {
	uint64_t cpu, start, end, site;
	uint64_t arrival;		/* set by bt_calls_add */
	int has_retval;
	int64_t retval;
	unsigned nargs;
	int64_t args[BT_ARGS_MAX];
	struct bt_strs *strs;		/* their strings, or NULL (malloc'd) */
};

struct bt_calls {
	struct bt_call *v;
	size_t n, cap;
	uint64_t arrivals;
};

typedef void (*bt_call_writer)(void *ctx, const struct bt_call *k);

/* Room for one more call (zeroed), writing the earliest half when full. */
struct bt_call *bt_calls_add(struct bt_calls *h, bt_call_writer write, void *ctx);
/* Writes all but 'keep' held calls, in the order viewers need. */
void bt_calls_write(struct bt_calls *h, size_t keep, bt_call_writer write, void *ctx);
void bt_calls_free(struct bt_calls *h);

/* ---- chrome_fields.c --------------------------------------------------- */

/* "tracepoint,SYSTEM" for "SYSTEM:event", else "tracepoint". */
void bt_chrome_category(const char *event, char *buf, size_t n);
/* ,"args":{...}: a tracepoint's fields, typed; 0, or -1 (no schema). */
int bt_chrome_fields(FILE *f, struct bt_decoder *d, const struct wire_record *r);
/* One counter ("C") event per integer field of a tracepoint record. */
void bt_chrome_counters(FILE *f, struct bt_decoder *d, const struct wire_record *r,
			unsigned tid);

int bt_export_chrome(const char *trace, const char *elf, const char *out, int counters);
/* chrome_numbers.c (export --numbers): report's entry numbers, loaded
 * once; then each entry's, by CPU, site and time (0: none). */
extern int bt_chrome_numbers;
void bt_chrome_numbers_load(const char *trace, const char *elf);
uint64_t bt_chrome_number(unsigned cpu, uint64_t site, uint64_t ts);
int bt_export_folded(const char *trace, const char *elf, const char *out, int per_cpu);
int bt_export_ctf(const char *trace, const char *elf, const char *out);
int bt_export_svg(const char *trace, const char *elf, const char *out, int per_cpu);
int bt_export_tracecmd(const char *trace, const char *elf, const char *out);

/* svg_style.c: XML text and attributes, bytes outside printable ASCII
 * as '?', at most max characters; a frame's fill colour, by module. */
void bt_svg_text(FILE *f, const char *s, size_t max);
void bt_svg_colour(const struct bt_flame *fl, uint32_t i, char *buf, size_t n);
/* svg_script.c: the <script> element at the end of each flame graph. */
extern const char bt_svg_script[];

/* ctf_meta.c: the TSDL text for export_ctf.c's streams. Id 5 was
 * lost_frames: losses are lost_events, in events, since wire version 2. */
enum { BT_CTF_FUNC, BT_CTF_GRAPH_ENTRY, BT_CTF_GRAPH_EXIT, BT_CTF_LOST_EVENTS,
       BT_CTF_PRINTF, BT_CTF_RETIRED_5, BT_CTF_FUNC_ARGS, BT_CTF_STACK_TRACE,
       BT_CTF_TRIGGER, BT_CTF_OUTCOME, BT_CTF_FIRST_TRACEPOINT = 16,
       /* one class per probe schema (meta.probes' index), above every
        * tracepoint slot meta.c can hold */
       BT_CTF_FIRST_PROBE = 65536 };
void bt_ctf_metadata(FILE *f, struct bt_decoder *d, const uint8_t uuid[16]);
/* The trace's UUID: the same trace file always gets the same one. */
void bt_ctf_uuid(const char *trace, uint8_t uuid[16]);

/* ---- coverage.c, coverage_lcov.c ------------------------------------------ */

/* One image given with --elf and what its traces reached. */
struct bt_cov_image {
	const char *elf;
	struct bt_symtab syms;
	uint32_t hash;			/* of its .bt_tables */
	struct bt_cov cov;		/* its sites, OR of its traces' frames */
	uint64_t traces;		/* traces with coverage frames read into it */
	uint64_t last_trace;		/* the number of the last of those */
	uint64_t prev_frames;		/* of those frames: previous boots' (type 9) */
};

/* `baretrace coverage ARGS`, parsed (argv[0] is "coverage"). */
int bt_coverage_main(int argc, char **argv);

/* The coverage command: traces merged per image, written to out as lcov
 * tracefile data, the per-folder summary on stdout; an exit status. */
int bt_coverage(const char *const *traces, size_t ntraces, const char *const *elfs,
		size_t nelfs, const char *out);
/* Functions of every image with their source lines (each ELF's DWARF),
 * merged by file and name, to out (replaced whole, or left as it was);
 * then the summary. */
int bt_cov_write(struct bt_cov_image *img, size_t nimg, size_t ntraces, const char *out);

#endif /* TOOLS_BARETRACE_OUTPUT_EXPORT_H */
