"""test/image_check.py: static checks of a built image, for boards QEMU
cannot run (test/run.py's rpi4 stage).

  arm64_header(path)        the arm64 Image header fields
  board_constants(board)    board.h's values, compiled on the host
  referenced_values(elf, lst)
                            every constant the code builds (mov/movk/add
                            sequences in the disassembly listing) and every
                            64-bit word of the loaded sections
  mkimage_script(path)      U-Boot legacy image header of a boot.scr
  fp_simd_functions(elf)    functions that name an FP/SIMD register
  object_symbols(objs)      functions objects define, names they need
"""
import os
import re
import struct
import subprocess
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ARM64_MAGIC = b"ARM\x64"


def arm64_header(path):
    """Fields of the 64-byte header (Linux Documentation/arch/arm64/booting.rst)."""
    with open(path, "rb") as f:
        data = f.read()
    code0, code1, text_offset, image_size, flags = struct.unpack_from("<IIQQQ", data, 0)
    return {
        "file_size": len(data),
        "code0_is_branch": (code0 & 0xfc000000) == 0x14000000,
        "text_offset": text_offset,
        "image_size": image_size,
        "flags": flags,
        "magic": data[56:60],
    }


# Value-defining names board.h may have, and how to print them.
_SCALARS = ["BOARD_UART_BASE", "BOARD_UART_IRQ", "BOARD_UART_CLK_HZ", "BOARD_GICD_BASE",
            "BOARD_GICC_BASE", "BOARD_TIMER_IRQ", "BOARD_TIMER_HZ_FALLBACK",
            "BOARD_PERIPH_BASE", "BOARD_RAM_BASE", "BOARD_RAM_SIZE"]
_ARRAYS = ["BOARD_SPIN_RELEASE_ADDRS", "BOARD_CPU_MPIDRS"]


def board_constants(board, hostcc="cc"):
    """Compiles board/<board>/board.h into a host program that prints each
    value it defines; returns {name: int or [ints]}."""
    lines = ["#include <stdio.h>", '#include "board.h"', "int main(void) {"]
    for n in _SCALARS:
        lines += [f"#ifdef {n}", f'printf("{n} %llu\\n", (unsigned long long)({n}));', "#endif"]
    for n in _ARRAYS:
        lines += [f"#ifdef {n}", "{", f"static const unsigned long long v[] = {n};",
                  f'printf("{n}");',
                  'for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) printf(" %llu", v[i]);',
                  'printf("\\n");', "}", "#endif"]
    lines += ["return 0; }"]
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "b.c"), os.path.join(tmp, "b")
        with open(src, "w") as f:
            f.write("\n".join(lines) + "\n")
        subprocess.run([hostcc, "-I", os.path.join(ROOT, "board", board),
                        "-I", os.path.join(ROOT, "board"), src, "-o", exe], check=True,
                       capture_output=True)
        out = subprocess.run([exe], check=True, capture_output=True, text=True).stdout
    values = {}
    for line in out.splitlines():
        name, *nums = line.split()
        values[name] = [int(x) for x in nums] if name in _ARRAYS else int(nums[0])
    return values


def _elf_sections(path):
    """{name: (file offset, size, flags)} of an ELF64 little-endian file."""
    with open(path, "rb") as f:
        data = f.read()
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3a)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    strtab = hdrs[shstrndx]
    names = data[strtab[4]:strtab[4] + strtab[5]]
    out = {}
    for h in hdrs:
        name = names[h[0]:names.index(b"\0", h[0])].decode()
        out[name] = (h[4], h[5], h[2], h[1])
    return data, out


SHF_ALLOC = 2
SHT_NOBITS = 8

_INSN = re.compile(r"^\s*[0-9a-f]+:\s+[0-9a-f]{8}\s+(mov|movk|movz|add|orr)\s+(.*)$")
_REG = r"([xw])(\d+)"


def _imm(s):
    return int(s, 16) if s.lower().startswith(("0x", "-0x")) else int(s)


