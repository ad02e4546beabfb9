"""test/mk_apps.py: the 'make' stage's application checks (issue 40,
items 9-13 and 15): applications build as the user wrote them.

One app, in a temporary folder named `kernel` outside the tree, reached
by a relative path with '..' (APP=../../tmp/.../kernel): its objects stay
under build/BOARD/obj/app/ and never touch the kernel's, even for the
path that used to land exactly on them (a symlink whose '..'s climb out
of obj/app/); a variable its app.mk reads (ITER), changed on the command
line, rebuilds it (the Image holds the new value) and an unchanged
command rebuilds nothing; APP_CFLAGS/APP_CXXFLAGS add flags (a boot
prints what they defined, baretrace.h still found); app-ignore's docs/**
and app-srcs' **/*.c reach every depth; the Makefile's own flag variables and app.mk's are
refused on the command line; a plain make afterwards rebuilds no kernel
object. Also: ICOUNT=1 with -icount in QEMU_FLAGS is refused, an app
without main() is told so, and docs/applications.md's table of the
application's flags is the Makefile's (both boards' CPUs).

Two app builds, one build and boot, the rest parse-time refusals and
print-VAR (about a minute on a loaded 2-core host).
"""
import glob
import os
import re
import shutil
import tempfile

TAG = "kernel-app-iter="


def make(h, board, *args, timeout=300):
    st, out = h.run(["make", f"BOARD={board}"] + list(args), timeout=timeout)
    return st, out.replace("\r", "")


def printed(h, board, var, *args):
    _, out = h.run(["make", "-s", f"BOARD={board}"] + list(args) + [f"print-{var}"])
    lines = out.strip().splitlines()
    return lines[-1].split() if lines else []


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def mtimes(h, paths):
    return {p: os.stat(os.path.join(h.ROOT, p)).st_mtime_ns
            for p in paths if os.path.exists(os.path.join(h.ROOT, p))}


def under(path, folder):
    path = os.path.normpath(path)
    return path.startswith(os.path.normpath(folder) + os.sep)


def image_tag(h, board, app, *args):
    """The ITER value the app's built Image holds ('' if none)."""
    out_dir = printed(h, board, "OUT", f"APP={app}", *args)
    try:
        with open(os.path.join(h.ROOT, out_dir[0], "Image"), "rb") as f:
            m = re.search(rb"kernel-app-iter=(\w+)\0", f.read())
    except (OSError, IndexError):
        return ""
    return m.group(1).decode() if m else ""


def make_app(tmp):
    """The app folder named kernel, and one without main()."""
    app = os.path.join(tmp, "kernel")
    write(f"{app}/main.c", "#include <stdio.h>\n#include <baretrace.h>\n"
          "#ifndef GREETING\n#define GREETING 0\n#endif\n"
          "#define STR_(x) #x\n#define STR(x) STR_(x)\n"
          f"static const char tag[] = \"{TAG}\" STR(ITER);\n"
          "int cxx_value(void);\n"
          "int main(void)\n{\n"
          "\tprintf(\"kernel-app: %s greeting %d cxx %d on %u CPUs\\n\",\n"
          "\t       tag, GREETING, cxx_value(), smp_num_cpus());\n"
          "\treturn 0;\n}\n")
    write(f"{app}/lib/value.cpp", "#ifndef CXXV\n#define CXXV 0\n#endif\n"
          "#ifndef GREETING\n#define GREETING 0\n#endif\n"
          "extern \"C\" int cxx_value(void) { return CXXV * 100 + GREETING; }\n")
    write(f"{app}/app.mk", "ITER ?= 20\napp-srcs := main.c lib/*.cpp\napp-defines := ITER=$(ITER)\n"
          "app-ignore := docs/**\n")
    write(f"{app}/docs/guide.md", "how to\n")
    write(f"{app}/docs/a/b/deep.txt", "deep\n")
    write(f"{app}/docs/a/b/example.c", "#error docs/** is ignored, never built\n")
    write(f"{app}/notes.rs", "fn main() {}\n")
    nomain = os.path.join(tmp, "nomain")
    write(f"{nomain}/helper.c", "int helper(int v) { return v + 1; }\n")
    return app, nomain


