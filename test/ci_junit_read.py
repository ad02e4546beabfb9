"""test/ci_junit_read.py: JUnit XML read back for test/ci_junit.py: the
consumer (xunit-viewer from npm, pinned under tools/npm/, its page
rendered by headless chromium) and the file's own shape (cases_of)."""
import html
import os
import re
import tempfile
import xml.etree.ElementTree as ET


def viewer(h):
    """The consumer's command, installed (pinned) if it is not there."""
    exe = os.path.join(h.ROOT, "build", "npm", "xunit-viewer", "node_modules", ".bin",
                       "xunit-viewer")
    st, out = h.run([os.path.join(h.ROOT, "tools", "npm-install"), "xunit-viewer"], timeout=600)
    return (exe if st == 0 and os.path.exists(exe) else None), out


def rendered(h, exe, xml_path, tmp):
    """The testcases the consumer shows: [(state, name, texts)] from the
    DOM chromium built from xunit-viewer's page; and what went wrong."""
    page = xml_path + ".html"
    st, out = h.run([exe, "-r", xml_path, "-o", page, "-t", "baretrace"], timeout=120)
    if st != 0 or not os.path.exists(page):
        return None, f"xunit-viewer: exit {st}\n{out}"
    # A window tall enough for every card: the page renders a card only
    # once it is visible. Under load (make fresh-check beside a clean-
    # clone CI) chromium sometimes dumped the DOM before the page's script
    # had drawn any card, 10 s of virtual time notwithstanding: then again,
    # with more virtual time.
    for budget in (10000, 30000, 60000, 120000):
        prof = tempfile.mkdtemp(dir=tmp)
        st, dom = h.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu",
                         f"--user-data-dir={prof}", "--window-size=1280,8000",
                         f"--virtual-time-budget={budget}", "--dump-dom", "file://" + page],
                        timeout=300)
        if '<div class="test card ' in dom:
            break
    cards = []
    for chunk in dom.split('<div class="test card ')[1:]:
        state = re.match(r'[^"]*\bis-(failure|passed|skipped|error)\b', chunk)
        name = re.search(r'<p class="card-header-title">.*?<span>(.*?)</span>', chunk, re.S)
        raw = chunk.split('<div class="test card ')[0]
        texts = [html.unescape(t) for t in re.findall(r"<pre>(.*?)</pre>", raw, re.S)]
        cards.append((state.group(1) if state else "?", html.unescape(name.group(1))
                      if name else "?", texts))
    return cards, f"chromium: exit {st}; cards {cards}\n{dom[-1500:]}"


def cases_of(path):
    """{name: (classname, state, message, text)} and a shape problem, or None."""
    root = ET.parse(path).getroot()
    cases, problems = {}, []
    if root.tag != "testsuites":
        problems.append(f"root <{root.tag}>")
    for suite in root:
        if suite.tag != "testsuite" or "name" not in suite.attrib:
            problems.append(f"<{suite.tag}> {suite.attrib} under <testsuites>")
        n = 0
        for tc in suite:
            if tc.tag != "testcase":
                continue
            n += 1
            if not {"classname", "name", "time"} <= set(tc.attrib):
                problems.append(f"testcase attributes {tc.attrib}")
            fail, skip = tc.find("failure"), tc.find("skipped")
            if fail is not None and "message" not in fail.attrib:
                problems.append(f"failure without message in {tc.attrib}")
            state = "failure" if fail is not None else "skipped" if skip is not None else "passed"
            msg = (fail if fail is not None else skip if skip is not None else tc).get("message")
            cases[tc.get("name")] = (tc.get("classname"), state, msg,
                                     fail.text if fail is not None else None)
        if suite.get("tests") != str(n):
            problems.append(f"testsuite tests={suite.get('tests')}, {n} testcases")
    return cases, "; ".join(problems) or None
