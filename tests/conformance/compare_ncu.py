#!/usr/bin/env python3
"""Runs a conformance program under `kcheck run` and compares every launch's
counters with the ones Nsight Compute measured on the GPU machine
(`ncu --metrics ... --csv`, committed under docs/validation/data/): each
(launch, metric) pair ncu gives a number for, of the metrics kcheck
predicts, must be kcheck's too.

usage: compare_ncu.py KCHECK PROGRAM NCU_CSV EXPECTED_LINE [KNOWN]
KNOWN: a file of known differences, one per line, "#N METRIC: why" (lines
starting with // are comments); each must still differ.
Exit 0 when every pair is equal (or known to differ, and still does) and
the program printed EXPECTED_LINE."""
import csv
import re
import subprocess
import sys


def main():
    kcheck, program, measured, expected = sys.argv[1:5]
    known = {}
    if len(sys.argv) > 5:
        with open(sys.argv[5]) as f:
            for line in f:
                m = re.match(r"#(\d+) (\S+): (.*)", line.strip())
                if m:
                    known[(int(m.group(1)), m.group(2))] = m.group(3)
    run = subprocess.run([kcheck, "run", program, "-q", "--checks=-*"],
                         capture_output=True, text=True)
    out = run.stdout + run.stderr
    predicted, launch = {}, None
    for line in out.splitlines():
        m = re.match(r"launch #(\d+)", line)
        if m:
            launch = int(m.group(1))
            continue
        m = re.match(r"\s+(smsp__\S+)\s+(\d+)$", line)
        if m and launch is not None:
            predicted[(launch, m.group(1))] = int(m.group(2))
    with open(measured) as f:
        lines = [l for l in f if l.startswith('"')]
    reported = {metric for (_, metric) in predicted}
    equal, differ, unpredicted = 0, [], set()
    for row in csv.DictReader(lines):
        value = row["Metric Value"].replace(",", "")
        if not re.fullmatch(r"[0-9.]+", value):
            continue
        key = (int(row["ID"]), row["Metric Name"])
        if key not in predicted:  # a metric kcheck does not predict there
            unpredicted.add(key[1] if key[1] not in reported
                            else f"{key[1]} of launch #{key[0]}")
            continue
        if key in known:
            if predicted.get(key) == int(float(value)):
                differ.append(f"launch #{key[0]} {key[1]}: listed as known "
                              f"to differ, but equal: remove its line")
            continue
        if predicted.get(key) == int(float(value)):
            equal += 1
        else:
            differ.append(f"launch #{key[0]} {key[1]}: GPU {value}, "
                          f"kcheck {predicted.get(key)}")
    # A listed difference must be one kcheck predicts, or it checks nothing.
    for key in known:
        if key not in predicted:
            differ.append(f"launch #{key[0]} {key[1]}: listed as known to "
                          f"differ, but kcheck does not predict it")
    print(f"{equal} launch counters equal to the GPU's, {len(differ)} differ, "
          f"{len(known)} known to differ"
          + (f" (not predicted by kcheck: {', '.join(sorted(unpredicted))})"
             if unpredicted else ""))
    for d in differ:
        print("  " + d)
    if expected not in out:
        print(f"the program did not print '{expected}':\n{out[-3000:]}")
        return 1
    return 0 if not differ and equal else 1


if __name__ == "__main__":
    sys.exit(main())