def check_paths(h, res, board, app, tmp):
    """Item 9 by print-VAR, no build: where the objects and OUT go."""
    obj = os.path.join("build", board, "obj")
    kernel = {os.path.normpath(p) for p in printed(h, board, "KERNEL_OBJS")}
    # A symlink in the build folder whose '..'s climb back out of it to
    # tmp/kernel; under obj/app/ the same '..'s climbed out of obj/app/
    # onto obj/kernel/main.c.o, the kernel's main.
    link_dir = os.path.join(h.ROOT, "build", "apps-test", "mk-apps")
    os.makedirs(link_dir, exist_ok=True)
    link = os.path.join(link_dir, "P")
    depth = len(os.path.relpath(link, h.ROOT).split(os.sep))
    target = os.path.join(tmp, *["d"] * (depth + 1))
    os.makedirs(target, exist_ok=True)
    if os.path.lexists(link):
        os.remove(link)
    os.symlink(target, link)
    climbing = os.path.join(os.path.relpath(link, h.ROOT), *[".."] * (depth + 1), "kernel")
    bad = []
    for path in (os.path.relpath(app, h.ROOT), climbing):
        objs = printed(h, board, "APP_OBJS", f"APP={path}")
        out_dir = printed(h, board, "OUT", f"APP={path}")
        for o in objs:
            if not under(o, os.path.join(obj, "app")) or os.path.normpath(o) in kernel:
                bad.append(f"APP={path}: object {o} ({os.path.normpath(o)}) outside "
                           f"{obj}/app/ or a kernel object's path")
        if len(out_dir) != 1 or os.path.dirname(os.path.normpath(out_dir[0])) != \
                os.path.join("build", board) or ".." in out_dir[0].split("/"):
            bad.append(f"APP={path}: OUT {out_dir} is not a folder of build/{board}/")
        if not any(o.endswith("/kernel/main.c.o") for o in objs):
            bad.append(f"APP={path}: no main.c object among {objs}")
    res.record("mk_apps: APP=../tmp/kernel and a path whose '..'s climb out of obj/app/: "
               "every app object under obj/app/, none on a kernel object, OUT a folder of "
               f"build/{board}/", kernel and not bad, "\n".join(bad))


def check_build(h, res, board, app):
    """Items 9-12 by building the app named kernel, then the demo."""
    rel = os.path.relpath(app, h.ROOT)
    st, out = make(h, board)
    if st != 0:
        res.record("mk_apps: the demo builds first", False, out)
        return
    kernel_objs = printed(h, board, "KERNEL_OBJS")
    before = mtimes(h, kernel_objs)

    # The files named SKIP are named as make reads the app (make -n),
    # here by its absolute path.
    st, out = make(h, board, f"APP={app}", "-n")
    skips = re.findall(r"^  SKIP    (\S+)", out, re.M)
    res.record("mk_apps: app-ignore := docs/** ignores docs/ at every depth (no SKIP line "
               "for docs/a/b/deep.txt or docs/a/b/example.c); notes.rs still named",
               st == 0 and not [s for s in skips if "/docs/" in s] and
               any(s.endswith("/notes.rs") for s in skips), out[-2000:] + f"\nstatus {st}; named {skips}")

    # '**' in app-srcs, matching no folder too (the top's main.c).
    deep = os.path.join(os.path.dirname(app), "deep")
    write(f"{deep}/main.c", "int main(void) { return 0; }\n")
    write(f"{deep}/lib/a/b/leaf.c", "int leaf(void) { return 1; }\n")
    write(f"{deep}/app.mk", "app-srcs := **/*.c\n")
    srcs = printed(h, board, "APP_SRCS", f"APP={deep}")
    res.record("mk_apps: app-srcs := **/*.c takes the .c files of every depth, the top's included",
               srcs == [f"{deep}/lib/a/b/leaf.c", f"{deep}/main.c"], f"APP_SRCS: {srcs}")

    st, out = make(h, board, f"APP={rel}", "ITER=3")
    objs = printed(h, board, "APP_OBJS", f"APP={rel}", "ITER=3")
    tag3 = image_tag(h, board, rel, "ITER=3")
    st5, out5 = make(h, board, f"APP={rel}", "ITER=5")
    tag5 = image_tag(h, board, rel, "ITER=5")
    res.record("mk_apps: a variable app.mk reads (ITER), changed on the command line, "
               "rebuilds the app: its Image holds ITER=3, then ITER=5",
               st == 0 and st5 == 0 and (tag3, tag5) == ("3", "5"),
               f"Image tags {tag3!r}, {tag5!r}\n" + out5)
    app_objs = mtimes(h, objs)
    st, out = make(h, board, f"APP={rel}", "ITER=5")
    res.record("mk_apps: the same command again rebuilds no object",
               st == 0 and app_objs and mtimes(h, objs) == app_objs and
               " (app)" not in out, out)

    args = ["ITER=5", "APP_CFLAGS=-DGREETING=7", "APP_CXXFLAGS=-DCXXV=11"]
    st, out = make(h, board, f"APP={rel}", *args, "TRACE=", "run-direct")
    text = h.strip_frames(out)
    want = f"kernel-app: {TAG}5 greeting 7 cxx {11 * 100 + 7} on "
    res.record("mk_apps: APP_CFLAGS adds to C and C++ (baretrace.h still found), "
               "APP_CXXFLAGS to C++: the boot prints what they defined",
               st == 0 and want in text, f"want: {want}\n" + text[-3000:])

    after_app = mtimes(h, kernel_objs)
    st, out = make(h, board)
    res.record("mk_apps: after APP=../tmp/kernel builds, a plain make builds the demo "
               "and no kernel object was rebuilt or overwritten",
               st == 0 and before and before == after_app == mtimes(h, kernel_objs),
               f"changed: {[p for p in before if before.get(p) != mtimes(h, [p]).get(p)]}\n"
               + out)


