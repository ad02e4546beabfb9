/*
 * tools/baretrace/goto.c: which event `baretrace goto` stops at, and
 * whether the run can be repeated at all. The run folder is make
 * record's (tools/record): record.txt, qemu.args, Image, baretrace.elf,
 * trace.bt. Refused, with the reason and exit status 1: a trace with no
 * run folder, a run not under -icount shift=0,sleep=off (by the folder
 * and by the capture's clock note; a one-CPU run with QEMU's rr log may
 * leave sleep on, tools/record says why), console input with more than one
 * CPU, an Image or ELF whose SHA-256 is not the recorded one, a trace
 * that lost events (the entries would be counted wrong).
 *
 * The event (goto_event.c: a number of report --numbers, FUNC[@CPU][#N]
 * or a time @T[@CPU]) is found among the entries as report numbers them
 * (the trace is read through report itself, its lines thrown away). gdb
 * counts the entries of FUNC per CPU, so the event becomes "the Nth
 * entry of FUNC on CPU c".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "decode/decode.h"
#include "goto.h"
#include "output/report/report.h"

static struct bt_entry_seen *seen;	/* every entry, in report's order */
static int64_t *seen_args;		/* 8 per entry */
static size_t nseen, seen_cap;

static void on_entry(const struct bt_entry_seen *e)
{
	if (nseen == seen_cap) {
		seen_cap = seen_cap ? 2 * seen_cap : 4096;
		seen = realloc(seen, seen_cap * sizeof(*seen));
		seen_args = realloc(seen_args, seen_cap * 8 * sizeof(*seen_args));
		if (!seen || !seen_args)
			bt_die(BT_EXIT_INPUT, "out of memory");
	}
	seen[nseen] = *e;
	memcpy(seen_args + 8 * nseen, e->args, e->nargs * sizeof(*e->args));
	nseen++;
}

static void on_record(struct bt_decoder *d, unsigned cpu, const struct wire_record *r)
{
	(void)d, (void)cpu, (void)r;
}

static int refuse(const char *why, const char *what)
{
	fprintf(stderr, "baretrace goto: ");
	fprintf(stderr, why, what);
	fprintf(stderr, "\n");
	return BT_EXIT_INPUT;
}

/* The value of 'key=' in record.txt, into buf; 0 if there is none. */
static int conf_get(const char *dir, const char *key, char *buf, size_t n)
{
	char path[4200], line[8192];
	size_t k = strlen(key);
	FILE *f;
	int found = 0;

	snprintf(path, sizeof(path), "%s/record.txt", dir);
	if (!(f = fopen(path, "r")))
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, k) && line[k] == '=') {
			line[strcspn(line, "\n")] = 0;
			snprintf(buf, n, "%s", line + k + 1);
			found = 1;
		}
	fclose(f);
	return found;
}

/* SHA-256 of dir/name equals record.txt's key (sha256sum computes it). */
static int hash_ok(const char *dir, const char *name, const char *key)
{
	char cmd[8400], got[128] = "", want[128];
	FILE *p;

	if (!conf_get(dir, key, want, sizeof(want)))
		return 0;
	snprintf(cmd, sizeof(cmd), "sha256sum < '%s/%s' 2>/dev/null", dir, name);
	if (!(p = popen(cmd, "r")))
		return 0;
	if (!fgets(got, sizeof(got), p))
		got[0] = 0;
	pclose(p);
	return strlen(want) == 64 && !strncmp(got, want, 64);
}

/* The run folder of RUN (a folder, or a file in one). */
static int find_dir(const char *run, char *dir, size_t n)
{
	struct stat st;
	char path[4200];

	if (stat(run, &st))
		return refuse("no run folder or trace '%s' (make record makes one)", run);
	snprintf(dir, n, "%s", run);
	if (!S_ISDIR(st.st_mode)) {
		char *slash = strrchr(dir, '/');

		if (slash)
			*slash = 0;
		else
			snprintf(dir, n, ".");
	}
	snprintf(path, sizeof(path), "%s/record.txt", dir);
	if (access(path, R_OK))
		return refuse("%s was not made by make record (no record.txt beside the trace): "
			      "goto reruns a recorded run exactly, docs/replay.md", run);
	return 0;
}

