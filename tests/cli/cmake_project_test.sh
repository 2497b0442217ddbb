#!/usr/bin/env bash
# usage: cmake_project_test.sh KCHECK PROJECT_DIR -- CMAKE [cmake args...]
# Configures the CMake project PROJECT_DIR (tests/cli/cmake_project) into a
# temporary build directory with CMAKE_EXPORT_COMPILE_COMMANDS=ON, then
# checks that `kcheck -p BUILD` analyses its kernel with the project's own
# include path and compile definition: the bank conflict that only its
# TILE_PAD=0 causes is found, by the static path and by `run`, which
# compiles the host side too; without -p the header is missing (exit 3);
# with the include path but not the definition the kernel is clean; without
# a file, `check -p BUILD` analyses all three sources in one report.
set -u
kcheck=$1 project=$2; shift 3
expect=$(dirname "$0")/expect.sh
build=$(mktemp -d) || exit 1
trap 'rm -rf "$build"' EXIT
if ! "$@" -S "$project" -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
     >"$build/configure.log" 2>&1; then
  cat "$build/configure.log"; echo "configuring $project failed"; exit 1
fi
kernel=$project/src/transpose.cu
conflict="transpose.cu:[0-9]+:[0-9]+: warning: 32-way shared-memory bank conflict on 'tile' [[]bank-conflict[]]"
status=0
run() { echo "== $*"; "$expect" "$@" || status=1; }
run 1 "$conflict" -- "$kcheck" bank-conflicts -p "$build" "$kernel"
run 1 "$conflict" -- "$kcheck" bank-conflicts "-p=$build/compile_commands.json" "$kernel"
# `run` compiles the host side too: it needs the include path as well.
run 1 "$conflict" "exit status 0" -- "$kcheck" run -q -p "$build" "$kernel"
run 3 "'tile_config.h' file not found" -- "$kcheck" bank-conflicts "$kernel"
run 0 -- "$kcheck" bank-conflicts "$kernel" -- -I "$project/include"
# The command line's clang args come after the project's: -U undoes its -D.
run 0 -- "$kcheck" bank-conflicts -p "$build" "$kernel" -- -UTILE_PAD
# -p without a file: every .cu of the database, in parallel, one report.
gather="gather.cu:7:[0-9]+: warning: uncoalesced global load of 'in'"
summary="3 CUDA files of $build: 2 with findings, 1 clean, 0 not analysable"
run 1 "$conflict" "$gather" "$summary" -- "$kcheck" check -p "$build" --jobs 2
run 1 '"schema": "kcheck-project/1"' '"file": ".*/src/scale.cu"' \
  '"check": "uncoalesced-access"' '"check": "bank-conflict"' \
  -- "$kcheck" check -p "$build" --format json
run 1 '"version": "2.1.0"' '"ruleId": "uncoalesced-access"' '"ruleId": "bank-conflict"' \
  -- "$kcheck" check -p "$build" --format sarif
run 2 "--format html reports one file" -- "$kcheck" check -p "$build" --format html
exit $status
