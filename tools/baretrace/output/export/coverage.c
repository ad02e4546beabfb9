/*
 * tools/baretrace/output/export/coverage.c: the coverage command. Reads the
 * coverage frames (types 8 and 9, docs/wire.md 2.11) of one or more
 * traces, ORs them per image, and hands the result to coverage_lcov.c
 * for the lcov tracefile and the per-folder summary.
 *
 * Which image a trace ran is told by its metadata's image hash: each
 * trace goes to the --elf whose .bt_tables hash is the same. A trace
 * that matches none is refused, with every hash named, before anything
 * is written (so several boards need an --elf each). A trace without a
 * hash (an old target, a synthetic trace) goes to the only ELF given,
 * with a warning, and is refused when there are several. A trace that
 * spans a reflash sends each boot's frames to that boot's image.
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

#include "export.h"

struct cov_state {
	struct bt_cov_image *img;
	size_t nimg;
	const char *trace;		/* being read */
	uint64_t trace_no;		/* its number, from 1 */
	struct bt_cov_image *cur;	/* its image, once a coverage frame came */
	uint32_t cur_hash;
	int cur_has_hash;
	uint64_t bad;			/* malformed coverage frames */
};

static struct bt_cov_image *image_of(struct cov_state *s, const struct bt_decoder *d)
{
	if (!d->meta.have_hash) {
		if (s->nimg > 1)
			bt_die(BT_EXIT_INPUT, "%s carries no image hash: with %zu ELFs given, "
			       "cannot tell which one it ran; read it with its own ELF alone",
			       s->trace, s->nimg);
		bt_warn("%s carries no image hash: cannot check that %s matches it", s->trace,
			s->img[0].elf);
		return &s->img[0];
	}
	for (size_t i = 0; i < s->nimg; i++)
		if (s->img[i].hash == d->meta.image_hash)
			return &s->img[i];
	fflush(stdout);
	fprintf(stderr, "baretrace: %s ran an image none of the ELFs given matches: image "
		"hash 0x%08x in the trace%s%s%s;", s->trace, d->meta.image_hash,
		d->meta.app ? " (app " : "", d->meta.app ? d->meta.app : "",
		d->meta.app ? ")" : "");
	for (size_t i = 0; i < s->nimg; i++)
		fprintf(stderr, "%s %s has 0x%08x", i ? "," : "", s->img[i].elf, s->img[i].hash);
	fprintf(stderr, ". Give that image's ELF with another --elf (one per board or "
		"build); nothing was written\n");
	exit(BT_EXIT_INPUT);
}

static void on_coverage(struct bt_decoder *d, const struct wire_frame *f)
{
	struct cov_state *s = d->user;
	struct bt_cov_image *img;

	/* The image is chosen (and warned about) once a trace, and again
	 * when a later boot's metadata names another (a trace may span a
	 * reflash: each boot's frames go to its own image). */
	if (s->cur && s->cur_has_hash == d->meta.have_hash && s->cur_hash == d->meta.image_hash)
		img = s->cur;
	else
		img = image_of(s, d);
	s->cur = img;
	s->cur_hash = d->meta.image_hash;
	s->cur_has_hash = d->meta.have_hash;
	if (img->last_trace != s->trace_no) {
		img->last_trace = s->trace_no;
		img->traces++;
	}
	if (bt_cov_add_frame(&img->cov, f->body, f->body_len)) {
		if (s->bad++ < 10)
			bt_warn("%s: coverage frame %llu (type %u) is malformed; skipped",
				s->trace, (unsigned long long)f->seq, f->type);
		return;
	}
	if (f->type == WIRE_FRAME_PREV_COVERAGE)
		img->prev_frames++;
}

/*
 * The target sends a whole set (every site's bit) each time; a trace
 * whose last set lacks a frame would count the sites it covered as not
 * reached, so it is refused. Whatever else the trace lost (ring
 * overwrites, the suites' own tracers' events, sequence gaps of data
 * frames) does not touch the coverage frames, which are sent apart.
 */
static void whole_or_die(const struct bt_cov_image *img, const char *trace)
{
	const struct bt_cov *c = &img->cov;

	if (bt_cov_set_whole(c))
		return;
	if (c->set_hole)
		bt_die(BT_EXIT_INPUT, "%s: a frame inside its last coverage set is missing "
		       "(lost on the wire?): the sites it covered would read as not reached; "
		       "nothing was written", trace);
	bt_die(BT_EXIT_INPUT, "%s: its last coverage set ends at site %llu of %llu: sites "
	       "%llu to %llu never arrived (a coverage frame lost on the wire?) and would read "
	       "as not reached; nothing was written", trace, (unsigned long long)c->set_end,
	       (unsigned long long)c->nsites, (unsigned long long)c->set_end,
	       (unsigned long long)c->nsites - 1);
}

static const struct bt_visitor cov_visitor = {
	.coverage = on_coverage,
};

