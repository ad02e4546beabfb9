/*
 * tools/baretrace/output/stats/hist.c: the hist command. Reads the duration
 * histograms of a run (frame type 10, docs/wire.md 2.12; model/hist.c
 * keeps each CPU's latest dump) and prints, per function, its calls per
 * power-of-two range of counter ticks as bars (all CPUs summed, or each
 * CPU with --per-cpu), or the same numbers as JSON.
 *
 *   hist TRACE.bt [--elf ELF] [--per-cpu] [--json] [--no-demangle]
 */
#include <stdlib.h>
#include <string.h>

#include "../../../../wire/wire.h"
#include "../../base/util.h"
#include "../../bt.h"
#include "../../decode/decode.h"
#include "../../decode/symtab.h"
#include "../../input/tracefile.h"
#include "../../model/model.h"
#include "../render/render.h"

#include "stats.h"

#define BAR_WIDTH	40

static void on_hist(struct bt_decoder *d, const struct wire_frame *f)
{
	struct bt_hist *h = d->user;

	if (bt_hist_add_frame(h, f->cpu, f->body, f->body_len) && !d->quiet)
		bt_warn("histogram frame %llu (CPU %u) is malformed or of an unknown kind; "
			"skipped", (unsigned long long)f->seq, f->cpu);
}

static const struct bt_visitor hist_visitor = { .hist = on_hist };

/* Ticks to ns at the trace's counter rate (0 Hz: unknown, no ns). */
static uint64_t ns_of(uint64_t ticks, uint64_t hz)
{
	return hz ? (uint64_t)((unsigned __int128)ticks * 1000000000u / hz) : 0;
}

static void bars(const struct bt_hist_fn *f, uint64_t hz)
{
	unsigned lo = WIRE_HIST_BUCKETS, hi = 0;
	uint64_t most = 0;

	for (unsigned b = 0; b < WIRE_HIST_BUCKETS; b++)
		if (f->bucket[b]) {
			lo = b < lo ? b : lo;
			hi = b;
			most = f->bucket[b] > most ? f->bucket[b] : most;
		}
	printf("%26s %30s : %-10s distribution\n", "ticks", hz ? "ns" : "", "count");
	for (unsigned b = lo; b <= hi && most; b++) {
		uint64_t from, to;
		unsigned stars = (unsigned)(f->bucket[b] * BAR_WIDTH / most);
		char ticks[64], ns[64] = "";

		bt_hist_range(b, &from, &to);
		snprintf(ticks, sizeof(ticks), "%llu -> %llu", (unsigned long long)from,
			 (unsigned long long)to);
		if (hz)
			snprintf(ns, sizeof(ns), "%llu -> %llu", (unsigned long long)ns_of(from, hz),
				 (unsigned long long)(to == UINT64_MAX ? UINT64_MAX :
						      ns_of(to + 1, hz) - 1));
		printf("%26s %30s : %-10llu |%-*.*s|\n", ticks, ns, (unsigned long long)f->bucket[b],
		       BAR_WIDTH, stars, "****************************************");
	}
}

static void head(const char *name, const struct bt_hist_fn *f, const char *where, uint64_t hz)
{
	printf("%s%s: %llu call%s", name, where, (unsigned long long)f->calls, bt_plural(f->calls));
	if (f->cpus)
		printf(" on %u CPU%s", f->cpus, f->cpus == 1 ? "" : "s");
	if (f->calls)
		printf(", average %llu ticks (%llu ns), p50 <= %llu, p99 <= %llu ticks",
		       (unsigned long long)(f->sum / f->calls),
		       (unsigned long long)ns_of(f->sum / f->calls, hz),
		       (unsigned long long)bt_hist_percentile(f, 50),
		       (unsigned long long)bt_hist_percentile(f, 99));
	putchar('\n');
}

static void json_fn(const char *name, const struct bt_hist_fn *sum, const struct bt_hist *h)
{
	int first = 1;

	fputs("{\"function\":", stdout);
	bt_json_str(stdout, name);
	printf(",\"site\":%llu,\"calls\":%llu,\"sum_ticks\":%llu,\"cpus\":%u,"
	       "\"p50_ticks\":%llu,\"p90_ticks\":%llu,\"p99_ticks\":%llu,",
	       (unsigned long long)sum->site, (unsigned long long)sum->calls,
	       (unsigned long long)sum->sum, sum->cpus,
	       (unsigned long long)bt_hist_percentile(sum, 50),
	       (unsigned long long)bt_hist_percentile(sum, 90),
	       (unsigned long long)bt_hist_percentile(sum, 99));
	bt_hist_json_buckets(sum, "_ticks");
	fputs(",\"per_cpu\":[", stdout);
	for (unsigned c = 0; c < BT_MAX_CPUS; c++) {
		const struct bt_hist_fn *f = bt_hist_of(h, c, sum->site);

		if (!f)
			continue;
		printf("%s{\"cpu\":%u,\"calls\":%llu,\"sum_ticks\":%llu,", first ? "" : ",", c,
		       (unsigned long long)f->calls, (unsigned long long)f->sum);
		bt_hist_json_buckets(f, "_ticks");
		putchar('}');
		first = 0;
	}
	fputs("]}", stdout);
}