def check_refusals(h, res, board, nomain):
    """Items 11, 13 and 15: what make refuses, and how it says so."""
    bad = []
    for var in ("CFLAGS", "LDFLAGS", "CFLAGS_BASE", "app-cflags"):
        st, out = make(h, board, f"{var}=-O0", "print-OUT")
        if st == 0 or not re.search(rf"\b{re.escape(var)}\b.*APP_CFLAGS", out):
            bad.append(f"{var}=-O0: status {st}\n{out}")
    # From the environment (a shell's CFLAGS) they are no command: let be.
    st, out = h.run(["make", "-s", f"BOARD={board}", "print-OUT"],
                    env=dict(os.environ, CFLAGS="-O0", LDFLAGS="-v"))
    if st != 0:
        bad.append(f"CFLAGS and LDFLAGS in the environment: status {st}\n{out}")
    res.record("mk_apps: CFLAGS, LDFLAGS, CFLAGS_BASE, app-cflags on the command line are "
               "refused, naming APP_CFLAGS (from the environment, let be)", not bad,
               "\n".join(bad))

    st, out = make(h, board, "ICOUNT=1", "QEMU_FLAGS=-icount shift=0", "TRACE=", "run-direct",
                   timeout=240)
    alone = printed(h, board, "QEMU_FLAGS", "ICOUNT=1")
    res.record("mk_apps: ICOUNT=1 with -icount in QEMU_FLAGS is refused before any boot, "
               "naming both; ICOUNT=1 alone adds -icount",
               st != 0 and "ICOUNT=1" in out and "QEMU_FLAGS" in out and
               "baretrace:" not in out and "-icount" in alone,
               f"status {st}; ICOUNT=1 alone: {alone}\n" + out[-2000:])

    st, out = make(h, board, f"APP={nomain}")
    # make's own lines after ours (under make test's make: make[1]: ***,
    # Leaving directory) are not the message.
    lines = [l for l in out.splitlines() if l.strip() and
             not re.match(r"make(\[\d+\])?: (\*\*\*|Entering directory|Leaving directory)", l)]
    res.record("mk_apps: an app without main() is told it needs one (last line), "
               "before any link error",
               st != 0 and lines and "main()" in lines[-1] and "hidden symbol" not in out,
               out)


TREE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + "/"


def flag_words(flags):
    """The options of a flag list, their arguments and -I/-D dropped; the
    tree's path, as the table writes it, TREE/."""
    return {w.replace(TREE, "TREE/") for w in flags
            if w.startswith("-") and not w.startswith(("-I", "-D"))}


def check_docs(h, res, board, plain):
    """docs/applications.md's table of flags against the Makefile's."""
    with open(os.path.join(h.ROOT, "docs", "applications.md")) as f:
        text = f.read()
    m = re.search(r"^## The flags an application is built with\n(.*?)(?=^## )", text, re.M | re.S)
    doc = set()
    for line in (m.group(1) if m else "").splitlines():
        if line.startswith("| `"):
            for code in re.findall(r"`([^`]+)`", line.split("|")[1]):
                doc |= flag_words(code.split())
    made = set()
    for b in ("qemu-virt", "rpi3"):
        for var in ("app_c_flags", "app_cxx_flags", "PATCHABLE"):
            made |= flag_words(printed(h, b, var, f"APP={plain}"))
    here = set()
    for var in ("app_c_flags", "app_cxx_flags", "PATCHABLE"):
        here |= flag_words(printed(h, board, var, f"APP={plain}"))
    toolchain = {"-nostdinc", "-isystem"}     # with the Linux cross compiler only
    res.record("mk_apps: docs/applications.md's table names every flag an application is "
               "built with, and no other",
               doc and here <= doc and doc <= made | toolchain,
               f"not in the table: {sorted(here - doc)}; "
               f"not the Makefile's: {sorted(doc - made - toolchain)}")


def check(h, res, board):
    tmp = tempfile.mkdtemp(prefix="bt-mk-apps-")
    try:
        app, nomain = make_app(tmp)
        check_paths(h, res, board, app, tmp)
        check_build(h, res, board, app)
        check_refusals(h, res, board, nomain)
        check_docs(h, res, board, nomain)     # an app without app.mk: no flags of its own
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        # The apps' images and objects (their folders are named after tmp).
        build = os.path.join(h.ROOT, "build", board)
        for d in glob.glob(os.path.join(build, "app-" + tmp.replace("/", "-") + "-*")) + \
                [os.path.join(build, "obj", "app", "abs") + tmp]:
            shutil.rmtree(d, ignore_errors=True)
        shutil.rmtree(os.path.join(h.ROOT, "build", "apps-test", "mk-apps"), ignore_errors=True)
