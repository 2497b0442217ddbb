#!/usr/bin/env python3
"""kcheck --format html, rendered by a real browser (headless Chromium).

usage: html_in_chromium.py KCHECK OUTDIR COMMAND:FILE [COMMAND:FILE ...]

Exit 77 (CTest: skipped) when no Chromium is installed. For each case it
writes `kcheck COMMAND FILE --format html` to OUTDIR, has Chromium load it
(file://, no network) and dump the DOM after its script ran, and checks:
- the script ran to its end: the page's console sentinel is on stderr, no
  console error or uncaught exception is, and <body> carries its marker;
- every source line's code cell reads exactly as the file's line (escaping:
  the inputs hold `<`, `&`, quotes, `</script>` and UTF-8), and no element
  came out of the source text (no <img>);
- the per-line counters are those of `kcheck predict FILE --format json`
  ("lines_innermost", summed over the launches): shared wavefronts, global
  sectors, on exactly the lines the JSON has them;
- each [bank-conflict] finding has its lanes -> banks picture, each
  [uncoalesced-access] finding its lanes -> sectors picture;
then takes a 1280x2000 screenshot of the first case and checks it is a PNG
of some substance.
"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys

SKIP = 77
SENTINEL = "kcheck-report: ready"


class Dom(html.parser.HTMLParser):
    """The rows of the source table and the few elements the test counts."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.rows = {}      # line -> {"code": text, cell class -> attrs}
        self.row = None
        self.cell = None
        self.tags = {}      # tag -> count
        self.svg_labels = []
        self.body_attrs = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == "body":
            self.body_attrs = a
        if tag == "tr" and re.fullmatch(r"L\d+", a.get("id", "")):
            self.row = {"code": ""}
            self.rows[int(a["id"][1:])] = self.row
        elif tag == "td" and self.row is not None:
            cls = a.get("class", "")
            self.cell = cls
            self.row["td " + (cls.split(" ")[1] if cls.startswith("n ") else cls)] = a
        if tag == "svg":
            self.svg_labels.append(a.get("aria-label", ""))

    def handle_endtag(self, tag):
        if tag == "td":
            self.cell = None
        if tag == "tr":
            self.row = None

    def handle_data(self, data):
        if self.row is not None and self.cell == "code":
            self.row["code"] += data


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def run_chromium(browser, extra, url):
    cmd = [browser, "--headless=new", "--no-sandbox", "--disable-gpu",
           "--enable-logging=stderr", "--v=0", "--no-first-run",
           "--virtual-time-budget=5000"] + extra + [url]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120)


def console_problems(stderr):
    """Console messages and uncaught exceptions among Chromium's logging
    (which also has harmless dbus, GPU and sandbox noise)."""
    problems, sentinel = [], False
    for line in stderr.splitlines():
        if "CONSOLE" not in line and "Uncaught" not in line:
            continue
        if SENTINEL in line:
            sentinel = True
        if "Uncaught" in line or "ERROR:CONSOLE" in line or \
                re.search(r":(ERROR|WARNING):CONSOLE", line):
            problems.append(line)
    if not sentinel:
        problems.append("no console sentinel %r on stderr" % SENTINEL)
    return problems


def innermost_counts(kcheck, source):
    out = subprocess.run([kcheck, "predict", source, "--format", "json", "-q"],
                         capture_output=True, text=True)
    report = json.loads(out.stdout)
    shared, sectors = {}, {}
    base = os.path.basename(source)
    for launch in report["launches"]:
        for line in launch.get("lines_innermost", []):
            if os.path.basename(line["file"]) != base:
                continue
            m = line["metrics"]
            n = line["line"]
            w = m.get("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 0) + \
                m.get("smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 0)
            s = m.get("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum", 0) + \
                m.get("smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum", 0)
            i_sh = m.get("smsp__sass_inst_executed_op_shared_ld.sum", 0) + \
                m.get("smsp__sass_inst_executed_op_shared_st.sum", 0)
            i_gl = m.get("smsp__sass_inst_executed_op_global_ld.sum", 0) + \
                m.get("smsp__sass_inst_executed_op_global_st.sum", 0)
            if i_sh:
                shared[n] = shared.get(n, 0) + w
            if i_gl:
                sectors[n] = sectors.get(n, 0) + s
    return shared, sectors


