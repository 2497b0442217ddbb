#!/usr/bin/env python3
"""Every launch metric of a prediction equals the GPU's measurement.

usage: compare_launches.py KCHECK PROGRAM.cu MEASUREMENT.json[.gz] [REGEX]

Runs `KCHECK predict --run-host PROGRAM --format json` (the program's own
output, on stderr, must match REGEX when given) and compares, launch by
launch, every metric both documents have (instructions, wavefronts, sectors,
divergent branches). Lines are not compared here: the Source page credits
wmma's accesses to mma.hpp, which kcheck's line credits do not follow yet
(issue 41)."""
import gzip
import json
import re
import subprocess
import sys


def main():
    kcheck, program, measured_path = sys.argv[1:4]
    out = subprocess.run([kcheck, "predict", "--run-host", program, "--format",
                          "json", "-q"], capture_output=True, text=True)
    if out.returncode not in (0, 1):
        print(out.stderr)
        return 1
    if len(sys.argv) > 4 and not re.search(sys.argv[4], out.stderr):
        print("the program's output lacks /%s/:\n%s" % (sys.argv[4], out.stderr))
        return 1
    predicted = json.loads(out.stdout)
    opener = gzip.open if measured_path.endswith(".gz") else open
    with opener(measured_path, "rt") as f:
        measured = json.load(f)
    p, m = predicted["launches"], measured["launches"]
    if len(p) != len(m):
        print("launches: %d predicted, %d measured" % (len(p), len(m)))
        return 1
    compared = differ = 0
    for a, b in zip(p, m):
        for key, value in b["metrics"].items():
            if key not in a["metrics"]:
                continue
            compared += 1
            if a["metrics"][key] != value:
                differ += 1
                print("launch #%d %s %s: predicted %d, measured %d" %
                      (a["index"], a["kernel"], key, a["metrics"][key], value))
    print("%d launches, %d of %d metric values agree" %
          (len(p), compared - differ, compared))
    return 1 if differ or not compared else 0


if __name__ == "__main__":
    sys.exit(main())