/* The folder's promises: icount, input, hashes. */
static int check_dir(const char *dir, int *replay, int *one_cpu)
{
	char icount[256] = "", smp[32] = "", input[4096] = "";

	conf_get(dir, "icount", icount, sizeof(icount));
	conf_get(dir, "smp", smp, sizeof(smp));
	conf_get(dir, "input", input, sizeof(input));
	*replay = strstr(icount, "rr=record") != NULL && !strcmp(smp, "1");
	/* QEMU's rr log repeats a one-CPU run whatever the clock did over
	 * idle time: with console input tools/record leaves sleep on. */
	if (strncmp(icount, "shift=0,sleep=off", 17) && !(*replay && !strncmp(icount, "shift=0,", 8)))
		return refuse("the run in %s was not recorded under -icount shift=0,sleep=off: "
			      "it cannot be repeated instruction for instruction", dir);
	if (input[0] && strcmp(smp, "1"))
		return refuse("the run in %s had console input with more than one CPU: "
			      "its bytes arrived at host-time moments", dir);
	if (!hash_ok(dir, "Image", "image_sha256"))
		return refuse("%s/Image is not the image recorded (its SHA-256 differs): "
			      "record the run again", dir);
	if (!hash_ok(dir, "baretrace.elf", "elf_sha256"))
		return refuse("%s/baretrace.elf is not the ELF recorded (its SHA-256 differs): "
			      "record the run again", dir);
	*one_cpu = !strcmp(smp, "1");
	return 0;
}

int bt_goto(const struct bt_goto_opts *o)
{
	static struct bt_decoder d;
	static const struct bt_visitor v = { .record = on_record };
	static struct bt_goto_stop s;
	struct bt_loss l;
	char trace[4200], nb[64];
	int rc, out;
	long i;

	if ((rc = find_dir(o->run, s.dir, sizeof(s.dir))) || (rc = check_dir(s.dir, &s.replay, &s.one_cpu)))
		return rc;
	snprintf(trace, sizeof(trace), "%s/trace.bt", s.dir);
	snprintf(s.elf, sizeof(s.elf), "%s/baretrace.elf", s.dir);
	bt_dec_init(&d, &v, NULL);
	bt_dec_use_elf(&d, s.elf);	/* its .bt_tables against the trace's hash */
	if ((rc = bt_decode_file(&d, trace)))
		return rc;
	if (!(bt_clock_exact(&d.clock) || (s.replay && d.clock.kind == BT_CLOCK_ICOUNT &&
					    d.clock.have_shift && !d.clock.adaptive)) ||
	    d.clock.shift != 0)
		return refuse("%s was not captured under -icount shift=0,sleep=off (its clock note "
			      "says otherwise): it cannot be repeated exactly", trace);
	bt_loss(&d, &l);
	if (l.lost || !l.totals)
		return refuse("%s lost events or has no end-of-stream totals: the entries of a "
			      "function cannot be counted as the run made them", trace);
	/* report's own numbering: its text goes to /dev/null. */
	fflush(stdout);
	out = dup(1);
	int null = open("/dev/null", O_WRONLY);

	if (out < 0 || null < 0 || dup2(null, 1) < 0)
		bt_die(BT_EXIT_INPUT, "goto: cannot set stdout aside: %s", strerror(errno));
	close(null);
	bt_report_entry_hook = on_entry;
	rc = bt_report(trace, s.elf);
	fflush(stdout);
	dup2(out, 1);
	close(out);
	if (rc)
		return rc;
	if ((i = bt_goto_find_event(&o->ev, o->event, seen, nseen, &d.syms, bt_freq(&d))) < 0)
		return BT_EXIT_INPUT;
	s.no = seen[i].no;
	s.cpu = seen[i].cpu;
	s.ts = seen[i].ts;
	s.nargs = seen[i].nargs;
	memcpy(s.args, seen_args + 8 * i, sizeof(s.args));
	s.func = strdup(bt_site_name(&d.syms, seen[i].site, nb, sizeof(nb)));
	s.nth = 0;
	for (long k = 0; k <= i; k++)
		s.nth += seen[k].cpu == s.cpu && seen[k].site == seen[i].site;
	if (seen[i].site >= d.syms.nsites || !d.syms.by_site[seen[i].site].name)
		return refuse("the ELF has no function for the event's site (%s)", s.func);
	s.text_base = d.meta.text_base;
	/* The site's BL (docs: the patch site, func+4): where the event is taken. */
	s.site_addr = s.text_base + d.syms.by_site[seen[i].site].start + 4;
	printf("baretrace goto: event #%llu: %s, entry %llu of it on CPU %u, at counter %llu\n",
	       (unsigned long long)s.no, s.func, (unsigned long long)s.nth, s.cpu,
	       (unsigned long long)s.ts);
	fflush(stdout);
	return bt_goto_gdb(&s, o->check);
}
