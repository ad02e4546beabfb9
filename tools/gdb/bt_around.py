"""tools/gdb/bt_around.py: baretrace-around and baretrace-trace, the trace
around the current point of a rerun of a recorded run (baretrace goto,
docs/replay.md): before it each CPU's ring, after it the recorded trace
file. Loaded by baretrace.py, which hands over how it reads the image
and the rings (register()).
"""
import os

import gdb

import bt_file
import bt_wire as wire
from bt_text import open_calls, record_text

_from_image = {}


# The recorded run's trace (baretrace goto names it with baretrace-trace):
# what each CPU does after the current point.
_later = {"path": None, "events": None}


class TraceCommand(gdb.Command):
    """Name the trace file of the run this target is a rerun of (make
record's trace.bt; baretrace goto does it), for baretrace-around.
Usage: baretrace-trace FILE.bt"""

    def __init__(self):
        super().__init__("baretrace-trace", gdb.COMMAND_DATA, gdb.COMPLETE_FILENAME)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        if len(argv) != 1 or not os.path.isfile(argv[0]):
            raise gdb.GdbError("usage: baretrace-trace FILE.bt (an existing trace file)")
        _later.update(path=argv[0], events=None)


class AroundCommand(gdb.Command):
    """The trace around the current point, on every CPU: the last N events
each CPU recorded (its ring, as baretrace-last), then the next N the
recorded run has after them (the file baretrace-trace named), found by
the count of events the CPU produced so far (default 5).
Usage: baretrace-around [N]"""

    def __init__(self):
        super().__init__("baretrace-around", gdb.COMMAND_DATA)

    def invoke(self, arg, from_tty):
        argv = gdb.string_to_argv(arg)
        try:
            n = int(argv[0]) if argv else 5
        except ValueError:
            n = -1
        if len(argv) > 1 or n < 0:
            raise gdb.GdbError("usage: baretrace-around [N]")
        if not _later["path"]:
            raise gdb.GdbError("baretrace: no recorded trace to read what comes next: "
                               "baretrace-trace FILE.bt (baretrace goto names it)")
        img = _from_image["Image"]()
        if _later["events"] is None:
            with open(_later["path"], "rb") as f:
                _later["events"] = bt_file.events_by_cpu(f.read(), img.event_types)
        for ring in _from_image["read_rings"](img):
            recs = list(_from_image["ring_records"](img, ring))
            events = [i for i, r in enumerate(recs) if r["kind"] != wire.REC_LOST]
            first = events[max(0, len(events) - n)] if n and events else len(recs)
            depths = open_calls(recs)
            done = ring.totals()[1]
            print(f"# cpu {ring.cpu}: last {min(n, len(events))} events in its ring")
            for i in range(first, len(recs)):
                print(record_text(img, ring.cpu, recs[i], depths[i]))
            later = _later["events"].get(ring.cpu, [])
            after = [k for k, (idx, _) in enumerate(later) if idx >= done][:n]
            depths = open_calls([r for _, r in later])
            print(f"# cpu {ring.cpu}: ---- now: {done} events produced; the next "
                  f"{len(after)} of the recorded run ----")
            for k in after:
                print(record_text(img, ring.cpu, later[k][1], depths[k]))


def register(image, read_rings, ring_records):
    """The commands, reading the target through baretrace.py's Image,
    read_rings and ring_records."""
    _from_image.update(Image=image, read_rings=read_rings, ring_records=ring_records)
    TraceCommand()
    AroundCommand()
