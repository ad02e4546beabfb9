"""test/mk_fetch.py: the first run fetches what it needs (issue 40, 16).

What each target downloads on a machine whose build/ is empty, computed
by make itself without downloading anything: the tracked files are
copied into a scratch checkout whose fetch tools (tools/fetch-pi,
fetch-qemu, fetch-source, fetch-deb) are replaced by recorders that log
their arguments and fail as if offline; there `make -n TARGET` runs
what make runs even under -n (remaking its included makefiles, which
runs tools/setup, and the app.mk's $(shell)s: the recorders log those)
and prints the rest (fetch recipes, `tools/setup GROUP` lines, whose
fetches `tools/setup --plan GROUP` names). Then:
  - make run on qemu-virt fetches none of them (nor does tools/setup);
  - the targets that need a fetch name it (BOARD=rpi4 run, rpi3
    run-uboot, APP=examples/mbedtls, bench, bench-anchor, test);
  - tools/fetch-source, run in a scratch checkout (with this tree's
    apt lists, so apt-get update finds them current; mbed TLS's source
    is 4 MB), shows no gpgv or dpkg-source signature warning and says
    what vouched for the .dsc instead, in one line;
  - tools/fetch-deb (u-boot-rpi, 0.4 MB, into a scratch folder) says
    what it downloads and its size; on a terminal apt's progress line
    (bytes of the total) follows, elsewhere no carriage-return flood;
  - docs/running.md's sizes (<!-- du FOLDER -->N MB<!-- /du -->, on
    disk, and <!-- dl FOLDER -->N MB<!-- /dl -->, downloaded: apt's
    lists' sizes of the versions the folder's stamp names) are within a
    quarter of this tree's (make test has fetched them all by then; a
    folder fetched before its tool changed is fetched again then).
"""
import os
import pty
import re
import shutil
import subprocess
import tempfile

FETCHERS = ("fetch-pi", "fetch-qemu", "fetch-source", "fetch-deb")
# What a fetch command gets, by the folder it fills.
KINDS = {"fetch-pi": "pi", "fetch-qemu": "qemu-pi4", "fetch-source": "third-party",
         "bench-anchor": "anchor"}
RECORDER = """#!/bin/sh
# test/mk_fetch.py's stand-in: logs, fetches nothing, fails as if offline.
echo "$(basename "$0") $*" >> {log}
exit 1
"""


def scratch_checkout(h, top):
    """The tracked files of h.ROOT (as they are in the working tree) under
    top/tree, the fetch tools replaced by recorders; returns (tree, log)."""
    tree = os.path.join(top, "tree")
    log = os.path.join(top, "fetches.log")
    files = subprocess.run(["git", "ls-files", "-z"], cwd=h.ROOT, stdout=subprocess.PIPE,
                           check=True).stdout.decode().split("\0")
    for f in filter(None, files):
        src = os.path.join(h.ROOT, f)
        if not os.path.lexists(src):
            continue
        dst = os.path.join(tree, f)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(src, dst, follow_symlinks=False)
    for name in FETCHERS:
        path = os.path.join(tree, "tools", name)
        with open(path, "w") as f:
            f.write(RECORDER.format(log=log))
        os.chmod(path, 0o755)
    return tree, log


def kinds_of(line, prefix):
    """The fetch kinds a command line asks for: a recorder's log line
    (prefix "") or a recipe line printed by make -n (prefix "tools/"),
    where only commands count (at the line's start or after ; && ||),
    not their mention in a message."""
    out = set()
    cmd = r"(?:^|[;&|]\s*)" + re.escape(prefix)
    for m in re.finditer(cmd + r"(fetch-pi|fetch-qemu|fetch-source|bench-anchor)\b", line.strip()):
        out.add(KINDS[m.group(1)])
    for m in re.finditer(cmd + r"fetch-deb\s+(\S+)", line.strip()):
        out.add("pi" if m.group(1).startswith(("u-boot-rpi", "linux-image")) else m.group(1))
    return out


def plan(h, tree, log, args):
    """(set of fetch kinds, text to show) for make -n ARGS in the scratch tree."""
    if os.path.exists(log):
        os.remove(log)
    st, out = h.run(["make", "-n", "--no-print-directory"] + args, cwd=tree, timeout=600)
    kinds = set()
    shown = [f"make -n {' '.join(args)}: exit {st}"]
    for line in out.splitlines():
        kinds |= kinds_of(line, "tools/")
        # "tools/setup GROUP..." (also after "|| "): its fetches, by its plan
        for m in re.finditer(r"(?:^|[\s;|&])tools/setup((?: [\w-]+)*)\s*$", line):
            pst, pout = h.run([os.path.join(tree, "tools", "setup"), "--plan"] + m.group(1).split(),
                              cwd=tree)
            shown.append(f"tools/setup --plan{m.group(1)}: exit {pst}: {pout.strip()}")
            if pst != 0:
                kinds.add("unknown (tools/setup has no --plan)")
            for pl in pout.splitlines():
                if pl.startswith("fetch "):
                    kinds |= kinds_of(pl[len("fetch "):], "tools/")
    if os.path.exists(log):
        with open(log) as f:
            logged = f.read()
        shown.append("run while make read its makefiles: " + logged.strip().replace("\n", "; "))
        for line in logged.splitlines():
            kinds |= kinds_of(line, "")
    if st != 0:
        shown.append(out[-2000:])
    return kinds, "\n".join(shown)


