/*
 * tools/baretrace/goto_gdb.c: runs a recorded run again under gdb to an
 * event (goto.c chose it). The QEMU line is the run folder's qemu.args
 * as recorded, but for three changes that do not reach the guest: the
 * console goes to a file instead of the capture's pipe (QEMU's PL011
 * shows the guest the same registers either way), a one-CPU run replays
 * its rr log (rr=replay instead of rr=record), and the gdb stub waits on
 * stdio (-gdb stdio -S). gdb-multiarch starts it itself ("target remote
 * | script"), with tools/gdb/goto.py doing the stop and its checks.
 *
 * A checking run always comes first; without --check, a second run
 * lands on the event again and gives the user gdb's prompt there (the
 * checking run stepped on past the event to read the counter).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/util.h"
#include "goto.h"

/* 'arg' single-quoted for sh. */
static void put_quoted(FILE *f, const char *arg)
{
	fputc('\'', f);
	for (; *arg; arg++)
		if (*arg == '\'')
			fputs("'\\''", f);
		else
			fputc(*arg, f);
	fputs("' ", f);
}

/* tmp/qemu.sh: the recorded line, changed as the header says. */
static void write_qemu(const struct bt_goto_stop *s, const char *tmp)
{
	char path[4200], line[8192], prev[8192] = "";
	FILE *in, *out;

	snprintf(path, sizeof(path), "%s/qemu.args", s->dir);
	if (!(in = fopen(path, "r")))
		bt_die(BT_EXIT_INPUT, "goto: cannot read %s: %s", path, strerror(errno));
	snprintf(path, sizeof(path), "%s/qemu.sh", tmp);
	if (!(out = fopen(path, "w")))
		bt_die(BT_EXIT_INPUT, "goto: cannot write %s: %s", path, strerror(errno));
	fprintf(out, "#!/bin/sh\ncd ");
	put_quoted(out, s->dir);
	fprintf(out, "&& exec ");
	while (fgets(line, sizeof(line), in)) {
		char *rr;

		line[strcspn(line, "\n")] = 0;
		if (!strcmp(prev, "-serial") && !strcmp(line, "stdio"))
			snprintf(line, sizeof(line), "file:%s/console.log", tmp);
		if (!strcmp(prev, "-icount") && (rr = strstr(line, "rr=record")))
			memcpy(rr, "rr=replay", 9);
		put_quoted(out, line);
		snprintf(prev, sizeof(prev), "%s", line);
	}
	fprintf(out, "-gdb stdio -S\n");
	fclose(in);
	if (fclose(out) || chmod(path, 0755))
		bt_die(BT_EXIT_INPUT, "goto: cannot write %s", path);
}

/* Where tools/gdb is: beside this binary's source tree (build/host/..),
 * or $BARETRACE_GDB_DIR. */
static void gdb_dir(char *buf, size_t n)
{
	char exe[PATH_MAX];
	ssize_t k;

	if (getenv("BARETRACE_GDB_DIR")) {
		snprintf(buf, n, "%s", getenv("BARETRACE_GDB_DIR"));
		return;
	}
	k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[k > 0 ? k : 0] = 0;
	if (strrchr(exe, '/'))
		*strrchr(exe, '/') = 0;
	snprintf(buf, n, "%s/../../tools/gdb", exe);
}

static void write_script(const struct bt_goto_stop *s, const char *tmp, int check)
{
	char path[4200], dir[PATH_MAX + 64];
	FILE *f;

	gdb_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/goto.gdb", tmp);
	if (!(f = fopen(path, "w")))
		bt_die(BT_EXIT_INPUT, "goto: cannot write %s: %s", path, strerror(errno));
	fprintf(f, "set pagination off\nset confirm off\nset architecture aarch64\n"
		   "add-symbol-file %s -o %#llx\n"
		   "target remote | %s/qemu.sh\n"
		   "source %s/goto.py\n",
		s->elf, (unsigned long long)s->text_base, tmp, dir);
	if (!check)	/* baretrace-around reads what comes next in the trace */
		fprintf(f, "source %s/baretrace.py\nbaretrace-trace %s/trace.bt\n", dir, s->dir);
	fprintf(f, "baretrace-goto %u %#llx %llu %llu %d %d %u", s->cpu + 1,
		(unsigned long long)s->site_addr, (unsigned long long)s->nth,
		(unsigned long long)s->ts, check, s->one_cpu, s->nargs);
	for (unsigned i = 0; i < s->nargs; i++)
		fprintf(f, " %lld", (long long)s->args[i]);
	fprintf(f, "\n");
	if (fclose(f))
		bt_die(BT_EXIT_INPUT, "goto: cannot write %s", path);
}

static int run_gdb(const char *tmp, int check)
{
	char script[4200];
	int status;
	pid_t pid;

	snprintf(script, sizeof(script), "%s/goto.gdb", tmp);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		bt_die(BT_EXIT_INPUT, "goto: fork: %s", strerror(errno));
	if (!pid) {
		if (check)
			execlp("gdb-multiarch", "gdb-multiarch", "-q", "-nx", "-batch", "-x", script,
			       (char *)NULL);
		else
			execlp("gdb-multiarch", "gdb-multiarch", "-q", "-nx", "-x", script, (char *)NULL);
		fprintf(stderr, "baretrace goto: cannot run gdb-multiarch: %s (tools/setup "
			"installs it)\n", strerror(errno));
		_exit(BT_EXIT_INPUT);
	}
	if (waitpid(pid, &status, 0) < 0)
		bt_die(BT_EXIT_INPUT, "goto: waitpid: %s", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : BT_EXIT_INPUT;
}

int bt_goto_gdb(const struct bt_goto_stop *s, int check)
{
	char tmp[] = "/tmp/baretrace-goto.XXXXXX", cmd[256];
	int rc;

	if (!mkdtemp(tmp))
		bt_die(BT_EXIT_INPUT, "goto: mkdtemp: %s", strerror(errno));
	write_qemu(s, tmp);
	write_script(s, tmp, 1);
	rc = run_gdb(tmp, 1);
	if (rc)
		fprintf(stderr, "baretrace goto: the rerun did not stop at event #%llu (above: "
			"how it differs)\n", (unsigned long long)s->no);
	else if (!check) {
		write_script(s, tmp, 0);
		rc = run_gdb(tmp, 0);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd))
		rc = rc ? rc : BT_EXIT_INPUT;
	return rc;
}
