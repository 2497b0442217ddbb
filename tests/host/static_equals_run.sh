#!/bin/sh
# static_equals_run.sh KCHECK FILE [ARGS...]: the static analysis of FILE
# (`kcheck predict`) makes the launches running its host code (`kcheck
# run`) makes, each simulated, with the same kernel, geometry, metrics and
# per-line figures. Exit 1, naming the first difference, when they differ.
set -eu
kcheck=$1
file=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$kcheck" predict "$file" --format json "$@" >"$dir/static.json" 2>"$dir/static.err" || true
"$kcheck" run "$file" --format json "$@" >"$dir/run.json" 2>"$dir/run.err" || true
python3 - "$dir/static.json" "$dir/run.json" <<'PY'
import json, sys
def launches(path):
    with open(path) as f:
        return json.load(f)["launches"]
static, run = launches(sys.argv[1]), launches(sys.argv[2])
if not run:
    sys.exit("kcheck run made no launch")
if len(static) != len(run):
    sys.exit(f"{len(static)} launches statically, {len(run)} running")
for s, r in zip(static, run):
    for key in ("kernel", "grid", "block", "simulated", "metrics", "lines"):
        if s.get(key) != r.get(key):
            sys.exit(f"launch #{s['index']} {s['kernel']}: {key} differs:\n"
                     f"  static {s.get(key)}\n  run    {r.get(key)}")
    if not s.get("simulated"):
        sys.exit(f"launch #{s['index']} {s['kernel']} not simulated: "
                 f"{s.get('notes')}")
print(f"{len(static)} launches, static equals run")
PY
