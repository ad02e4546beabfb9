"""test/make_flow.py: the 'make' stage: the make flow a firmware engineer
types every day (issue 40): what is typed is what runs, every status is
true, applications build as written, the first run fetches what it needs.

Each part is a module test/mk_*.py with a check(h, res, board); they run
in the order below. They drive make itself (make run, run-direct,
run-uboot, APP=...), so they run one at a time, on the tree's build/.
"""
import importlib

MODULES = [
    "mk_fetch",
    "mk_apps",
    "mk_quote",
    "mk_status",
    "mk_appfilter",
    "mk_names",
    "mk_shell",
    "mk_lists",
]


def stage_make(h, res, board):
    for name in MODULES:
        importlib.import_module(name).check(h, res, board)
