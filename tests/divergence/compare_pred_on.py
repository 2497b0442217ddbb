#!/usr/bin/env python3
"""Active lanes of memory instructions against the H100, per line and launch.

kernels/h100/lines.csv holds, per launch, innermost source line (SASS line
table), space and load/store, Nsight Compute's "Predicated-On Thread
Instructions Executed"; kcheck predicts the same per line in
"lines_innermost" (smsp__sass_thread_inst_executed_op_<space>_<op>_pred_on.sum)
and per launch in "metrics" (which must equal the sum of the CSV's rows).

usage: compare_pred_on.py KCHECK LINES.csv EXCEPTIONS PROGRAM.cu
EXCEPTIONS: lines "file.cu launch line" that may differ (tests/corpus's
lines_exceptions.txt: instructions the pipeline leaves on line 0).
reduce_v8's grid comes from a device query: predicted with --grid 512, as
measured. Exits 1 when a value differs that is not an exception.
"""
import collections
import csv
import json
import os
import subprocess
import sys

KEYS = {(space, op): "smsp__sass_thread_inst_executed_op_%s_%s_pred_on.sum"
        % (space, "ld" if op == "load" else "st")
        for space in ("shared", "global") for op in ("load", "store")}


def predict(kcheck, program, extra=()):
    out = subprocess.run([kcheck, "predict", "--format", "json", *extra, program],
                         check=True, capture_output=True, text=True).stdout
    return {l["index"]: l for l in json.loads(out)["launches"]}


def main():
    kcheck, table, exceptions, program = sys.argv[1:5]
    base = os.path.basename(program)
    measured = collections.defaultdict(collections.Counter)
    for r in csv.DictReader(open(table)):
        if r["file"] == base:
            key = (int(r["line"]), KEYS[(r["space"], r["op"])])
            measured[int(r["launch"])][key] += int(r["predicated_on_thread_inst_executed"])
    allowed = set()
    for line in open(exceptions):
        f = line.split("#")[0].split()
        if len(f) == 3 and f[0] == base:
            allowed.add((int(f[1]), int(f[2])))
    launches = predict(kcheck, program)
    for i, l in list(launches.items()):
        if l["kernel"] == "reduce_v8" and not l.get("simulated"):
            v8 = predict(kcheck, program, ("--kernel", "reduce_v8", "--grid", "512"))
            launches[i] = [x for x in v8.values() if x.get("simulated")][0]
    lines_exact = lines_total = launch_exact = launch_total = bad = 0
    for index in sorted(measured):
        launch, meas = launches.get(index), measured[index]
        if not launch or not launch.get("simulated"):
            print(f"{base} launch {index}: not predicted")
            bad += 1
            continue
        pred = collections.Counter()
        for ln in launch["lines_innermost"]:
            for key in KEYS.values():
                pred[(ln["line"], key)] += ln["metrics"][key]
        for key in KEYS.values():
            p = launch["metrics"][key]
            m = sum(v for (_, k), v in meas.items() if k == key)
            launch_total += 1
            launch_exact += p == m
            if p != m:
                bad += 1
                print(f"{base} launch {index} {key}: predicted {p} measured {m}")
        for k in sorted(set(pred) | set(meas)):
            p, m = pred.get(k, 0), meas.get(k, 0)
            if p == 0 and m == 0:
                continue
            lines_total += 1
            lines_exact += p == m
            if p != m:
                known = (index, k[0]) in allowed
                bad += not known
                print(f"{base} launch {index} line {k[0]} {k[1]}: predicted {p} "
                      f"measured {m}{' (known exception)' if known else ''}")
    print(f"{base}: {lines_exact}/{lines_total} line values and "
          f"{launch_exact}/{launch_total} launch values of active lanes exact")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
