#!/usr/bin/env python3
"""kcheck's SASS branch-divergence prediction against the H100, per launch.

kcheck writes smsp__sass_branch_targets_threads_divergent.sum into a launch's
metrics only where its rule says ptxas predicates every divergent body
(simulator/models/SassBranchRule.h); that value must equal the measured one. Launches it
leaves out are counted, not failed.

usage: sass_divergence.py KCHECK TABLE.csv DIR [--min-predicted N] [--grid K=G]
TABLE.csv: per launch (file, launch, the metric), exact.csv's format; DIR
holds the table's programs. --grid K=G predicts kernel K (whose grid comes
from a device query) with --grid G. Exits 1 when a predicted value differs or
fewer than N launches are predicted.
"""
import argparse
import collections
import csv
import json
import os
import subprocess
import sys

METRIC = "smsp__sass_branch_targets_threads_divergent.sum"


def predict(kcheck, program, extra=()):
    out = subprocess.run([kcheck, "predict", "--format", "json", *extra, program],
                         check=True, capture_output=True, text=True).stdout
    return {l["index"]: l for l in json.loads(out)["launches"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kcheck")
    ap.add_argument("table")
    ap.add_argument("dir")
    ap.add_argument("--min-predicted", type=int, default=0)
    ap.add_argument("--grid", action="append", default=[])
    a = ap.parse_args()
    grids = dict(g.split("=") for g in a.grid)
    measured = collections.defaultdict(dict)
    for r in csv.DictReader(open(a.table)):
        measured[r["file"]][int(r["launch"])] = int(r[METRIC])
    total = predicted = exact = 0
    for name in sorted(measured):
        program = os.path.join(a.dir, name)
        launches = predict(a.kcheck, program)
        for i, l in list(launches.items()):
            if l["kernel"] in grids and not l.get("simulated"):
                extra = ("--kernel", l["kernel"], "--grid", grids[l["kernel"]])
                one = [x for x in predict(a.kcheck, program, extra).values()
                       if x.get("simulated")]
                launches[i] = one[0] if one else l
        for index, value in sorted(measured[name].items()):
            total += 1
            launch = launches.get(index, {})
            p = launch.get("metrics", {}).get(METRIC)
            if p is None:
                print(f"{name} launch {index} {launch.get('kernel', '?')}: not "
                      f"predicted (measured {value})")
                continue
            predicted += 1
            exact += p == value
            if p != value:
                print(f"{name} launch {index} {launch['kernel']}: predicted {p}, "
                      f"measured {value}  WRONG")
    print(f"{os.path.basename(a.table)}: {predicted}/{total} launches predicted, "
          f"{exact}/{predicted} of them exact")
    return 0 if exact == predicted and predicted >= a.min_predicted else 1


if __name__ == "__main__":
    sys.exit(main())
