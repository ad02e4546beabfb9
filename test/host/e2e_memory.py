#!/usr/bin/env python3
"""test/host/e2e_memory.py: the host tool streams (issue 26). Usage:
e2e_memory.py PATH/TO/baretrace (build/host/gentrace beside it); prints TAP.

Two synthetic function_graph traces from tools/gentrace/, 250,000 and
1,000,000 events on four CPUs, blocks sent in the order the CPUs fill
them, as the target sends them. Each command that streams reads both;
its peak RSS (the kernel's ru_maxrss for that child, not a time) must
stay under a bound the design gives, and must not grow with the trace.
A third trace, 1,000,000 events again, has a mostly idle CPU (it
records 100,000 times less often): its blocks reach the file long after
their first event, so a merge that holds what arrived until every CPU
has caught up holds nearly the whole trace; report reads such a block
from where it lies and stays under the same bound.

The bound: report holds the items the CPUs' blocks overlap (a few 1 KiB
blocks per CPU, about 250 events each, 64 bytes an item), a plan entry
(24 bytes) per block, the names (1500 functions); the trace-cmd export
holds a 4 KiB page per CPU. All of that is well under 1 MB here; the
process itself (libc, libelf, the 64 KiB frame buffer) about 2-3 MB. So
16 MB at 1M events leaves room for allocator slack while the tool before
streaming (about 74 MB for report and for the trace-cmd export at 1M:
110 bytes per event) fails it; and from 250K to 1M events the peak may
grow by at most 4 MB (the plan grows by about 100 KB; before, 54 MB).
"""
import os
import subprocess
import sys
import tempfile

BOUND_KB = 16 * 1024
GROWTH_KB = 4 * 1024
SIZES = (250000, 1000000)


class Tap:
    def __init__(self):
        self.n = 0
        self.failed = 0

    def check(self, ok, what, detail=""):
        self.n += 1
        self.failed += not ok
        print(f"{'ok' if ok else 'not ok'} {self.n} - {what}")
        if not ok and detail:
            for line in str(detail).splitlines()[:20]:
                print(f"# {line}")


def peak_kb(cmd):
    """Runs cmd with stdout discarded: (exit status, peak RSS in KB, stderr).
    /usr/bin/time (tools/setup installs it) starts it: a child forked
    from this Python would count Python's own pages in its peak."""
    with tempfile.TemporaryFile() as err:
        st = subprocess.run(["/usr/bin/time", "-f", "peak-kb %M"] + cmd,
                            stdout=subprocess.DEVNULL, stderr=err,
                            stdin=subprocess.DEVNULL).returncode
        err.seek(0)
        text = err.read().decode(errors="replace")
    lines = text.rstrip("\n").split("\n")
    kb = int(lines[-1].split()[-1]) if lines[-1].startswith("peak-kb ") else -1
    return st, kb, text


def main():
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    tool = os.path.abspath(sys.argv[1])
    gen = os.path.join(os.path.dirname(tool), "gentrace")
    tap = Tap()
    with tempfile.TemporaryDirectory(prefix="bt-memory-") as tmp:
        traces = {}
        for n in SIZES:
            path = os.path.join(tmp, f"g{n}.bt")
            st = subprocess.run([gen, path, str(n), "4", "graph"]).returncode
            tap.check(st == 0, f"gentrace writes a {n}-event trace")
            traces[n] = path
        idle = os.path.join(tmp, "idle.bt")
        st = subprocess.run([gen, idle, str(SIZES[-1]), "4", "graph", "1", "100000"]).returncode
        tap.check(st == 0, "gentrace writes a trace with a mostly idle CPU")
        st, kb, err = peak_kb([tool, "report", idle])
        tap.check(st == 0 and 0 < kb <= BOUND_KB, f"report on {SIZES[-1]} events with a mostly "
                  f"idle CPU: exit {st}, peak RSS {kb} KB <= {BOUND_KB} KB", err)
        commands = {
            "report": lambda t: [tool, "report", t],
            "stats": lambda t: [tool, "stats", t],
            "export --format=trace-cmd": lambda t: [tool, "export", "--format=trace-cmd",
                                                    "-o", t + ".dat", t],
            "export --format=ctf": lambda t: [tool, "export", "--format=ctf",
                                              "-o", t + ".ctf", t],
        }
        for name, cmd in commands.items():
            peaks = {}
            for n in SIZES:
                st, kb, err = peak_kb(cmd(traces[n]))
                peaks[n] = kb
                tap.check(st == 0, f"{name} on {n} events: exit 0", err)
            big, small = peaks[SIZES[-1]], peaks[SIZES[0]]
            tap.check(big <= BOUND_KB, f"{name}: peak RSS at {SIZES[-1]} events {big} KB "
                      f"<= {BOUND_KB} KB")
            tap.check(big - small <= GROWTH_KB, f"{name}: peak RSS grows {big - small} KB "
                      f"from {SIZES[0]} to {SIZES[-1]} events, <= {GROWTH_KB} KB")
    print(f"1..{tap.n}")
    return 1 if tap.failed else 0


if __name__ == "__main__":
    sys.exit(main())