def du_bytes(path):
    total = 0
    for d, _, files in os.walk(path):
        for f in files:
            p = os.path.join(d, f)
            if not os.path.islink(p):
                total += os.path.getsize(p)
    return total


def private_apt(h, folder):
    """apt-cache's options for the private lists a fetch tool keeps in
    folder/apt (as tools/fetch-qemu and fetch-source set them)."""
    apt = os.path.join(h.ROOT, folder, "apt")
    return ["-o", f"Dir::Etc::sourcelist={apt}/sources.list", "-o", "Dir::Etc::sourceparts=-",
            "-o", f"Dir::State::Lists={apt}/lists", "-o", f"Dir::Cache={apt}/cache",
            "-o", f"Dir::State::status={apt}/status"]


def deb_size(h, opts, spec):
    """The Size apt's lists give the package PKG=VERSION, or 0."""
    _, out = h.run(["apt-cache"] + opts + ["show", "--no-all-versions", spec])
    m = re.search(r"^Size: (\d+)", out, re.M)
    return int(m.group(1)) if m else 0


def download_bytes(h, folder):
    """What the fetch of folder downloaded, from apt's lists and the
    versions its stamp names (nothing is downloaded here); 0 if unknown."""
    path = os.path.join(h.ROOT, folder)
    try:
        if folder == "build/third-party":
            with open(os.path.join(path, "mbedtls.dir")) as f:
                src = os.path.join(h.ROOT, f.read().strip())
            with open(os.path.join(src, ".fetched")) as f:
                pkg, version = f.read().split()[:2]
            _, out = h.run(["apt-cache"] + private_apt(h, folder) + ["showsrc", pkg])
            for rec in out.split("\n\n"):
                if re.search(rf"^Version: {re.escape(version)}$", rec, re.M):
                    total = 0
                    for line in rec.split("\nFiles:\n", 1)[1].split("\n"):
                        if not line.startswith(" "):
                            break       # the next field
                        total += int(line.split()[1])
                    return total
            return 0
        with open(os.path.join(path, ".fetched")) as f:
            words = f.read().split()
    except (OSError, IndexError, ValueError):
        return 0
    if folder == "build/qemu-pi4":
        return sum(deb_size(h, private_apt(h, folder), w) for w in words[1:])
    return deb_size(h, [], f"{words[0]}={words[1]}")


def check_sizes(h, res):
    with open(os.path.join(h.ROOT, "docs", "running.md")) as f:
        text = f.read()
    spans = re.findall(r"<!-- (du|dl) (\S+) -->([\d.]+) MB<!-- /\1 -->", text)
    res.record("fetch: docs/running.md quotes the fetched folders' sizes, on disk and "
               "downloaded (<!-- du -->, <!-- dl -->)",
               sum(k == "du" for k, _, _ in spans) >= 4 and sum(k == "dl" for k, _, _ in spans) >= 4,
               f"{spans}")
    for kind, folder, quoted in spans:
        path = os.path.join(h.ROOT, folder)
        try:
            with open(os.path.join(path, ".fetched")) as f:
                system_qemu = f.read().startswith("system ")
        except OSError:
            system_qemu = False
        if system_qemu:     # tools/fetch-qemu wrote only a script: the system QEMU has raspi4b
            have = du_bytes(path)
            res.record(f"fetch: {folder} holds only a script for the system's QEMU ({have} bytes)",
                       have < 100000, "")
            continue
        if kind == "du":
            have, what = (du_bytes(path) / 1e6 if os.path.isdir(path) else 0), "on disk"
        else:
            have, what = download_bytes(h, folder) / 1e6, "downloaded (apt's lists)"
        res.record(f"fetch: docs/running.md's size of {folder} {what}, {quoted} MB, is within "
                   f"25 % of its {have:.2f} MB here",
                   have > 0 and abs(have - float(quoted)) <= 0.25 * have,
                   f"measured {have:.2f} MB: the folder, or its stamp, is missing or from an older "
                   "fetch tool; tools/setup test fetches it as make test does")


