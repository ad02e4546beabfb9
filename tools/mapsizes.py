#!/usr/bin/env python3
"""tools/mapsizes.py MAP [PATTERN...]: what each input file adds to an
image, from GNU ld's link map (the Makefile writes baretrace.map beside
every image): bytes of text, rodata, data and bss by input file or
archive member, discarded sections and debug information left out.
make bench (tools/bench) uses it for what gcov's instrumentation and
runtime add to the benchmark image. With PATTERNs (regular expressions
on the file name) prints the sums of the files matching each.
"""
import re
import sys

KINDS = (("text", (".text",)), ("rodata", (".rodata",)),
         ("data", (".data", ".init_array", ".fini_array", ".got")),
         ("bss", (".bss", "COMMON")))
# An input section: its name, then (on the same line or the next) its
# address, size and file.
SECTION = re.compile(r"^ (\.\S+|COMMON)\s+0x([0-9a-f]+)\s+0x([0-9a-f]+)\s+(\S.*)$", re.M)


def kind_of(section):
    for kind, prefixes in KINDS:
        if any(section == p or section.startswith(p + ".") for p in prefixes):
            return kind
    return None


def read_map(path):
    """(section, kind, size, file) for every input section the image
    keeps, debug information left out."""
    with open(path, errors="replace") as f:
        text = f.read()
    _, sep, body = text.partition("Linker script and memory map")
    if not sep:
        raise ValueError(f"{path}: not a GNU ld map (no 'Linker script and memory map')")
    # Join a section name alone on its line with the line that follows.
    body = re.sub(r"^ (\.\S+)\n\s+(0x)", r" \1 \2", body, flags=re.M)
    sections = []
    for m in SECTION.finditer(body):
        kind = kind_of(m.group(1))
        size = int(m.group(3), 16)
        if kind and size:
            sections.append((m.group(1), kind, size, m.group(4).strip()))
    return sections


def sizes(sections, keep):
    """Bytes by kind of the sections for which keep(section, file) holds."""
    out = {kind: 0 for kind, _ in KINDS}
    for section, kind, size, file in sections:
        if keep(section, file):
            out[kind] += size
    return out


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().split("\n")[0], file=sys.stderr)
        return 2
    try:
        sections = read_map(sys.argv[1])
    except (OSError, ValueError) as e:
        print(f"mapsizes: {e}", file=sys.stderr)
        return 1
    for pat in sys.argv[2:] or [".*"]:
        rx = re.compile(pat)
        print(pat, sizes(sections, lambda s, f: bool(rx.search(f))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
