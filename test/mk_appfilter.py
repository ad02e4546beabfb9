"""test/mk_appfilter.py: which functions make run traces (issue 40 item
14; docs/tracing.md "Choosing functions").

A temporary application outside the repository, booted three times with
make run:
  - no trace_filter file, no TRACE_FILTER=: the trace holds the
    application's own functions and none of the kernel's (the default
    is @app, the functions whose objects are the application's);
  - TRACE_FILTER='@app bootargs_*': the application's functions and the
    kernel's bootargs_app_argc (which the kernel calls on the way into
    main(), on every run);
  - a trace_filter file with comments, several patterns on a line and
    '!': what it names, less what '!' leaves out, and nothing a comment
    names; no pattern of it is reported as matching nothing.
"""
import os
import re
import shutil
import tempfile

APP_C = r"""#include <baretrace.h>

/* Not static, so the names stay; noinline, so each call is one. */
__attribute__((noinline)) int af_leaf(int x)
{
	return x * 3 + 1;
}

__attribute__((noinline)) int af_work(int n)
{
	int sum = 0;

	for (int i = 0; i < n; i++)
		sum += af_leaf(i);
	return sum;
}

int main(void)
{
	return af_work(4) == 22 ? 0 : 1;
}
"""
APP_FUNCS = {"main", "af_work", "af_leaf"}

# Comments (whole line and after patterns), several patterns on a line
# (spaces and commas), '!'. The commented-out bootargs_app_argv would be
# traced if the comment reached the kernel.
FILTER_FILE = """# trace_filter of test/mk_appfilter.py
af_*  !af_leaf     # the work, not its leaf
main,bootargs_app_argc
# not traced: bootargs_app_argv
"""

FUNC_RE = re.compile(r"([A-Za-z_][\w.]*)\(\)")


def traced(run_dir):
    """The functions named in RUN_DIR/trace.txt, clone suffixes
    (.isra.0, .constprop.0) taken off."""
    try:
        with open(os.path.join(run_dir, "trace.txt"), errors="replace") as f:
            return {m.split(".")[0] for m in FUNC_RE.findall(f.read())}
    except FileNotFoundError:
        return set()


def make_run(h, board, app, run_dir, *args):
    shutil.rmtree(run_dir, ignore_errors=True)
    return h.run(["make", f"BOARD={board}", f"APP={app}", f"RUN_DIR={run_dir}", "TIMEOUT=60",
                  *args, "run"], timeout=420)


def check(h, res, board):
    tmp = tempfile.mkdtemp(prefix="bt-appfilter-")
    app = os.path.join(tmp, "app")
    os.makedirs(app)
    with open(os.path.join(app, "main.c"), "w") as f:
        f.write(APP_C)
    run_dir = os.path.join(tmp, "run")
    try:
        st, out = make_run(h, board, app, run_dir)
        got = traced(run_dir)
        res.record("make run of an app without trace_filter traces its own functions and "
                   "none of the kernel's (default @app)",
                   st == 0 and {"main", "af_work", "af_leaf"} <= got and got <= APP_FUNCS
                   and re.search(r"^bootargs: .*trace_filter=@app\b", out, re.M),
                   out[-2500:] + f"\nstatus {st}, traced {sorted(got)}")

        st, out = make_run(h, board, app, run_dir, "TRACE_FILTER=@app bootargs_*")
        got = traced(run_dir)
        res.record("make TRACE_FILTER='@app bootargs_*' run traces the app's functions and "
                   "the kernel's bootargs_app_argc",
                   st == 0 and {"main", "af_work", "af_leaf", "bootargs_app_argc"} <= got
                   and "matches no function" not in out,
                   out[-2500:] + f"\nstatus {st}, traced {sorted(got)}")

        with open(os.path.join(app, "trace_filter"), "w") as f:
            f.write(FILTER_FILE)
        st, out = make_run(h, board, app, run_dir)
        got = traced(run_dir)
        res.record("a trace_filter file with comments, several patterns a line and '!': "
                   "af_work, main and bootargs_app_argc, not af_leaf nor the commented-out "
                   "bootargs_app_argv",
                   st == 0 and got == {"main", "af_work", "bootargs_app_argc"}
                   and "matches no function" not in out,
                   out[-2500:] + f"\nstatus {st}, traced {sorted(got)}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(h.make_dir(board, app), ignore_errors=True)
        shutil.rmtree(os.path.join(h.ROOT, "build", board, "obj", "app", "abs", app.lstrip("/")),
                      ignore_errors=True)
