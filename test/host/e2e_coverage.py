"""test/host/e2e_coverage.py: `baretrace coverage` read back by Debian's lcov.

Coverage traces from tools/gentrace/coverage.c (MODE coverage: frames of type 8,
and of type 9 for a previous boot, for a set of sites it draws and lists
in TRACE.sites) for a real image, build/qemu-virt/baretrace.elf. The
expected figures are not the tool's: the sites reached come from
gentrace's list, the number of sites from the ELF's own bt_site_count
(read with binutils), the image hash is zlib's CRC-32 of .bt_tables, and
the .info is read by `lcov --summary` and rendered by `genhtml`, whose
page headless chromium loads (--dump-dom). Checks:
- FNF/FNH, lcov's summary and the tool's total agree with the list;
- a function's FN line holds its name in the source (DWARF lines);
- traces merge: the same trace twice, two boots, two seeds (union);
- two boards: a second image (the ELF with one name changed, so another
  hash) merges by file and name; a trace no ELF matches is refused,
  exit 1, the output left as it was;
- the HTML: the summary's functions hit/total, and a folder's per-file
  table, row by row, as the .info says.

Usage: test/host/e2e_coverage.py BARETRACE ELF [--keep DIR]   (TAP on stdout)
"""
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zlib

from e2e_baretrace import run, tap_main

ELF = None
CROSS = "aarch64-linux-gnu-"


def section(elf, name):
    """(file offset, address, size) of a section, from readelf -SW."""
    out = subprocess.run(["readelf", "-SW", elf], capture_output=True, text=True).stdout
    for line in out.splitlines():
        f = line.replace("[ ", "[").split()
        if len(f) > 5 and f[1] == name:
            return int(f[4], 16), int(f[3], 16), int(f[5], 16)
    raise SystemExit(f"{elf}: no section {name}")


def image_facts(elf):
    """(image hash, site count) as the target would have them."""
    data = open(elf, "rb").read()
    off, addr, size = section(elf, ".bt_tables")
    tables = data[off:off + size]
    nm = subprocess.run([CROSS + "nm", elf], capture_output=True, text=True).stdout
    at = int(next(ln.split()[0] for ln in nm.splitlines() if ln.endswith(" bt_site_count")), 16)
    return zlib.crc32(tables), int.from_bytes(tables[at - addr:at - addr + 4], "little")


def gen(tool, path, reached, seed, hash_, sites, prev=False):
    gentrace = os.path.join(os.path.dirname(tool), "gentrace")
    mode = f"coverage,hash={hash_:#x},sites={sites}" + (",prev" if prev else "")
    subprocess.run([gentrace, path, str(reached), "1", mode, str(seed)], check=True)
    return {int(x) for x in open(path + ".sites").read().split()}


def info_files(path):
    """{SF: (FNF, FNH, {name: hit}, {name: line})} from an .info file."""
    files, cur = {}, None
    for line in open(path):
        key, _, val = line.rstrip("\n").partition(":")
        if key == "SF":
            cur = files.setdefault(val, [0, 0, {}, {}])
        elif key == "FN":
            ln, name = val.split(",", 1)
            cur[3][name] = int(ln)
        elif key == "FNDA":
            hit, name = val.split(",", 1)
            cur[2][name] = int(hit)
        elif key in ("FNF", "FNH"):
            cur[0 if key == "FNF" else 1] = int(val)
    return files


def totals(path):
    f = info_files(path).values()
    return sum(x[0] for x in f), sum(x[1] for x in f)


def lcov_summary(path):
    _, out, err = run(["lcov", "--summary", path])
    m = re.search(r"functions\.+: [\d.]+% \((\d+) of (\d+) functions\)", out + err)
    return (int(m.group(2)), int(m.group(1))) if m else None


def tool_total(out):
    m = re.search(r"^\s+total\s+(\d+)\s+(\d+)", out, re.M)
    return (int(m.group(2)), int(m.group(1))) if m else None


def coverage(tool, out, traces, elfs):
    cmd = [tool, "coverage"] + traces + sum((["--elf", e] for e in elfs), []) + ["-o", out]
    return run(cmd)


