/*
 * tools/baretrace/output/export/coverage_lcov.c: the coverage command's output.
 * Every patchable function of every image, with its source file and line
 * (srcmap.c), merged by file and name (a function of two boards' images
 * is reached if either reached it), written as lcov tracefile data, then
 * a summary per top folder on stdout.
 *
 * lcov's form, per source file (as genhtml and `lcov --summary` read it):
 *   SF:<absolute path>
 *   FN:<line>,<name>        each function, at its first line
 *   FNDA:<0|1>,<name>       1: reached at least once (no counts: the
 *                           target records only the first hit)
 *   FNF:<functions> FNH:<reached>
 *   DA:<line>,<0|1>         each function's first line, so that tools
 *                           that show only lines show the functions
 *   LF:<lines> LH:<lines hit>
 *   end_of_record
 * Names are demangled C++ ones as everywhere in the tool, with every ','
 * written ';': lcov 1.16 ends a name at its first comma (FN:(\d+),([^,]+)),
 * which would cut "f(int, char)" to "f(int" and fold overloads together.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/util.h"
#include "../../decode/symtab.h"
#include "../../model/model.h"

#include "export.h"

struct cov_fn {
	char *file;		/* absolute where DWARF says so */
	const char *rel;	/* inside file: relative to the build directory */
	char *name;		/* as written: ',' -> ';' */
	int line, hit;
};

struct cov_list {
	struct cov_fn *fn;
	size_t n, cap;
	uint64_t no_line, no_line_hit;	/* sites the line table does not cover */
};

static char *lcov_name(const char *name)
{
	char *s = bt_strndup(name, strlen(name));

	for (char *p = s; *p; p++)
		if (*p == ',' || *p == '\n')
			*p = ';';
	return s;
}

static void add_image(struct cov_list *l, struct bt_cov_image *img)
{
	struct bt_srcmap m;
	size_t dlen;

	bt_srcmap_open(&m, img->elf);
	dlen = m.comp_dir ? strlen(m.comp_dir) : 0;
	for (uint64_t s = 0; s < img->syms.nsites; s++) {
		const struct bt_sym *sym = &img->syms.by_site[s];
		const char *file;
		int line, hit = bt_cov_is_reached(&img->cov, s);
		struct cov_fn *f;
		char *path;

		if (!sym->name)
			continue;
		if (bt_srcmap_find(&m, sym->start, &file, &line)) {
			l->no_line++;
			l->no_line_hit += (uint64_t)hit;
			continue;
		}
		if (file[0] != '/' && m.comp_dir) {
			path = bt_alloc(dlen + strlen(file) + 2);
			sprintf(path, "%s/%s", m.comp_dir, file);
		} else {
			path = bt_strndup(file, strlen(file));
		}
		l->fn = bt_grow(l->fn, &l->cap, l->n + 1, sizeof(*l->fn));
		f = &l->fn[l->n++];
		f->file = path;
		f->rel = path;
		if (dlen && !strncmp(path, m.comp_dir, dlen) && path[dlen] == '/')
			f->rel = path + dlen + 1;
		f->name = lcov_name(bt_sym_demangler ? sym->name : sym->raw ? sym->raw : sym->name);
		f->line = line;
		f->hit = hit;
	}
	bt_srcmap_close(&m);
}

static int by_file_name(const void *a, const void *b)
{
	const struct cov_fn *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	return c ? c : strcmp(x->name, y->name);
}

static int by_file_line(const void *a, const void *b)
{
	const struct cov_fn *x = a, *y = b;
	int c = strcmp(x->file, y->file);

	if (c)
		return c;
	return x->line != y->line ? (x->line < y->line ? -1 : 1) : strcmp(x->name, y->name);
}

/* One function per file and name: reached if any image reached it. */
static void merge(struct cov_list *l)
{
	size_t w = 0;

	qsort(l->fn, l->n, sizeof(*l->fn), by_file_name);
	for (size_t i = 0; i < l->n; i++) {
		if (w && !by_file_name(&l->fn[w - 1], &l->fn[i])) {
			l->fn[w - 1].hit |= l->fn[i].hit;
			if (l->fn[i].line < l->fn[w - 1].line)
				l->fn[w - 1].line = l->fn[i].line;
			free(l->fn[i].file);
			free(l->fn[i].name);
			continue;
		}
		l->fn[w++] = l->fn[i];
	}
	l->n = w;
	qsort(l->fn, l->n, sizeof(*l->fn), by_file_line);
}

/* One SF record: fn[0..n) share a file. */
static void write_file(FILE *f, const struct cov_fn *fn, size_t n)
{
	size_t hit = 0, lines = 0, lines_hit = 0;

	fprintf(f, "TN:\nSF:%s\n", fn[0].file);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "FN:%d,%s\n", fn[i].line, fn[i].name);
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "FNDA:%d,%s\n", fn[i].hit, fn[i].name);
		hit += (size_t)fn[i].hit;
	}
	fprintf(f, "FNF:%zu\nFNH:%zu\n", n, hit);
	/* One DA per line: two functions on one line make one line. */
	for (size_t i = 0; i < n;) {
		size_t j = i;
		int any = 0;

		for (; j < n && fn[j].line == fn[i].line; j++)
			any |= fn[j].hit;
		fprintf(f, "DA:%d,%d\n", fn[i].line, any);
		lines++;
		lines_hit += (size_t)any;
		i = j;
	}
	fprintf(f, "LF:%zu\nLH:%zu\nend_of_record\n", lines, lines_hit);
}

/* "kernel", or two levels for folders that hold many programs
 * ("examples/demo", "test/target", "build/third-party"). */
