"""test/host/e2e_demangle.py: C++ names in every output of the host tool.

A synthetic function_graph trace from tools/gentrace/ (MODE "graph,c++":
three functions in four have Itanium-ABI mangled names, as g++ writes
them; the rest are C names). The expected names are not this file's: the
raw names are read back with --no-demangle and turned into the expected
ones by binutils' c++filt, a demangler other than the tool's (libstdc++).
Checks that report, stats, graph, chrome-json, folded, svg, trace-cmd (read
by trace-cmd report) and ctf (read by babeltrace2) show the demangled
names and no mangled one; that --no-demangle keeps them raw in each; that
-F/-N take a function by its demangled or its mangled name.

Usage: test/host/e2e_demangle.py BARETRACE [--keep DIR]   (TAP on stdout)
"""
import html
import json
import os
import re
import subprocess
import sys

from e2e_baretrace import run, tap_main

EVENTS = 20000
# stats rows: five numbers, then the name (which may hold spaces)
STATS_ROW = re.compile(r"^\s*\d+\s+[\d.]+\*?\s+[\d.]+\s+[\d.]+\s+[\d.]+\s+(.+)$")


def stats_names(text):
    return [m.group(1) for m in map(STATS_ROW.match, text.splitlines()) if m]


def cxxfilt(names):
    out = subprocess.run(["c++filt"], input="\n".join(names) + "\n", text=True,
                         capture_output=True, check=True).stdout
    return dict(zip(names, out.splitlines()))


def word(name):
    """A name as the folded export and trace-cmd's kallsyms write it."""
    return name.replace(";", ":").replace(" ", "_")


def outputs(tap, tool, tmp, trace, extra, tag):
    """Every output's names, as {output: text} (one run each)."""
    out = {}
    for cmd in ("report", "stats", "graph"):
        st, text, err = run([tool, cmd, trace] + extra)
        tap.ok(st == 0, f"{tag}: {cmd} exits 0", err)
        out[cmd] = text
    for fmt in ("chrome-json", "folded", "svg", "trace-cmd", "ctf"):
        path = os.path.join(tmp, f"{tag}.{fmt}")
        st, _, err = run([tool, "export", f"--format={fmt}", "-o", path, trace] + extra)
        tap.ok(st == 0, f"{tag}: export --format={fmt} exits 0", err)
        if fmt == "trace-cmd":
            st, text, err = run(["trace-cmd", "report", "-i", path])
            tap.ok(st == 0, f"{tag}: trace-cmd report reads the export", err)
        elif fmt == "ctf":
            st, text, err = run(["babeltrace2", path])
            tap.ok(st == 0, f"{tag}: babeltrace2 reads the export", err)
        else:
            text = open(path).read()
        out[fmt] = text
    return out


def names_in(fmt, text):
    """The function names an output shows, as a set."""
    if fmt == "chrome-json":
        return {e["name"] for e in json.loads(text)["traceEvents"] if e.get("ph") in "BEX"}
    if fmt == "folded":
        return {f for line in text.splitlines() for f in line.rsplit(" ", 1)[0].split(";")}
    if fmt == "svg":
        return {html.unescape(n) for n in re.findall(r'data-name="([^"]*)"', text)}
    if fmt == "ctf":
        return set(re.findall(r'func = "([^"]*)"', text))
    if fmt == "stats":
        return set(stats_names(text))
    return set()


def expect(tap, tag, out, want, other):
    """Each output shows every name of want and none of other (raw or demangled)."""
    for fmt, text in out.items():
        got = names_in(fmt, text)
        if got:		# outputs whose names are read one by one
            exp = {word(n) for n in want} if fmt == "folded" else set(want)
            bad = {word(n) for n in other} if fmt == "folded" else set(other)
            missing, wrong = exp - got, got & bad
            tap.ok(not missing and not wrong, f"{tag}: {fmt} shows the {tag} names",
                   f"missing {sorted(missing)[:5]}, wrong {sorted(wrong)[:5]}")
            continue
        # report, graph, trace-cmd report: the names as substrings
        exp = [word(n) if fmt == "trace-cmd" else n for n in want]
        missing = [n for n in exp if n not in text]
        mangled = re.findall(r"_Z\w+", text) if tag == "demangled" else []
        tap.ok(not missing and not mangled, f"{tag}: {fmt} shows the {tag} names",
               f"missing {missing[:5]}, mangled {mangled[:5]}")


def checks(tap, tool, tmp):
    gen = os.path.join(os.path.dirname(tool), "gentrace")
    trace = os.path.join(tmp, "cxx.bt")
    st, _, err = run([gen, trace, str(EVENTS), "2", "graph,c++"])
    if not tap.ok(st == 0, "gentrace writes a trace with C++ names", err):
        return
    st, text, err = run([tool, "stats", trace, "--no-demangle"])
    raw = stats_names(text)
    mangled = [n for n in raw if n.startswith("_Z")]
    tap.ok(st == 0 and len(mangled) > 50 and len(mangled) < len(raw),
           f"--no-demangle: stats shows raw names ({len(mangled)} of {len(raw)} mangled)",
           err + text[:2000])
    dem = cxxfilt(mangled)
    tap.ok(all(dem[m] != m for m in mangled) and any(" " in d for d in dem.values()),
           "c++filt demangles every mangled name (some with spaces)",
           [m for m in mangled if dem[m] == m][:5])
    plain = [n for n in raw if not n.startswith("_Z")]
    out = outputs(tap, tool, tmp, trace, [], "demangled")
    expect(tap, "demangled", out, plain + list(dem.values()), mangled)
    twice = [l for l in out["report"].splitlines() if ")()" in l]
    tap.ok(not twice, "report: a C++ name's own parameter list gets no second '()'", twice[:5])
    expect(tap, "raw", outputs(tap, tool, tmp, trace, ["--no-demangle"], "raw"),
           raw, list(dem.values()))
    filters(tap, tool, trace, mangled, dem)


def filters(tap, tool, trace, mangled, dem):
    # One function by either name: the same report, not empty.
    m = next(n for n in mangled if "(int, unsigned int) const" in dem[n])
    st1, by_dem, err1 = run([tool, "report", trace, "-F", dem[m]])
    st2, by_raw, err2 = run([tool, "report", trace, "-F", m])
    body = [l for l in by_dem.splitlines() if not l.startswith("#")]
    tap.ok(st1 == st2 == 0 and by_dem.replace(dem[m], m) == by_raw.replace(dem[m], m)
           and any(dem[m] + " {" in l or dem[m] + ";" in l for l in body),
           f"-F '{dem[m]}' and -F '{m}' keep the same calls", err1 + err2 + by_dem[-800:])
    # A glob on the demangled name: -N leaves out every function it matches.
    ns = dem[m].split("::")[0]
    glob = f"*{ns}::*"
    st, text, err = run([tool, "stats", trace, "-N", glob])
    names = stats_names(text)
    hit = [n for n in names if f"{ns}::" in n]
    tap.ok(st == 0 and names and not hit and any(f"{ns}::" in d for d in dem.values()),
           f"-N '{glob}' leaves out {ns}'s functions", err + str(hit[:5]))
    # With --no-demangle only the raw names exist to match.
    st, text, err = run([tool, "stats", trace, "--no-demangle", "-F", dem[m]])
    # A pattern that names no function is an error that names it (issue 42).
    tap.ok(st == 1 and not stats_names(text) and f"-F {dem[m]}: no function" in err,
           "--no-demangle -F DEMANGLED matches nothing: said, status 1",
           err + text[:800])


if __name__ == "__main__":
    sys.exit(tap_main(checks, __doc__, "bt-demangle-"))