def single(tap, tool, tmp, h, nsites):
    t1 = os.path.join(tmp, "one.bt")
    sites = gen(tool, t1, 40, 1, h, nsites)
    out = os.path.join(tmp, "one.info")
    rc, text, err = coverage(tool, out, [t1], [ELF])
    tap.ok(rc == 0, "coverage of one trace exits 0", err)
    tap.ok(totals(out) == (nsites, len(sites)),
           f"FNF/FNH: {nsites} functions, {len(sites)} reached as gentrace drew",
           f"{totals(out)} {text}")
    tap.ok(lcov_summary(out) == tool_total(text) == (nsites, len(sites)),
           "lcov --summary's function counts are the tool's own",
           f"lcov {lcov_summary(out)} tool {tool_total(text)}")
    tap.ok("no source line" not in text, "every patchable function has a source line", text)
    # The DWARF line of a C function is the line with its name (GCC's
    # clones, "f.constprop.0", by the name of the function cloned;
    # names the source spells otherwise, the C++ operators cxx_new.c
    # defines as aliases, are left out).
    checked = bad = 0
    for sf, (_, _, _, lines) in info_files(out).items():
        if not sf.endswith(".c") or not os.path.exists(sf):
            continue
        src = open(sf, errors="replace").read().splitlines()
        for name, ln in lines.items():
            name = re.sub(r"\.(constprop|isra|part|cold)\.\d+$", "", name)
            if not re.fullmatch(r"\w+", name):
                continue
            checked += 1
            named = re.compile(r"\b%s\s*\(" % re.escape(name))
            # Or its '{' right below: for a function first declared in a
            # header (newlib's lock hooks) the line table's first row.
            bad += not (0 < ln <= len(src) and (named.search(src[ln - 1]) or (
                src[ln - 1].strip() == "{" and named.search(src[ln - 2]))))
    tap.ok(checked > 50 and bad == 0, f"FN lines name their function ({checked} checked)",
           f"{bad} wrong")
    names = [n for v in info_files(out).values() for n in v[3]]
    tap.ok("operator new(unsigned long; std::nothrow_t const&)" in names and
           not any("," in n for n in names),
           "C++ names demangled, every ',' written ';' (lcov 1.16 ends a name at a comma)",
           [n for n in names if "operator" in n])
    return t1, sites, out


def merges(tap, tool, tmp, h, nsites, t1, s1):
    t2 = os.path.join(tmp, "two.bt")
    s2 = gen(tool, t2, 60, 2, h, nsites, prev=True)
    out = os.path.join(tmp, "merged.info")
    rc, text, err = coverage(tool, out, [t1, t1], [ELF])
    tap.ok(rc == 0 and totals(out)[1] == len(s1), "the same trace twice: nothing counted twice",
           err)
    rc, text, err = coverage(tool, out, [t2], [ELF])
    tap.ok(rc == 0 and totals(out)[1] == len(s2) and len(s2) > 60,
           "a previous boot's frames (type 9) add to this boot's", f"{totals(out)} {len(s2)}")
    rc, text, err = coverage(tool, out, [t1, t2], [ELF])
    tap.ok(rc == 0 and totals(out) == (nsites, len(s1 | s2)) ==
           lcov_summary(out), f"two traces merge: {len(s1 | s2)} reached (the union)",
           f"{totals(out)} {text} {err}")


def other_board(tmp, elf, old_name, new_name):
    """The ELF with one function renamed in .bt_tables: another image."""
    data = bytearray(open(elf, "rb").read())
    off, _, size = section(elf, ".bt_tables")
    i = data.find(b"\0" + old_name.encode() + b"\0", off, off + size) + 1
    assert i > 0 and len(old_name) == len(new_name)
    data[i:i + len(new_name)] = new_name.encode()
    path = os.path.join(tmp, "board2.elf")
    open(path, "wb").write(data)
    return path, zlib.crc32(bytes(data[off:off + size]))


def reached_name(elf, info):
    """A function the first trace reached (its .info says so) whose name
    stands alone in .bt_tables, so renaming it makes another image; not a
    fixed name, which gentrace's draw reaches or not as the image moves."""
    data = open(elf, "rb").read()
    off, _, size = section(elf, ".bt_tables")
    tables = data[off:off + size]
    for _, _, hits, _ in info_files(info).values():
        for name, hit in sorted(hits.items()):
            if hit and re.fullmatch(r"\w+", name) and \
               tables.count(b"\0" + name.encode() + b"\0") == 1:
                return name
    raise SystemExit(f"{info}: no reached function to rename")


