"""baretrace's boot tests through labgrid: they use only the console and
power protocols (conftest.py, boot_run), so they run unchanged on QEMU
and on a real board. Pick one by what the board boots:

  -k ktap   APP=test/target with "-- ktest [PREFIX...]": every KTAP line
            is checked against the plan and the summary; any "not ok",
            a crash (no summary, exit status 139 (crash)) or a hang fails
  -k demo   the demo (examples/demo): "demo: PASS" and exit status 0

Each KTAP case is also recorded as a junit property "ktap N" = "ok NAME"
or "not ok NAME", so a farm's dashboard can list the cases.
"""
import re


def crash_summary(text):
    """First line: what the crash report says happened; then the report."""
    what = re.search(r"^exception: .*$", text, re.M)
    return (f"crashed: {what.group(0) if what else 'crash report'}\n" + text[text.find("==== baretrace crash"):][-3000:])


def test_ktap(boot_run, record_property):
    boot_run.read_to_exit()
    text = boot_run.text()
    assert boot_run.status is not None, \
        f"hung: no 'baretrace: exit status' line within {boot_run.timeout:.0f} s\n" + text[-2000:]
    assert "==== baretrace crash" not in text, crash_summary(text)
    plan = re.search(r"^KTAP version 1\n1\.\.(\d+)$", text, re.M)
    assert plan, "no KTAP header and plan:\n" + text[-2000:]
    cases = re.findall(r"^(not ok|ok) (\d+) (\S+)(.*)$", text[plan.end():], re.M)
    for i, (verdict, num, name, rest) in enumerate(cases):
        record_property(f"ktap {num}", f"{verdict} {name}{rest}")
        assert int(num) == i + 1, f"case {name} is numbered {num}, wanted {i + 1}"
    planned = int(plan.group(1))
    assert len(cases) == planned, f"{len(cases)} KTAP cases, the plan says {planned}"
    failed = [f"{num} {name}{rest}" for verdict, num, name, rest in cases if verdict == "not ok"]
    summary = re.search(r"^# ktest: (\d+) tests, (\d+) failed$", text, re.M)
    assert summary, "no KTAP summary line:\n" + text[-2000:]
    assert (int(summary.group(1)), int(summary.group(2))) == (planned, len(failed)), \
        f"summary '{summary.group(0)}' disagrees with {planned} cases, {len(failed)} not ok"
    assert not failed, "not ok: " + "; ".join(failed)
    assert boot_run.status == 0, f"exit status {boot_run.status}"


def test_demo(boot_run):
    boot_run.read_to_exit()
    text = boot_run.text()
    assert boot_run.status is not None, \
        f"hung: no 'baretrace: exit status' line within {boot_run.timeout:.0f} s\n" + text[-2000:]
    assert "==== baretrace crash" not in text, crash_summary(text)
    assert re.search(r"^demo: PASS$", text, re.M), "no 'demo: PASS':\n" + text[-2000:]
    assert boot_run.status == 0, f"exit status {boot_run.status}"