int bt_coverage(const char *const *traces, size_t ntraces, const char *const *elfs,
		size_t nelfs, const char *out)
{
	struct cov_state s = { .nimg = nelfs };
	int rc = 0;

	for (size_t i = 0; i < ntraces; i++)
		bt_refuse_same_file(traces[i], out);
	for (size_t i = 0; i < nelfs; i++)
		bt_refuse_same_file(elfs[i], out);
	s.img = bt_alloc(sizeof(*s.img) * nelfs);
	for (size_t i = 0; i < nelfs; i++) {
		struct bt_cov_image *img = &s.img[i];

		img->elf = elfs[i];
		bt_symtab_init(&img->syms);
		bt_symtab_load_elf(&img->syms, elfs[i], &img->hash);
		for (size_t k = 0; k < i; k++)
			if (s.img[k].hash == img->hash)
				bt_die(BT_EXIT_USAGE, "%s and %s are the same image (hash 0x%08x): "
				       "give it once", elfs[k], elfs[i], img->hash);
		bt_cov_init(&img->cov, img->syms.nsites);
	}
	for (size_t i = 0; i < ntraces; i++) {
		struct bt_decoder d;
		uint64_t frames;

		for (size_t k = 0; k < nelfs; k++)
			bt_cov_set_begin(&s.img[k].cov);
		bt_dec_init(&d, &cov_visitor, &s);
		s.trace = traces[i];
		s.trace_no = i + 1;
		s.cur = NULL;
		if (bt_decode_file(&d, traces[i]))
			bt_die(BT_EXIT_INPUT, "cannot read %s; nothing was written", traces[i]);
		bt_dec_finish(&d);
		frames = d.coverage_frames;
		bt_dec_free(&d);
		/* As hist: a trace without the data asked for is an error,
		 * not a 0 % report a CI job would take for a result. */
		if (!frames)
			bt_die(BT_EXIT_INPUT, "%s has no coverage frames (was the run traced "
			       "with trace=coverage, by an image with coverage support?); "
			       "nothing was written", bt_file_name(traces[i]));
		for (size_t k = 0; k < nelfs; k++)
			if (s.img[k].last_trace == i + 1)
				whole_or_die(&s.img[k], bt_file_name(traces[i]));
	}
	for (size_t i = 0; i < nelfs; i++)
		if (s.img[i].cov.beyond)
			bt_warn("%llu sites reached past the %llu sites of %s were ignored",
				(unsigned long long)s.img[i].cov.beyond,
				(unsigned long long)s.img[i].cov.nsites, s.img[i].elf);
	rc = bt_cov_write(s.img, nelfs, ntraces, out);
	for (size_t i = 0; i < nelfs; i++) {
		bt_cov_free(&s.img[i].cov);
		bt_symtab_free(&s.img[i].syms);
	}
	free(s.img);
	return rc;
}

/* A bad command line: the message (naming arg, with the option it may
 * stand for), the pointer to --help, status 2; as main.c's for the others. */
static void __attribute__((noreturn)) bad_line(const char *msg, const char *arg, int guess)
{
	const char *near = guess ? bt_option_nearest(arg) : NULL;

	fprintf(stderr, "baretrace coverage: %s", msg);
	if (arg)
		fprintf(stderr, " '%s'", arg);
	if (near)
		fprintf(stderr, "; did you mean '%s'?", near);
	fputc('\n', stderr);
	bt_try_help("coverage");
}

/* argv[*i] is option name: "NAME VALUE" or "NAME=VALUE" into *val. */
static int option(int argc, char **argv, int *i, const char *name, const char **val)
{
	size_t n = strlen(name);

	if (strncmp(argv[*i], name, n) || (argv[*i][n] && argv[*i][n] != '='))
		return 0;
	if (argv[*i][n] == '=')
		*val = argv[*i] + n + 1;
	else if (*i + 1 < argc)
		*val = argv[++*i];
	else
		bad_line("option needs a value:", name, 0);
	return 1;
}

/* coverage TRACE... --elf ELF [--elf ELF]... -o FILE.info [--no-demangle] */
int bt_coverage_main(int argc, char **argv)
{
	const char **traces = bt_alloc(sizeof(char *) * 2 * (size_t)argc), **elfs = traces + argc;
	const char *out = NULL;
	size_t ntraces = 0, nelfs = 0;

	for (int i = 1; i < argc; i++) {
		if (option(argc, argv, &i, "--elf", &elfs[nelfs]))
			nelfs++;
		else if (option(argc, argv, &i, "-o", &out) ||
			 option(argc, argv, &i, "--output", &out))
			continue;
		else if (!strcmp(argv[i], "--no-demangle"))
			bt_sym_demangler = NULL;
		else if (bt_is_option(argv[i]))
			bad_line("unknown option", argv[i], 1);
		else
			traces[ntraces++] = argv[i];
	}
	if (!ntraces)
		bad_line("needs a trace file (made by 'baretrace capture')", NULL, 0);
	if (!nelfs)
		bad_line("needs --elf ELF: the image's baretrace.elf, for its source lines", NULL, 0);
	if (!out)
		bad_line("needs -o FILE.info, the lcov tracefile to write", NULL, 0);
	return bt_coverage(traces, ntraces, elfs, nelfs, out);
}