def boards(tap, tool, tmp, h, nsites, t1, s1, info):
    # Board 2 renames a function board 1 reached: after the merge both
    # names are reached, the old one by board 1 alone.
    name = reached_name(ELF, info)
    elf2, h2 = other_board(tmp, ELF, name, name[:-1] + ("X" if name[-1] != "X" else "Y"))
    none2 = os.path.join(tmp, "b2-none.bt")
    all2 = os.path.join(tmp, "b2-all.bt")
    gen(tool, none2, 0, 3, h2, nsites)
    gen(tool, all2, nsites, 4, h2, nsites)
    out = os.path.join(tmp, "boards.info")
    rc, text, err = coverage(tool, out, [t1, none2], [ELF, elf2])
    tap.ok(rc == 0 and totals(out) == (nsites + 1, len(s1)),
           "two boards: functions merge by file and name (one renamed: one more)",
           f"{totals(out)} {err}")
    rc, text, err = coverage(tool, out, [t1, all2], [ELF, elf2])
    tap.ok(rc == 0 and totals(out) == (nsites + 1, nsites + 1) == lcov_summary(out),
           "a function is reached if any board reached it", f"{totals(out)} {err}")
    before = open(out).read()
    rc, text, err = coverage(tool, out, [t1, all2], [ELF])
    tap.ok(rc == 1 and "none of the ELFs given matches" in err and f"{h2:#010x}" in err and
           open(out).read() == before and not os.path.exists(out + ".tmp"),
           "a trace of another image is refused: exit 1, its hash named, output unchanged",
           err)


