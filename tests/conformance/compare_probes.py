#!/usr/bin/env python3
"""Runs a conformance program under `kcheck run` and compares its `probe`
lines (values the specification leaves to the hardware) with the ones the
GPU printed (docs/validation/data/h200-*.txt).

usage: compare_probes.py KCHECK PROGRAM GPU_OUTPUT KNOWN EXPECTED_LINE

KNOWN lists probe names (the part before `[`) whose values are known to
differ, each with its reason: the test fails on a difference it does not
list, on a listed one that agrees, and when the program does not print
EXPECTED_LINE."""
import re
import subprocess
import sys


def probes(text):
    out = {}
    for line in text.splitlines():
        m = re.match(r"^probe (\S+) (.*)$", line.strip())
        if m:
            out[m.group(1)] = m.group(2)
    return out


def main():
    kcheck, program, gpu_file, known_file, expected = sys.argv[1:6]
    run = subprocess.run([kcheck, "run", program, "-q", "--checks=-*"],
                         capture_output=True, text=True)
    text = run.stdout + run.stderr
    ours, gpu = probes(text), probes(open(gpu_file).read())
    known = {}
    for line in open(known_file):
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, why = line.partition(" ")
            known[name] = why
    bad = 0
    if expected not in text:
        print(f"the program did not print '{expected}'")
        bad += 1
    differing = set()
    for name, value in gpu.items():
        base = name.split("[")[0]
        if name not in ours:
            print(f"{name}: not printed under kcheck")
            bad += 1
        elif ours[name] != value:
            differing.add(base)
            if base not in known:
                print(f"{name}: kcheck {ours[name]}, GPU {value}")
                bad += 1
    for base in known:
        if base not in differing:
            print(f"{base}: listed as differing, but agrees")
            bad += 1
    print(f"{len(gpu)} probes, {len(gpu) - bad} as expected, {bad} not")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