void bt_hist_load(const char *trace, const char *elf, struct bt_decoder *d, struct bt_hist *h)
{
	bt_hist_init(h);
	bt_dec_init(d, &hist_visitor, h);
	if (elf)
		bt_dec_use_elf(d, elf);
	if (bt_decode_file(d, trace))
		bt_die(BT_EXIT_INPUT, "cannot read %s", trace);
	bt_dec_finish(d);
	if (!d->hist_frames)
		bt_die(BT_EXIT_INPUT, "%s has no histogram frames (was the run traced with "
		       "trace_hist= or 'hist on', by an image with histogram support?)",
		       bt_file_name(trace));
	if (h->orphans)
		bt_warn("%s: %llu histogram frames whose dump began in a frame not in the trace "
			"were left out", trace, (unsigned long long)h->orphans);
}

int bt_hist_cmd(const char *trace, const char *elf, int per_cpu, int json)
{
	struct bt_decoder d;
	struct bt_hist h;
	uint64_t *sites, hz;
	size_t n;
	char buf[64];

	bt_hist_load(trace, elf, &d, &h);
	hz = d.meta.freq;
	n = bt_hist_sites(&h, &sites);
	if (json)
		printf("{\"freq_hz\":%llu,\"unit\":\"ticks\",\"functions\":[",
		       (unsigned long long)hz);	/* "]," then "events":[...] at the end */
	else if (n && bt_clock_exact(&d.clock))	/* make ci's: say what a tick is */
		printf("# exact: QEMU -icount shift=%u,sleep=off: instructions per tick %g\n\n",
		       d.clock.shift, hz ? 1e9 / (double)hz / (double)(1u << d.clock.shift) : 1.0);
	for (size_t i = 0; i < n; i++) {
		const char *name = bt_site_name(&d.syms, sites[i], buf, sizeof(buf));
		struct bt_hist_fn sum;

		bt_hist_sum(&h, sites[i], &sum);
		if (json) {
			if (i)
				putchar(',');
			json_fn(name, &sum, &h);
			continue;
		}
		if (i)
			putchar('\n');
		head(name, &sum, "", hz);
		bars(&sum, hz);
		for (unsigned c = 0; per_cpu && c < BT_MAX_CPUS; c++) {
			const struct bt_hist_fn *f = bt_hist_of(&h, c, sites[i]);
			char where[32];

			if (!f)
				continue;
			snprintf(where, sizeof(where), " on CPU %u", c);
			head(name, f, where, hz);
			bars(f, hz);
		}
	}
	if (json) {
		fputs("],", stdout);
		bt_hist_ev_json(&d, &h);
		puts("}");
	} else if (!bt_hist_ev_print(&d, &h, per_cpu, n != 0) && !n) {
		printf("no function had a call in the histograms (%llu frames)\n",
		       (unsigned long long)h.frames);
	}
	free(sites);
	bt_dec_free(&d);
	bt_hist_free(&h);
	return 0;
}

/* A bad command line: the message, the pointer to its --help, status 2. */
static void __attribute__((noreturn)) bad_line(const char *msg, const char *arg)
{
	const char *near = arg && arg[0] == '-' ? bt_option_nearest(arg) : NULL;

	fprintf(stderr, "baretrace hist: %s", msg);
	if (arg)
		fprintf(stderr, " '%s'", arg);
	if (near)
		fprintf(stderr, "; did you mean '%s'?", near);
	fputc('\n', stderr);
	bt_try_help("hist");
}

/* hist TRACE.bt [--elf ELF] [--per-cpu] [--json] [--no-demangle] */
int bt_hist_main(int argc, char **argv)
{
	const char *trace = NULL, *elf = NULL;
	int per_cpu = 0, json = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--elf") && i + 1 < argc)
			elf = argv[++i];
		else if (!strncmp(argv[i], "--elf=", 6))
			elf = argv[i] + 6;
		else if (!strcmp(argv[i], "--elf"))
			bad_line("option needs a value:", argv[i]);
		else if (!strcmp(argv[i], "--per-cpu"))
			per_cpu = 1;
		else if (!strcmp(argv[i], "--json"))
			json = 1;
		else if (!strcmp(argv[i], "--no-demangle"))
			bt_sym_demangler = NULL;
		else if (bt_is_option(argv[i]))
			bad_line("unknown option", argv[i]);
		else if (trace)
			bad_line("takes one trace file; unexpected", argv[i]);
		else
			trace = argv[i];
	}
	if (!trace)
		bad_line("needs a trace file (made by 'baretrace capture')", NULL);
	if (json && per_cpu)
		bad_line("--json carries every CPU already: give --per-cpu or --json", NULL);
	return bt_hist_cmd(trace, elf, per_cpu, json);
}