static size_t folder_len(const char *rel)
{
	size_t n = strcspn(rel, "/");

	if (rel[0] == '/' || !rel[n])
		return 0;
	if ((n == 8 && !strncmp(rel, "examples", 8)) || (n == 4 && !strncmp(rel, "test", 4)) ||
	    (n == 5 && !strncmp(rel, "build", 5))) {
		size_t m = strcspn(rel + n + 1, "/");

		if (rel[n + 1 + m])
			n += 1 + m;
	}
	return n;
}

static void summary(const struct cov_list *l, const struct bt_cov_image *img, size_t nimg,
		    size_t ntraces, const char *out, size_t nfiles)
{
	/* With -o -, the data is on stdout: the summary goes to stderr. */
	FILE *o = strcmp(out, "-") ? stdout : stderr;
	/* The kernel's folders always, in this order (trace/ has no
	 * patchable entry by design: 0 of 0), then the others as found. */
	static const char *const fixed[] = { "boot", "kernel", "trace", "drivers", "board" };
	struct { const char *name; size_t len; uint64_t fns, hit; } row[64];
	size_t nrow = 0;
	uint64_t fns = 0, hit = 0;

	for (; nrow < 5; nrow++)
		row[nrow] = (typeof(row[0])){ fixed[nrow], strlen(fixed[nrow]), 0, 0 };

	for (size_t i = 0; i < l->n; i++) {
		const char *r = l->fn[i].rel;
		size_t len = folder_len(r), k;

		if (!len)
			r = "(elsewhere)", len = strlen(r);
		for (k = 0; k < nrow && (row[k].len != len || strncmp(row[k].name, r, len)); k++)
			;
		if (k == nrow && nrow == 63)	/* the last row takes the rest */
			row[nrow++] = (typeof(row[0])){ "(other folders)", 15, 0, 0 };
		else if (k == nrow && nrow < 63)
			row[nrow++] = (typeof(row[0])){ r, len, 0, 0 };
		k = k < nrow ? k : 63;
		row[k].fns++;
		row[k].hit += (uint64_t)l->fn[i].hit;
		fns++;
		hit += (uint64_t)l->fn[i].hit;
	}
	fprintf(o, "coverage: %zu trace%s, %zu image%s: functions reached of functions patchable\n",
	       ntraces, bt_plural(ntraces), nimg, bt_plural(nimg));
	for (size_t i = 0; i < nimg; i++)
		fprintf(o, "  %s (image 0x%08x): %llu trace%s, %llu coverage frame%s (%llu of a "
		       "previous boot), %llu of %llu sites reached\n", img[i].elf, img[i].hash,
		       (unsigned long long)img[i].traces, bt_plural(img[i].traces),
		       (unsigned long long)img[i].cov.frames, bt_plural(img[i].cov.frames),
		       (unsigned long long)img[i].prev_frames,
		       (unsigned long long)bt_cov_count(&img[i].cov),
		       (unsigned long long)img[i].cov.nsites);
	fprintf(o, "  every trace's last coverage set is whole: events a trace lost (its rings,\n"
		"  its sequence gaps) are other tracers' and change nothing here\n");
	fprintf(o, "  %-28s %9s %9s %7s\n", "folder", "reached", "functions", "%");
	for (size_t k = 0; k < nrow; k++) {
		fprintf(o, "  %-28.*s %9llu %9llu ", (int)row[k].len, row[k].name,
		       (unsigned long long)row[k].hit, (unsigned long long)row[k].fns);
		if (row[k].fns)
			fprintf(o, "%6.1f%%\n", 100.0 * (double)row[k].hit / (double)row[k].fns);
		else
			fprintf(o, "%7s\n", "-");
	}
	fprintf(o, "  %-28s %9llu %9llu %6.1f%%\n", "total", (unsigned long long)hit,
	       (unsigned long long)fns, fns ? 100.0 * (double)hit / (double)fns : 0.0);
	if (l->no_line)
		fprintf(o, "  not in %s: %llu function%s with no source line in DWARF (%llu reached)\n",
		       out, (unsigned long long)l->no_line, bt_plural(l->no_line),
		       (unsigned long long)l->no_line_hit);
	fprintf(o, "wrote %s: %llu function%s in %zu source file%s (lcov tracefile)\n", out,
	       (unsigned long long)fns, bt_plural(fns), nfiles, bt_plural(nfiles));
}

int bt_cov_write(struct bt_cov_image *img, size_t nimg, size_t ntraces, const char *out)
{
	struct cov_list l = { 0 };
	size_t nfiles = 0;
	char *tmp = bt_alloc(strlen(out) + 8);
	FILE *f;

	for (size_t i = 0; i < nimg; i++)
		add_image(&l, &img[i]);
	merge(&l);
	/* Written beside it and renamed: a failure leaves out as it was
	 * ("-": standard output, written as it goes). */
	sprintf(tmp, "%s.tmp", out);
	f = strcmp(out, "-") ? fopen(tmp, "w") : stdout;
	if (!f)
		bt_die(BT_EXIT_INPUT, "cannot create %s: %s", tmp, strerror(errno));
	for (size_t i = 0; i < l.n;) {
		size_t j = i;

		while (j < l.n && !strcmp(l.fn[j].file, l.fn[i].file))
			j++;
		write_file(f, &l.fn[i], j - i);
		nfiles++;
		i = j;
	}
	if (f == stdout ? bt_out_close(f) : fflush(f) || ferror(f) || fclose(f) || rename(tmp, out)) {
		int e = errno;

		remove(tmp);
		bt_die(BT_EXIT_INPUT, "cannot write %s: %s", out, strerror(e));
	}
	summary(&l, img, nimg, ntraces, out, nfiles);
	for (size_t i = 0; i < l.n; i++) {
		free(l.fn[i].file);
		free(l.fn[i].name);
	}
	free(l.fn);
	free(tmp);
	return 0;
}
