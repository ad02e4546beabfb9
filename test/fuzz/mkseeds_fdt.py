#!/usr/bin/env python3
"""test/fuzz/mkseeds_fdt.py: writes the seed DTBs in corpus/fdt/.

QEMU's own virt DTB is padded to 1 MiB and its contents alone are about
8 KiB, both over the fuzz runs' -max_len=4096, so the seeds are small
trees assembled here by hand from the devicetree specification v0.4
chapter 5. They only have to be valid enough to get the fuzzer past
fdt_check; the unit test covers the real blob. Rerun after editing:
    python3 test/fuzz/mkseeds_fdt.py
"""
import os
import struct

BEGIN_NODE, END_NODE, PROP, NOP, END = 1, 2, 3, 4, 9


def pad4(b):
    return b + b"\0" * (-len(b) % 4)


class Tree:
    def __init__(self):
        self.st = b""
        self.strings = b""

    def tok(self, t):
        self.st += struct.pack(">I", t)

    def begin(self, name):
        self.tok(BEGIN_NODE)
        self.st += pad4(name.encode() + b"\0")

    def end(self):
        self.tok(END_NODE)

    def prop(self, name, value):
        key = name.encode() + b"\0"
        off = self.strings.find(key)
        if off < 0 or (off and self.strings[off - 1] != 0):
            off = len(self.strings)
            self.strings += key
        self.tok(PROP)
        self.st += struct.pack(">II", len(value), off) + pad4(value)

    def blob(self):
        self.tok(END)
        return self.header() + self.st + self.strings

    def bare(self, end=True):
        """The form fuzz_fdt.c gives its own header: a 16-bit big-endian
        structure block length, then both blocks."""
        if end:
            self.tok(END)
        return struct.pack(">H", len(self.st)) + self.st + self.strings

    def header(self):
        hdr_len, rsv_len = 40, 16         # reserve map: one empty entry
        st_off = hdr_len + rsv_len
        sr_off = st_off + len(self.st)
        total = sr_off + len(self.strings)
        hdr = struct.pack(">10I", 0xD00DFEED, total, st_off, sr_off, hdr_len,
                          17, 16, 0, len(self.strings), len(self.st))
        return hdr + b"\0" * rsv_len


def cells(*v):
    return struct.pack(">%dI" % len(v), *v)


def strs(*s):
    return b"".join(x.encode() + b"\0" for x in s)


def virt_like(form=Tree.blob):
    """The nodes the kernel reads on QEMU virt, plus a NOP."""
    t = Tree()
    t.begin("")
    t.prop("#address-cells", cells(2))
    t.prop("#size-cells", cells(2))
    t.prop("compatible", strs("linux,dummy-virt"))
    t.begin("psci")
    t.prop("compatible", strs("arm,psci-0.2", "arm,psci"))
    t.prop("method", strs("hvc"))
    t.end()
    t.begin("memory@40000000")
    t.prop("device_type", strs("memory"))
    t.prop("reg", cells(0, 0x40000000, 0, 0x20000000))
    t.end()
    t.tok(NOP)
    t.begin("pl011@9000000")
    t.prop("compatible", strs("arm,pl011", "arm,primecell"))
    t.prop("reg", cells(0, 0x09000000, 0, 0x1000))
    t.end()
    t.begin("cpus")
    t.prop("#address-cells", cells(1))
    t.prop("#size-cells", cells(0))
    for i in range(2):
        t.begin("cpu@%d" % i)
        t.prop("device_type", strs("cpu"))
        t.prop("reg", cells(i))
        t.end()
    t.end()
    t.begin("chosen")
    t.prop("bootargs", strs('loglevel=7 msg="hi there" -- app -v'))
    t.prop("stdout-path", strs("/pl011@9000000"))
    t.end()
    t.end()
    return form(t)


def empty_root():
    t = Tree()
    t.begin("")
    t.end()
    return t.blob()


def deep():
    """A chain one past the reader's depth limit of 64, then a sibling."""
    t = Tree()
    t.begin("")
    for _ in range(65):
        t.begin("n")
    for _ in range(65):
        t.end()
    t.begin("chosen")
    t.prop("", b"")                         # empty name, empty value
    t.end()
    t.end()
    return t.blob()


def edges():
    """Blocks that stop exactly where a bound check matters. fuzz_fdt puts
    each block last in its buffer in turn, so a reader that looks one byte
    too far trips ASan on these as they are, before any mutation."""
    # A value with no NUL, ending the structure block: a string-list
    # search must stop at its length.
    t = Tree()
    t.begin("")
    t.prop("compatible", b"arm,pl01")
    value_end = t.bare(end=False)
    # A property name with no NUL, ending the strings block: the name
    # comparison must stop at the block's end.
    t = Tree()
    t.begin("")
    t.prop("reg", cells(0))
    t.prop("compatible", strs("arm,pl011"))
    t.strings = t.strings[:-1]
    t.end()
    return value_end, t.bare()


def main():
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "corpus", "fdt")
    os.makedirs(out, exist_ok=True)
    for name, blob in (("virt-like.dtb", virt_like()),
                       ("empty-root.dtb", empty_root()),
                       ("deep.dtb", deep()),
                       ("virt-like.bare", virt_like(Tree.bare)),
                       ("value-at-end.bare", edges()[0]),
                       ("name-at-end.bare", edges()[1])):
        assert len(blob) <= 4096, name
        with open(os.path.join(out, name), "wb") as f:
            f.write(blob)


if __name__ == "__main__":
    main()
