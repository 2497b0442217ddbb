#!/usr/bin/env python3
"""kcheck --format sarif and json: valid SARIF 2.1.0, and the same findings as text.

usage: sarif_schema.py KCHECK SCHEMA COMMAND:FILE [COMMAND:FILE ...]

For each COMMAND:FILE (run from the current directory, which CTest sets to
the repository root) it runs `kcheck COMMAND FILE --format sarif` and checks:
- the log validates against the SARIF 2.1.0 JSON schema (SCHEMA, draft-04);
- every result's ruleId/ruleIndex name a rule of tool.driver.rules, its
  level is warning/error/note, its location is relative to the current
  directory under %SRCROOT% (or an absolute file: URI outside it);
- its fingerprint is the documented hash of rule, file and line text (so it
  depends on nothing else, and is stable across runs) and unique in the log;
- the results are the findings of `kcheck COMMAND FILE` (text): same lines,
  columns, ids and messages; exit code 1 exactly when there is a warning or
  error, 0 otherwise;
- `--format json` lists the same findings (its "findings" array).
Text findings are read from stdout and stderr (predict prints the program's
memory errors on stderr, beside its counters).
"""
import json
import os
import re
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    # CMake may have found a Python other than Debian's, which setup.sh
    # gives python3-jsonschema.
    if sys.executable != "/usr/bin/python3" and os.path.exists("/usr/bin/python3"):
        os.execv("/usr/bin/python3", ["/usr/bin/python3"] + sys.argv)
    raise

TEXT_FINDING = re.compile(
    r"^(?:(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+)|kcheck): "
    r"(?P<level>warning|error|remark): (?P<message>.*) \[(?P<id>[^\]]+)\]$")


def fnv1a(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def line_text(path: str, number: int) -> str:
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    text = lines[number - 1] if 0 < number <= len(lines) else b""
    return bytes(c for c in text if c not in b" \t\r\n\v\f").decode("utf-8", "replace")


def check_log(log, schema, source, failures):
    validator_class = jsonschema.validators.validator_for(schema)
    validator = validator_class(schema)
    for error in sorted(validator.iter_errors(log), key=lambda e: list(e.path)):
        failures.append("schema: %s at /%s" % (error.message,
                                              "/".join(str(p) for p in error.path)))
    if log.get("version") != "2.1.0" or len(log.get("runs", [])) != 1:
        failures.append("want version 2.1.0 and one run")
        return []
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    rules = driver.get("rules", [])
    if driver.get("name") != "kcheck" or not rules:
        failures.append("tool.driver must be kcheck with its rules")
    for rule in rules:
        for key in ("id", "name", "shortDescription", "fullDescription",
                    "defaultConfiguration"):
            if key not in rule:
                failures.append("rule %s lacks %s" % (rule.get("id"), key))
        if "help" not in rule and "helpUri" not in rule and \
                rule.get("defaultConfiguration", {}).get("level") != "note":
            failures.append("rule %s has no help" % rule.get("id"))
    launches = run.get("properties", {}).get("launches")
    if not isinstance(launches, list) or not launches:
        failures.append("run.properties.launches missing")
    fingerprints = set()
    findings = []
    for r in run.get("results", []):
        rid, index = r.get("ruleId"), r.get("ruleIndex")
        if index is None or index >= len(rules) or rules[index]["id"] != rid:
            failures.append("result %s: ruleIndex %s names another rule" % (rid, index))
        if r.get("level") not in ("warning", "error", "note"):
            failures.append("result %s: level %s" % (rid, r.get("level")))
        if not r.get("locations"):
            findings.append((0, 0, rid, r["message"]["text"].split("\n")[0]))
            continue
        loc = r["locations"][0]["physicalLocation"]
        uri = loc["artifactLocation"]["uri"]
        base = loc["artifactLocation"].get("uriBaseId")
        region = loc["region"]
        inside = not os.path.relpath(os.path.abspath(source)).startswith("..")
        if inside and (base != "%SRCROOT%" or uri.startswith("/") or ".." in uri):
            failures.append("result %s: uri %s (base %s) is not relative to the "
                            "source root" % (rid, uri, base))
        if not inside and (base is not None or not uri.startswith("file:///")):
            failures.append("result %s: uri %s outside the current directory "
                            "must be an absolute file: URI" % (rid, uri))
        fingerprint = r.get("partialFingerprints", {}).get("kcheckLineHash/v1", "")
        want = "%016x" % fnv1a(("%s\n%s\n%s" % (rid, uri, line_text(
            source, region["startLine"]))).encode("utf-8"))
        if fingerprint.split(":")[0] != want:
            failures.append("result %s line %d: fingerprint %s, want %s:N" %
                            (rid, region["startLine"], fingerprint, want))
        if fingerprint in fingerprints:
            failures.append("fingerprint %s twice" % fingerprint)
        fingerprints.add(fingerprint)
        findings.append((region["startLine"], region.get("startColumn", 0), rid,
                         r["message"]["text"].split("\n")[0]))
    return findings


def main():
    kcheck, schema_path = sys.argv[1], sys.argv[2]
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    failures = []
    for case in sys.argv[3:]:
        command, source = case.split(":", 1)
        sarif = subprocess.run([kcheck, command, source, "--format", "sarif", "-q"],
                               capture_output=True, text=True)
        text = subprocess.run([kcheck, command, source, "-q"], capture_output=True,
                              text=True)
        mine = []
        try:
            log = json.loads(sarif.stdout)
        except json.JSONDecodeError as e:
            failures.append("%s: not JSON (%s); stderr: %s" % (case, e, sarif.stderr))
            continue
        mine = check_log(log, schema, source, failures)
        expected = []
        for line in (text.stdout + text.stderr).splitlines():
            m = TEXT_FINDING.match(line)
            if m:
                expected.append((int(m["line"] or 0), int(m["col"] or 0), m["id"],
                                 m["message"]))
        if sorted(mine) != sorted(expected):
            failures.append("%s: SARIF results %s differ from the text findings %s" %
                            (case, sorted(mine), sorted(expected)))
        js = subprocess.run([kcheck, command, source, "--format", "json", "-q"],
                            capture_output=True, text=True)
        try:
            findings = json.loads(js.stdout[js.stdout.index("{"):])["findings"]
            in_json = [(f["line"], f["column"], f["check"], f["message"])
                       for f in findings if f["severity"] != "note"]
            if sorted(in_json) != sorted(expected):
                failures.append("%s: JSON findings %s differ from the text findings %s" %
                                (case, sorted(in_json), sorted(expected)))
        except (ValueError, KeyError) as e:
            failures.append("%s: --format json has no findings (%s); stderr: %s" %
                            (case, e, js.stderr))
        levels = [r["level"] for r in log["runs"][0]["results"]]
        want_exit = 1 if any(l in ("warning", "error") for l in levels) else 0
        if sarif.returncode != want_exit or text.returncode != want_exit:
            failures.append("%s: exit %d (sarif) / %d (text), want %d; stderr: %s" %
                            (case, sarif.returncode, text.returncode, want_exit,
                             sarif.stderr))
        print("%s: %d results, exit %d" % (case, len(mine), sarif.returncode))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
