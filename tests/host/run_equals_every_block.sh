#!/bin/sh
# run_equals_every_block.sh KCHECK FILE [ARGS...]: running FILE's host code
# (`kcheck run`, which counts blocks it proves idle as one it ran, without
# running them: simulator/IdleBlocks.h) gives the launches, figures, per-line
# figures and program output running every block (--exhaustive) gives.
# Exit 1, naming the first difference, when they differ.
set -eu
kcheck=$1
file=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$kcheck" run "$file" --format json "$@" >"$dir/idle.json" 2>"$dir/idle.err" || true
"$kcheck" run "$file" --format json --exhaustive "$@" >"$dir/every.json" 2>"$dir/every.err" || true
python3 - "$dir" <<'PY'
import json, sys, re
d = sys.argv[1]
def load(name):
    with open(f"{d}/{name}.json") as f:
        return json.load(f)["launches"]
def output(name):
    with open(f"{d}/{name}.err") as f: # the program's stdout, then notes
        return [l for l in f if not l.startswith("kcheck:")]
idle, every = load("idle"), load("every")
if not every:
    sys.exit("kcheck run made no launch")
if len(idle) != len(every):
    sys.exit(f"{len(idle)} launches skipping idle blocks, {len(every)} running every block")
for a, b in zip(idle, every):
    for key in ("kernel", "grid", "block", "simulated", "metrics", "lines"):
        if a.get(key) != b.get(key):
            sys.exit(f"launch #{a['index']} {a['kernel']}: {key} differs:\n"
                     f"  idle  {a.get(key)}\n  every {b.get(key)}")
if output("idle") != output("every"):
    sys.exit("the program's output differs:\n" + "".join(output("idle")) +
             "\n--- every block:\n" + "".join(output("every")))
print(f"{len(idle)} launches and the output equal to running every block")
PY
