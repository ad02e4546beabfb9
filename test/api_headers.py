"""test/api_headers.py: the application API's headers stand alone (a check
of the build stage). An application gets only include/ and its own
folders on the include path (mk/app.mk), so include/baretrace.h and
everything it includes must compile with -Iinclude alone: no kernel
header, no libc header (-nostdinc; the compiler's own freestanding
stdint.h, stddef.h, stdbool.h only), as C and as C++, -Werror, and with
every inline accessor instantiated. A second file that reaches for a
kernel header must fail the same way, or the check proves nothing.
"""
import os
import subprocess
import tempfile

USE = r"""
#include <baretrace.h>
static bt_spinlock lock = BT_SPINLOCK_INIT;
static BT_PER_CPU(unsigned long, hits);
unsigned long api_use(volatile unsigned char *regs, void *buf);
unsigned long api_use(volatile unsigned char *regs, void *buf)
{
	struct bt_device d;
	unsigned long f = bt_spin_lock_irqsave(&lock);
	bt_this_cpu(hits)++;
	bt_spin_unlock_irqrestore(&lock, f);
	bt_write8(bt_read8(regs), regs);
	bt_write16_relaxed(bt_read16_relaxed(regs), regs);
	bt_write32(bt_read32(regs), regs);
	bt_write64_relaxed(bt_read64(regs), regs);
	bt_dcache_clean_inval(buf, 64);
	time_delay_ms(1);
	return (unsigned long)bt_dev_find("arm,pl011", 0, &d) + bt_per_cpu(hits, 0) +
	       (unsigned long)bt_console_getc_timeout(10);
}
"""
KERNEL_REACH = '#include <baretrace.h>\n#include "spinlock.h"\n'


def compile_alone(root, compiler, lang, text):
    """(status, output) of compiling 'text' with -Iinclude only."""
    inc = subprocess.run([compiler, "-print-file-name=include"], capture_output=True,
                         text=True).stdout.strip()
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "use." + ("cpp" if lang == "c++" else "c"))
        with open(src, "w") as f:
            f.write(text)
        cmd = [compiler, "-x", lang, "-ffreestanding", "-nostdinc", "-isystem", inc,
               "-Iinclude", "-Wall", "-Wextra", "-Werror", "-O2", "-c", src,
               "-o", os.path.join(d, "use.o")]
        if lang == "c++":
            cmd[3:3] = ["-std=c++17", "-fno-exceptions", "-fno-rtti"]
        else:
            cmd[3:3] = ["-std=c11", "-Wpedantic"]
        p = subprocess.run(cmd, cwd=root, capture_output=True, text=True)
        return p.returncode, " ".join(cmd) + "\n" + p.stdout + p.stderr


def check(res, root):
    for compiler, lang in (("aarch64-linux-gnu-gcc", "c"), ("aarch64-linux-gnu-g++", "c++")):
        st, out = compile_alone(root, compiler, lang, USE)
        res.record(f"include/baretrace.h compiles as {lang} with -Iinclude alone "
                   "(no kernel or libc header), every accessor used", st == 0, out)
    st, out = compile_alone(root, "aarch64-linux-gnu-gcc", "c", KERNEL_REACH)
    res.record("the same compile of a file that includes a kernel header fails "
               "(the check really hides kernel/)", st != 0 and "spinlock.h" in out, out)