def in_chromium(tap, page, tmp):
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not tap.ok(exe, "chromium is installed (tools/setup installs it)"):
        return ""
    # A profile of its own for each page: a chromium still leaving the
    # last one (its helpers outlive --dump-dom on a loaded machine) holds
    # that profile's lock, and a second chromium on it printed nothing.
    # An empty page is tried once more; the checks read what it shows.
    out, err = b"", b""
    for _ in range(2):
        profile = tempfile.mkdtemp(prefix="chromium-profile-", dir=tmp)
        try:
            p = subprocess.run([exe, "--headless=new", "--disable-gpu", "--no-sandbox",
                                "--user-data-dir=" + profile, "--dump-dom", "file://" + page],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
            out, err = p.stdout, p.stderr
        except subprocess.TimeoutExpired:
            out, err = b"", b"chromium: no page within 120 s"
        if out.strip():
            break
    text = html.unescape(re.sub(r"<[^>]+>", " ", out.decode(errors="replace")))
    text = re.sub(r"\s+", " ", text)
    return text if text.strip() else "(chromium printed nothing: " + err.decode(errors="replace")[-400:] + ")"


def genhtml(tap, tool, tmp, info):
    outdir = os.path.join(tmp, "html")
    # folders relative to the tree, wherever it is (as make coverage)
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    rc, _, err = run(["genhtml", "-q", "--prefix", root, "-o", outdir, info])
    if tap.ok(rc == 0, "genhtml renders the .info", err):
        check_pages(tap, outdir, info, tmp)


def check_pages(tap, outdir, info, tmp):
    """genhtml's pages of 'info' in outdir, as chromium renders them (also
    test/coverage_make.py's, for make coverage's report)."""
    fnf, fnh = totals(info)
    text = in_chromium(tap, os.path.join(outdir, "index.html"), tmp)
    tap.ok(re.search(r"Functions: %d %d " % (fnh, fnf), text),
           f"index.html in chromium: Functions {fnh} of {fnf}", text[:600])
    # A folder's page: a row per file, "PCT % HIT / TOTAL" as the .info says.
    files = {sf: v for sf, v in info_files(info).items() if "/kernel/smp/" in sf}
    page = os.path.join(outdir, "kernel", "smp", "index.html")
    text = in_chromium(tap, page, tmp)
    good = 0
    for sf, (n, hit, _, _) in sorted(files.items()):
        good += bool(re.search(r"%s(?: [\d.]+ %% \d+ / \d+)? [\d.]+ %% %d / %d" %
                               (re.escape(os.path.basename(sf)), hit, n), text))
    tap.ok(files and good == len(files),
           f"kernel/smp/index.html in chromium: {len(files)} files, each with its counts",
           f"{good} of {len(files)}: {text[:1500]}")
    # A file's function page names a C++ function whole.
    text = in_chromium(tap, os.path.join(outdir, "kernel", "libc", "cxx_new.c.func.html"), tmp)
    tap.ok("operator delete[](void*; unsigned long; std::align_val_t)" in text,
           "cxx_new.c.func.html in chromium: a C++ name with its parameters, whole",
           text[:1500])


def checks(tap, tool, tmp):
    h, nsites = image_facts(ELF)
    tap.ok(nsites > 100, f"the image has {nsites} sites")
    t1, s1, info = single(tap, tool, tmp, h, nsites)
    merges(tap, tool, tmp, h, nsites, t1, s1)
    boards(tap, tool, tmp, h, nsites, t1, s1, info)
    genhtml(tap, tool, tmp, info)
    gentrace = os.path.join(os.path.dirname(tool), "gentrace")
    plain, nohash = os.path.join(tmp, "plain.bt"), os.path.join(tmp, "nohash.bt")
    subprocess.run([gentrace, plain, "2000", "2", "graph"], check=True)
    subprocess.run([gentrace, nohash, "30", "1", f"coverage,sites={nsites}"], check=True)
    out = os.path.join(tmp, "x.info")
    rc, text, err = coverage(tool, out, [plain], [ELF])
    tap.ok(rc == 1 and "has no coverage frames" in err and not os.path.exists(out),
           "a trace without coverage frames: an error (status 1), nothing written", err)
    rc, text, err = coverage(tool, out, [nohash], [ELF])
    tap.ok(rc == 0 and "carries no image hash" in err and totals(out) == (nsites, 30),
           "a trace without an image hash, one ELF: used, with a warning", err)
    rc, text, err = coverage(tool, out, [nohash], [ELF, other_board(tmp, ELF, "ktest_skip",
                                                                    "ktest_skiX")[0]])
    tap.ok(rc == 1 and "carries no image hash" in err and totals(out) == (nsites, 30),
           "the same with two ELFs: refused, the output unchanged", err)
    rc, _, err = run([tool, "coverage", t1, "-o", os.path.join(tmp, "x.info")])
    tap.ok(rc == 2 and "--elf" in err, "no --elf: a usage error (status 2)", err)
    lost_frames(tap, tool, tmp, h, nsites)


def drop_frame(src, dst, pick):
    """Copies a .bt file without its type-8 frames numbered by pick(count)
    (0-based among them): a frame lost on the wire."""
    data = open(src, "rb").read()
    out, i, frames = [data[:8]], 8, []
    while i + 4 <= len(data):
        n = int.from_bytes(data[i:i + 4], "little")
        frames.append(data[i:i + 4 + n])
        i += 4 + n
    cov = [k for k, f in enumerate(frames) if f[4] == 8]
    gone = {cov[j] for j in pick(len(cov))}
    open(dst, "wb").write(b"".join(out + [f for k, f in enumerate(frames) if k not in gone]))


def lost_frames(tap, tool, tmp, h, nsites):
    """A set cut by a lost coverage frame would count its sites as not
    reached: the tool refuses it rather than report too little; a whole
    set says that the trace's other losses change nothing."""
    whole = os.path.join(tmp, "chunks.bt")
    gen(tool, whole, 60, 3, h, f"{nsites},chunk=64")
    frames = -(-nsites // 64)
    out = os.path.join(tmp, "chunks.info")
    rc, text, err = coverage(tool, out, [whole], [ELF])
    tap.ok(rc == 0 and re.search(r"every trace's last coverage set is whole", text),
           f"a whole set of {frames} frames: read, and the summary says losses elsewhere "
           "change nothing", text + err)
    for what, pick, want in (
            ("the last frame", lambda n: [n - 1],
             rf"sites {(frames - 1) * 64} to {nsites - 1} never arrived"),
            ("a middle frame", lambda n: [n - 2], r"a frame inside its last coverage set is "
             r"missing"),
            ("the first frame", lambda n: [n // 2],
             r"a frame inside its last coverage set is missing")):
        cut = os.path.join(tmp, "cut.bt")
        drop_frame(whole, cut, pick)
        if os.path.exists(out):
            os.remove(out)
        rc, text, err = coverage(tool, out, [cut], [ELF])
        tap.ok(rc == 1 and re.search(want, err) and "nothing was written" in err
               and not os.path.exists(out),
               f"{what} of the last coverage set lost: an error naming it, nothing written",
               err)


if __name__ == "__main__":
    if len(sys.argv) < 3:
        print(__doc__)
        sys.exit(2)
    ELF = os.path.abspath(sys.argv.pop(2))
    sys.exit(tap_main(checks, __doc__, "bt-coverage-"))