def check_case(kcheck, browser, outdir, case, index, failures):
    command, source = case.split(":", 1)
    page = os.path.join(outdir, "report%d.html" % index)
    with open(page, "w", encoding="utf-8") as f:
        run = subprocess.run([kcheck, command, source, "--format", "html", "-q"],
                             stdout=f, stderr=subprocess.PIPE, text=True)
    if run.returncode not in (0, 1):
        failures.append("%s: kcheck exit %d: %s" % (case, run.returncode, run.stderr))
        return
    url = "file://" + os.path.abspath(page)
    dumped = run_chromium(browser, ["--dump-dom"], url)
    for p in console_problems(dumped.stderr):
        failures.append("%s: %s" % (case, p))
    dom = Dom()
    dom.feed(dumped.stdout)
    if "data-kcheck-ready" not in dom.body_attrs:
        failures.append("%s: the page's script did not finish" % case)
    if dom.tags.get("img"):
        failures.append("%s: source text became an <img> element" % case)

    with open(source, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if sorted(dom.rows) != list(range(1, len(lines) + 1)):
        failures.append("%s: %d source rows in the page, %d lines in the file" %
                        (case, len(dom.rows), len(lines)))
    for n, text in enumerate(lines, 1):
        got = dom.rows.get(n, {}).get("code")
        if got is not None and got != text:
            failures.append("%s:%d: code cell %r, file %r" % (case, n, got, text))

    shared, sectors = innermost_counts(kcheck, source)
    if not shared and not sectors:
        failures.append("%s: predict gave no per-line counts" % source)
    for n, row in dom.rows.items():
        got_w = row.get("td shared", {}).get("data-wavefronts")
        got_s = row.get("td global", {}).get("data-sectors")
        if (int(got_w) if got_w else None) != shared.get(n):
            failures.append("%s:%d: shared wavefronts %s in the page, %s in "
                            "predict's JSON" % (case, n, got_w, shared.get(n)))
        if (int(got_s) if got_s else None) != sectors.get(n):
            failures.append("%s:%d: global sectors %s in the page, %s in "
                            "predict's JSON" % (case, n, got_s, sectors.get(n)))

    sarif = json.loads(subprocess.run(
        [kcheck, command, source, "--format", "sarif", "-q"],
        capture_output=True, text=True).stdout)
    rule_ids = [r["ruleId"] for r in sarif["runs"][0]["results"]]
    banks = rule_ids.count("bank-conflict")
    uncoalesced = rule_ids.count("uncoalesced-access")
    drawn_banks = sum(l.startswith("lanes to banks") for l in dom.svg_labels)
    drawn_sectors = sum(l.startswith("lanes to sectors") for l in dom.svg_labels)
    if (banks, uncoalesced) != (drawn_banks, drawn_sectors):
        failures.append("%s: %d bank-conflict and %d uncoalesced findings, %d "
                        "and %d pictures" % (case, banks, uncoalesced,
                                            drawn_banks, drawn_sectors))
    print("%s: %d lines, %d with shared and %d with global counts, %d + %d "
          "pictures" % (case, len(dom.rows), len(shared), len(sectors),
                        drawn_banks, drawn_sectors))
    return url


def main():
    kcheck, outdir, cases = sys.argv[1], sys.argv[2], sys.argv[3:]
    browser = chromium()
    if not browser:
        print("SKIPPED: no chromium installed (scripts/setup.sh test installs it)")
        return SKIP
    os.makedirs(outdir, exist_ok=True)
    failures, first = [], None
    for i, case in enumerate(cases):
        url = check_case(kcheck, browser, outdir, case, i, failures)
        first = first or url
    if first:
        shot = os.path.join(outdir, "report.png")
        if os.path.exists(shot):
            os.remove(shot)
        run_chromium(browser, ["--screenshot=" + shot, "--window-size=1280,2000",
                               "--hide-scrollbars"], first)
        size = os.path.getsize(shot) if os.path.exists(shot) else 0
        with open(shot, "rb") if size else open(os.devnull, "rb") as f:
            magic = f.read(8)
        # A blank 1280x2000 page compresses to a few kilobytes.
        if magic != b"\x89PNG\r\n\x1a\n" or size < 30000:
            failures.append("screenshot %s: %d bytes, not a PNG of a page" %
                            (shot, size))
        else:
            print("screenshot %s: %d bytes" % (shot, size))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