def check_source_signature(h, res, top):
    """tools/fetch-source's output: the uploader's signature, which no
    keyring here can check, is explained, not warned about twice."""
    tree = os.path.join(top, "src")
    os.makedirs(os.path.join(tree, "tools"))
    shutil.copy2(os.path.join(h.ROOT, "tools", "fetch-source"), os.path.join(tree, "tools"))
    lists = os.path.join(h.ROOT, "build", "third-party", "apt", "lists")
    if os.path.isdir(lists):
        shutil.copytree(lists, os.path.join(tree, "build", "third-party", "apt", "lists"))
    st, out = h.run([os.path.join(tree, "tools", "fetch-source"), "mbedtls"], cwd=tree, timeout=600)
    said = [l for l in out.splitlines() if "signed Sources index" in l]
    if os.path.exists("/usr/share/keyrings/debian-keyring.gpg"):
        said = ["(debian-keyring: dpkg-source --require-valid-signature)"]
    res.record("fetch: tools/fetch-source mbedtls unpacks the source, with no gpgv or "
               "'cannot verify inline signature' line and one that says what was checked",
               st == 0 and not re.search(r"^gpgv:|cannot verify inline signature", out, re.M)
               and len(said) == 1, f"exit {st}\n{out}")


def on_terminal(cmd, timeout=300):
    """(status, output) of cmd with a pseudo-terminal as stdout and stderr."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=slave, stderr=slave,
                            start_new_session=True)
    os.close(slave)
    out = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:      # EIO: the child side closed
            break
        if not chunk:
            break
        out += chunk
    os.close(master)
    return proc.wait(timeout=timeout), out.decode(errors="replace")


def check_progress(h, res, top):
    fetch = os.path.join(h.ROOT, "tools", "fetch-deb")
    size = re.compile(r"^tools/fetch-deb: downloading u-boot-rpi:arm64 \S+ \((\d+\.\d) MB", re.M)
    st, out = h.run([fetch, "u-boot-rpi:arm64", os.path.join(top, "deb-log")], timeout=300)
    res.record("fetch: tools/fetch-deb, logged, says what it downloads and its size, one line "
               "a file, no progress line", st == 0 and size.search(out) is not None
               and "\r" not in out and re.search(r"^Get:1 .*u-boot-rpi", out, re.M) is not None,
               f"exit {st}\n{out}")
    st, out = on_terminal([fetch, "u-boot-rpi:arm64", os.path.join(top, "deb-tty")])
    res.record("fetch: tools/fetch-deb on a terminal shows apt's progress (bytes of the total)",
               st == 0 and size.search(out) is not None
               and re.search(r"\[1 u-boot-rpi\S* [\d.]+ [kM]?B/[\d.]+ [kM]B", out) is not None,
               f"exit {st}\n{out}")


def check(h, res, board):
    top = tempfile.mkdtemp(prefix="mk_fetch.")
    try:
        tree, log = scratch_checkout(h, top)
        heavy = {"pi", "qemu-pi4", "third-party", "anchor"}
        # The first make remakes build/tools-*.mk, which runs tools/setup.
        got, shown = plan(h, tree, log, ["BOARD=qemu-virt", "run"])
        res.record("fetch: the first make run (qemu-virt) fetches none of the Pi files, the "
                   "Pi 4's QEMU, mbed TLS's source or the Linux kernel "
                   f"(it would fetch: {', '.join(sorted(got)) or 'nothing'})",
                   not (got & heavy) and not any(k.startswith("unknown") for k in got), shown)
        st, out = h.run([os.path.join(tree, "tools", "setup"), "--plan"], cwd=tree)
        res.record("fetch: tools/setup --plan (no group) names no fetch",
                   st == 0 and not any(l.startswith("fetch ") for l in out.splitlines()),
                   f"exit {st}\n{out}")
        wanted = [
            (["BOARD=rpi4", "run"], {"pi", "qemu-pi4"}, {"third-party", "anchor"}),
            (["BOARD=rpi3", "run-uboot"], {"pi"}, {"third-party", "anchor"}),
            (["BOARD=qemu-virt", "APP=examples/mbedtls"], {"third-party"}, {"pi", "qemu-pi4"}),
            (["BOARD=qemu-virt", "bench"], {"third-party"}, {"pi", "qemu-pi4"}),
            (["bench-anchor"], {"anchor"}, {"third-party", "qemu-pi4"}),
            (["BOARD=qemu-virt", "test"], {"pi", "qemu-pi4", "third-party"}, set()),
        ]
        for args, need, never in wanted:
            got, shown = plan(h, tree, log, args)
            res.record(f"fetch: make {' '.join(args)} fetches {', '.join(sorted(need))}"
                       + (f", not {', '.join(sorted(never))}" if never else "")
                       + f" (it would fetch: {', '.join(sorted(got)) or 'nothing'})",
                       need <= got and not (got & never)
                       and not any(k.startswith("unknown") for k in got), shown)
        check_source_signature(h, res, top)
        check_progress(h, res, top)
    finally:
        shutil.rmtree(top, ignore_errors=True)
    check_sizes(h, res)
