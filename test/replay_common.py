"""test/replay_common.py: what goto prints, as test/replay.py and
test/replay_points.py read it."""
import re

GOT_STOP = re.compile(r"stopped on CPU (\d+) \(gdb thread \d+\) at => 0x[0-9a-f]+ <(\w+)\+4>")
GOT_REGS = re.compile(r"x(\d)=(0x[0-9a-f]+)")
GOT_TS = re.compile(r"the event's timestamp (\d+) is the recorder's read")