def code_constants(lst):
    """Constants the code materialises: register values tracked through
    mov / movk / add-immediate / orr-immediate within each function."""
    values = set()
    regs = {}
    with open(lst) as f:
        for line in f:
            if re.match(r"^[0-9a-f]+ <.*>:$", line):
                regs = {}
                continue
            m = _INSN.match(line)
            if not m:
                continue
            op, args = m.group(1), m.group(2).split("//")[0].strip()
            parts = [p.strip() for p in args.split(",")]
            dm = re.fullmatch(_REG, parts[0])
            if not dm:
                continue
            wide, rd = dm.group(1) == "x", int(dm.group(2))
            mask = (1 << 64) - 1 if wide else (1 << 32) - 1
            val = None
            if op in ("mov", "movz") and len(parts) >= 2 and parts[1].startswith("#"):
                val = _imm(parts[1][1:])
                if len(parts) == 3 and parts[2].startswith("lsl #"):
                    val <<= int(parts[2][5:])
            elif op == "movk" and parts[1].startswith("#") and rd in regs:
                shift = int(parts[2][5:]) if len(parts) == 3 else 0
                val = (regs[rd] & ~(0xffff << shift)) | (_imm(parts[1][1:]) << shift)
            elif op in ("add", "orr") and len(parts) >= 3 and parts[2].startswith("#"):
                sm = re.fullmatch(_REG, parts[1])
                if sm and int(sm.group(2)) in regs:
                    imm = _imm(parts[2][1:])
                    if len(parts) == 4 and parts[3].startswith("lsl #"):
                        imm <<= int(parts[3][5:])
                    src = regs[int(sm.group(2))]
                    val = src + imm if op == "add" else src | imm
            if val is None:
                regs.pop(rd, None)
                continue
            regs[rd] = val & mask
            values.add(val & mask)
    return values


# Dynamic-linking metadata of the static PIE: tags and flags, not
# addresses (DT_FLAGS_1's DF_1_PIE is 0x8000000, QEMU virt's GIC base).
_METADATA = {".dynamic", ".dynsym", ".dynstr", ".hash", ".gnu.hash"}


def data_words(elf):
    """Every 8-byte-aligned 64-bit word of the sections that are loaded."""
    data, sections = _elf_sections(elf)
    words = set()
    for name, (off, size, flags, stype) in sections.items():
        if not flags & SHF_ALLOC or stype == SHT_NOBITS or name in _METADATA:
            continue
        for i in range(0, size - size % 8, 8):
            words.add(struct.unpack_from("<Q", data, off + i)[0])
    return words


def referenced_values(elf, lst):
    return code_constants(lst) | data_words(elf)


def in_window(values, base, size):
    return sorted(v for v in values if base <= v < base + size)


def mkimage_script(path):
    """(magic ok, image type, payload) of a U-Boot legacy image."""
    with open(path, "rb") as f:
        data = f.read()
    magic, = struct.unpack_from(">I", data, 0)
    return magic == 0x27051956, data[30], data[64:]


def _tool(name):
    """The cross binutils program the Makefile's toolchain choice implies."""
    import shutil
    for prefix in ("aarch64-none-elf-", "aarch64-linux-gnu-"):
        if shutil.which(prefix + name):
            return prefix + name
    return name


_FP_REG = re.compile(r"(?<![\w#])[qvdsh](?:[0-9]|[12][0-9]|3[01])(?!\w)")


def fp_simd_functions(elf):
    """Functions of elf with an instruction naming an FP/SIMD data register
    (q/v/d/s/hN; FPCR and FPSR moves alone do not count)."""
    out = subprocess.run([_tool("objdump"), "-d", "--no-show-raw-insn", elf],
                         capture_output=True, text=True, check=True).stdout
    found, func = set(), None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <(.*)>:$", line)
        if m:
            func = m.group(1)
            continue
        parts = line.split("\t")
        if func and len(parts) >= 3 and _FP_REG.search(parts[2].split("//")[0]):
            found.add(func)
    return found


def object_symbols(objs):
    """(defined function names, undefined names) over object files."""
    defined, undefined = set(), set()
    for o in objs:
        out = subprocess.run([_tool("nm"), o], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            f = line.split()
            if len(f) == 2 and f[0] == "U":
                undefined.add(f[1])
            elif len(f) == 3 and f[1] in "Tt":
                defined.add(f[2])
    return defined, undefined
