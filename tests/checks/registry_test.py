#!/usr/bin/env python3
"""The check registry is complete: every check has its page, its kernel, and
the kernel shows its finding; scripts/new-check.sh touches only the four
places a check lives.

usage: registry_test.py KCHECK REPO_ROOT

- `kcheck list-checks --format json` lists each check once;
- docs/checks/ID.md exists for each, and every page there is a check's;
- its kernel is a program of the verify suites (kernels/*.cu: kernels.verify,
  kernels/sanitize/*.cu: sanitize.verify), and `kcheck check KERNEL
  --format json` reports a finding with the id the check's findings carry;
- scripts/new-check.sh, run on a scratch copy, changes exactly
  checks/NAME.cpp, checks/Registry.cpp, docs/checks/ID.md, kernels/ID.cu.
"""
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    kcheck, root = sys.argv[1], sys.argv[2]
    failures = []
    rows = json.loads(subprocess.run([kcheck, "list-checks", "--format", "json"],
                                     capture_output=True, text=True, check=True).stdout)
    ids = [r["id"] for r in rows]
    if len(ids) != len(set(ids)):
        failures.append("duplicate ids in the registry: %s" % ids)
    pages = {os.path.basename(p)[:-3] for p in glob.glob(os.path.join(root, "docs/checks/*.md"))}
    for orphan in sorted(pages - set(ids)):
        failures.append("docs/checks/%s.md is no check's page" % orphan)
    for r in rows:
        if r["page"] != "docs/checks/%s.md" % r["id"] or r["id"] not in pages:
            failures.append("%s: no page docs/checks/%s.md" % (r["id"], r["id"]))
        kernel = r["kernel"]
        if os.path.dirname(kernel) not in ("kernels", "kernels/sanitize"):
            failures.append("%s: kernel '%s' is not in a verify suite "
                            "(kernels/ or kernels/sanitize/)" % (r["id"], kernel))
            continue
        path = os.path.join(root, kernel)
        if not os.path.exists(path):
            failures.append("%s: kernel %s does not exist" % (r["id"], kernel))
            continue
        out = subprocess.run([kcheck, "check", path, "--format", "json", "-q", "--no-fixes"],
                             capture_output=True, text=True).stdout
        found = {f["check"] for f in json.loads(out[out.index("{"):]).get("findings", [])}
        if r["reports_as"] not in found:
            failures.append("%s: kcheck check %s reports no [%s] finding (only %s)"
                            % (r["id"], kernel, r["reports_as"], sorted(found)))
        print("%-20s page, kernel %s: [%s] found" % (r["id"], kernel, r["reports_as"]))

    # The scaffold, on a scratch copy of the places it may touch.
    with tempfile.TemporaryDirectory() as scratch:
        for d in ("checks", "docs/checks", "kernels"):
            shutil.copytree(os.path.join(root, d), os.path.join(scratch, d))
        git = ["git", "-C", scratch, "-c", "user.name=t", "-c", "user.email=t@t"]
        subprocess.run(git + ["init", "-q"], check=True)
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-qm", "before"], check=True)
        subprocess.run([os.path.join(root, "scripts/new-check.sh"), "scratch-check",
                        "a check the test adds", "warning", "--root", scratch],
                       check=True, capture_output=True)
        touched = subprocess.run(git + ["status", "--porcelain", "-uall"], capture_output=True,
                                 text=True, check=True).stdout.split("\n")
        touched = sorted(l[3:] for l in touched if l)
        want = sorted(["checks/ScratchCheck.cpp", "checks/Registry.cpp",
                       "docs/checks/scratch-check.md", "kernels/scratch-check.cu"])
        if touched != want:
            failures.append("new-check.sh touched %s, not %s" % (touched, want))
        registry = open(os.path.join(scratch, "checks/Registry.cpp")).read()
        if registry.count("kScratchCheckCheck") != 2:
            failures.append("new-check.sh did not add the check's declaration and row")
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
