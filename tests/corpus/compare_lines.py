#!/usr/bin/env python3
"""Per-line predictions against the H100's measured per-line counters.

Two measured views exist, and kcheck predicts both:
  - Nsight Compute's source view (../shared/corpus/h100/seed_lines.csv: shared
    wavefronts and global sectors per line, ld+st together), which also credits
    the first line of an inlined call to the call line; compared with the
    prediction's "lines".
  - the SASS line table's innermost line (kernels/h100/lines.csv, per space and
    op; also what kcheck-profile's CUPTI correlation reports); compared with
    the prediction's "lines_innermost".

usage: compare_lines.py KCHECK (--seed CSV | --kernels CSV) [--exceptions F]
                        PROGRAM.cu [PREDICTION.json ...]
A PREDICTION.json replaces running `KCHECK predict` on PROGRAM.cu. reduce_v8's
grid comes from a device query; its launch is predicted with --grid 1056 (a
132-SM H100) in the seed corpus and 512 in kernels/ (as measured).
Exceptions: lines "file.cu launch line" that may differ (explained there).
Exits 1 when a line differs that is not an exception.
"""
import argparse
import csv
import json
import os
import shlex
import subprocess
import sys

SH_LD = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
SH_ST = "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
GL_LD = "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum"
GL_ST = "smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum"


def predict(kcheck, program, extra):
    # KCHECK_ARGS (environment): extra arguments, as for compare-h100.py.
    extra = [*shlex.split(os.environ.get("KCHECK_ARGS", "")), *extra]
    out = subprocess.run([kcheck, "predict", "--format", "json", *extra, program],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def predictions(kcheck, program, v8_grid):
    report = predict(kcheck, program, [])
    launches = {l["index"]: l for l in report["launches"]}
    for i, l in list(launches.items()):
        if l["kernel"] == "reduce_v8" and not l.get("simulated"):
            v8 = predict(kcheck, program, ["--kernel", "reduce_v8", "--grid", v8_grid])
            launches[i] = [x for x in v8["launches"] if x.get("simulated")][0]
    return launches


def per_line(launch, key, base, split):
    """{line: {metric: value}} for the main file's lines."""
    out = {}
    for ln in launch.get(key, launch.get("lines", [])):
        if os.path.basename(ln["file"]) != base and ln["line"] != 0:
            continue
        m = ln["metrics"]
        row = out.setdefault(ln["line"], {})
        if split:
            for name, v in (("shared load", m[SH_LD]), ("shared store", m[SH_ST]),
                            ("global load", m[GL_LD]), ("global store", m[GL_ST])):
                row[name] = row.get(name, 0) + v
        else:
            row["shared"] = row.get("shared", 0) + m[SH_LD] + m[SH_ST]
            row["global"] = row.get("global", 0) + m[GL_LD] + m[GL_ST]
    return out


def measured(csv_path, base, split):
    out = {}
    with open(csv_path) as f:
        for r in csv.DictReader(f):
            if r["file"] != base:
                continue
            row = out.setdefault(int(r["launch"]), {}).setdefault(int(r["line"]), {})
            if split:
                name = r["space"] + " " + r["op"]
                v = int(r["l1_wavefronts_shared"]) if r["space"] == "shared" \
                    else int(r["l2_theoretical_sectors_global"])
                row[name] = row.get(name, 0) + v
            else:
                row["shared"] = int(r["l1_wavefronts_shared"])
                row["global"] = int(r["l2_theoretical_sectors_global"])
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("kcheck")
    group = ap.add_mutually_exclusive_group(required=True)
    group.add_argument("--seed")
    group.add_argument("--kernels")
    ap.add_argument("--exceptions")
    ap.add_argument("program")
    ap.add_argument("prediction", nargs="?")
    a = ap.parse_args()
    split = a.kernels is not None
    base = os.path.basename(a.program)
    meas = measured(a.kernels or a.seed, base, split)
    if a.prediction:
        launches = {l["index"]: l for l in json.load(open(a.prediction))["launches"]}
    else:
        launches = predictions(a.kcheck, a.program, "512" if split else "1056")
    allowed = set()
    if a.exceptions:
        for line in open(a.exceptions):
            f = line.split("#")[0].split()
            if len(f) == 3 and f[0] == base:
                allowed.add((int(f[1]), int(f[2])))
    key = "lines_innermost" if split else "lines"
    exact = total = unexpected = 0
    for index in sorted(set(meas) | set(launches)):
        launch = launches.get(index)
        if launch is None or not launch.get("simulated"):
            print(f"{base} launch {index}: not predicted")
            unexpected += 1
            continue
        pred = per_line(launch, key, base, split)
        got = meas.get(index, {})
        for line in sorted(set(pred) | set(got)):
            p, m = pred.get(line, {}), got.get(line, {})
            for name in sorted(set(p) | set(m)):
                pv, mv = p.get(name, 0), m.get(name, 0)
                if pv == 0 and mv == 0:
                    continue
                total += 1
                if pv == mv:
                    exact += 1
                    continue
                known = (index, line) in allowed
                unexpected += not known
                print(f"{base} launch {index} ({launch['kernel']}) line {line} {name}:"
                      f" predicted {pv} measured {mv}{' (known exception)' if known else ''}")
    print(f"{base}: {exact}/{total} line values exact ({key} vs "
          f"{'kernels/h100/lines.csv' if split else 'seed_lines.csv'})")
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
