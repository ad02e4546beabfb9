"""test/doc_costs.py: the docs' instruction counts that KTAP tests print
under -icount shift=0 (exact there: the PMU counts instructions), held to
the line the test prints in the run of the target stage that boots it
(coverage_frames.py boots coverage_cost, hist_frames.py hist_ev_cost and
args_cost). Each entry: the page, a regex of the page's figures, a regex
of the test's line and how the page's figures follow from the line's.
"""
import os
import re

from harness import ROOT

COSTS = {
    "coverage_cost": (
        "docs/coverage.md",
        r"^\| a call of an untraced function \(with the measuring loop\) \| ([\d,]+) \|\n"
        r"\| its first call under coverage \| ([\d,]+) \(\+([\d,]+)\) \|\n"
        r"\| a call before the tick's batch took it off \| ([\d,]+) \(\+([\d,]+)\) \|\n"
        r"\| ([\d,]+) calls after the batch \| ([\d,]+), exactly .*\|\n"
        r"\| the batch that took the site off .*\| ([\d,]+) \|$",
        r"^# coverage cost in instructions: untraced call (\d+), first hit (\d+), a hit before "
        r"the batch (\d+), the batch of one site (\d+), (\d+) calls after it (\d+) "
        r"\(untraced \d+\)$",
        lambda one, first, again, batch, n, after:
            (one, first, first - one, again, again - one, n, after, batch)),
    "hist_ev_cost": (
        "docs/histograms.md",
        r"`hist_ev_cost` under `-icount shift=0` measures (\d+) instructions\s+"
        r"a keyed hit and (\d+) an unkeyed one",
        r"^# hist_ev cost in instructions per hit beyond the site off: keyed (\d+), "
        r"unkeyed (\d+) \(site off: \d+ a call\)$",
        lambda keyed, plain: (keyed, plain)),
    "args_cost": (
        "docs/arguments.md",
        r"test_args_cost\.c, (\d+) calls of `tt_args`\): the call alone\s+(\d+); recording "
        r"three argument registers adds (\d+); with the string x0\s+points to, 5 bytes, "
        r"(\d+); a 32-byte string \(cut\) (\d+)\.",
        r"^# args cost in instructions per call \((\d+) calls\): untraced (\d+), 3 registers "
        r"\+(\d+), and a 5-byte string \+(\d+), a 32-byte string \(cut\) \+(\d+)$",
        lambda *figures: figures),
}


def cost_problems(name, page_text, out):
    """What of the page's figures for test NAME the test's line in out
    does not give (an empty list: all equal)."""
    _, page_rx, line_rx, derive = COSTS[name]
    said = re.search(page_rx, page_text, re.M)
    line = re.search(line_rx, out.replace("\r", ""), re.M)
    if not said or not line:
        return [f"{name}: " + ("no figures on the page" if not said else "no line from the test")]
    got = derive(*map(int, line.groups()))
    page = [int(g.replace(",", "")) for g in said.groups()]
    return [f"{name}: figure {i + 1} of the page {p:,}, the test {g:,}"
            for i, (p, g) in enumerate(zip(page, got)) if p != g]


def check_doc_costs(res, names, out):
    """Record, for each test of names, that its page's figures are what
    the test printed in out; a page with its first figure planted one
    more must fail."""
    for name in names:
        page = COSTS[name][0]
        with open(os.path.join(ROOT, page)) as f:
            text = f.read()
        bad = cost_problems(name, text, out)
        said = re.search(COSTS[name][1], text, re.M)
        planted = (text[:said.start(1)] + str(int(said[1].replace(",", "")) + 1)
                   + text[said.end(1):]) if said else text
        caught = cost_problems(name, planted, out)
        res.record(f"{page}: the instruction counts it quotes from ktest {name} (-icount) are "
                   "what the test printed; one planted one more fails",
                   not bad and len(caught) == 1, "\n".join(bad + caught) + "\n" + out[-1500:])
