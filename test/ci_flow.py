"""test/ci_flow.py: the 'ci' stage: what a CI system built on baretrace
relies on (issue 41): a run whose figures are exact and repeat, a
performance gate that passes identical runs and names a planted
regression, JUnit results a real consumer reads, and the example
pipeline run end to end.

Each part is a module test/ci_*.py with a check(h, res, board); they run
in the order below, one at a time, on the tree's build/.
"""
import importlib

MODULES = [
    "ci_exact",
    "ci_junit",
    "ci_pipeline",
]


def stage_ci(h, res, board):
    for name in MODULES:
        importlib.import_module(name).check(h, res, board)
