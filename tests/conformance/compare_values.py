#!/usr/bin/env python3
"""Runs nvvm_calls.cu under `kcheck run` and compares each device function's
result hash with the H200's (docs/validation/data/h200-nvvm_calls.txt).

usage: compare_values.py KCHECK KCHECK_CONFORMANCE PROGRAM H200 KNOWN

The functions the engine does not run (kcheck-conformance --unexecuted) are
skipped; those the GPU build left out have no H200 line. KNOWN lists the
functions whose values are known to differ, each with its reason: the test
fails on a difference it does not list, and on a listed one that agrees.
"""
import re
import subprocess
import sys
import tempfile


def hashes(text):
    out = {}
    for line in text.splitlines():
        m = re.match(r"^(__\w+) ([0-9a-f]{16})$", line.strip())
        if m:
            out[m.group(1)] = m.group(2)
    return out


def main():
    kcheck, conformance, program, h200, known_file = sys.argv[1:6]
    skip = subprocess.run([conformance, "--unexecuted"], check=True,
                          capture_output=True, text=True).stdout
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write(skip)
        f.flush()
        # No checks: only the program's output is compared (and the checks'
        # fix search would recompile the program per finding).
        run = subprocess.run([kcheck, "run", program, "-q", "--checks=-*",
                              "--", "--skip",
                              f.name], capture_output=True, text=True)
    ours = hashes(run.stdout + run.stderr)
    gpu = hashes(open(h200).read())
    known = {}
    for line in open(known_file):
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, why = line.partition(" ")
            known[name] = why.strip()
    common = sorted(set(ours) & set(gpu))
    differ = [n for n in common if ours[n] != gpu[n]]
    new = [n for n in differ if n not in known]
    stale = [n for n in known if n in common and ours[n] == gpu[n]]
    print(f"nvvm_values: {len(common)} functions compared, "
          f"{len(common) - len(differ)} equal the H200's, "
          f"{len(differ)} known to differ")
    for n in new:
        print(f"differs from the H200: {n}")
    for n in stale:
        print(f"listed as differing but equal now: {n}")
    if len(common) < 500:
        print("too few functions compared: the run stopped early?")
        print(run.stdout[-2000:] + run.stderr[-2000:])
        return 1
    return 1 if new or stale else 0


if __name__ == "__main__":
    sys.exit(main())
