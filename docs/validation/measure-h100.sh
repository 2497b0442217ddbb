#!/usr/bin/env bash
# Measures kernels/ and the seed corpus on the GPU machine with kcheck-profile
# (per launch and per line) and with Nsight Compute (the same metrics, and the
# source page), for docs/validation/h100.md. Run from the repository root:
#   bash docs/validation/measure-h100.sh CORPUS_DIR OUT_DIR
# CORPUS_DIR holds seed/*.cu and common.h (../shared/corpus). Writes
# OUT_DIR/results.tar.gz: meas/NAME.json, ncu/NAME.csv, src/NAME.csv, logs.
set -u
CORPUS=${1:-../shared/corpus}
OUT=${2:-${OUT:-out}}
W=$(mktemp -d)
mkdir -p "$OUT" "$W/meas" "$W/ncu" "$W/src" "$W/bin" "$W/tests"
log() { echo "== $*" | tee -a "$W/log.txt"; }
pack() { tar -C "$W" -czf "$OUT/results.tar.gz" meas ncu src tests log.txt; }
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null)
METRICS=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets.sum,smsp__sass_inst_executed.sum,smsp__sass_thread_inst_executed.sum

log build
cmake -S . -B build-gpu -G Ninja -DKCHECK_RUNTIME_ONLY=ON -DKCHECK_BUILD_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=Release >>"$W/log.txt" 2>&1 &&
  ninja -C build-gpu kcheck-profile kcheck_inject >>"$W/log.txt" 2>&1 ||
  { log "build failed"; pack; exit 1; }
P=$PWD/build-gpu/kcheck-profile

build() { # NAME SOURCE
  nvcc -arch=sm_90 -O3 -lineinfo -o "$W/bin/$1" "$2" >>"$W/log.txt" 2>&1
}

log "runtime tests"
for t in known_counts faulting many_launches; do
  build $t tests/runtime/fixtures/$t.cu || continue
  (cd "$W/bin" && timeout 120 "$P" --per-line --file $t.cu --output "$W/tests/$t.json" -- ./$t) >"$W/tests/$t.log" 2>&1
  echo "exit $?" >>"$W/tests/$t.log"
done
pack

programs=()
for f in "$CORPUS"/seed/*.cu kernels/*.cu; do
  name=$(basename "$f" .cu)
  build "$name" "$f" && programs+=("$name:$f")
done
log "per launch + per line (kcheck-profile)"
for p in "${programs[@]}"; do
  name=${p%%:*}
  start=$(date +%s)
  (cd "$W/bin" && timeout 300 "$P" --per-line --file "$name.cu" --output "$W/meas/$name.json" -- "./$name") >"$W/meas/$name.log" 2>&1
  log "$name: exit $? in $(( $(date +%s) - start )) s"
  pack
done
log "ncu per launch"
for p in "${programs[@]}"; do
  name=${p%%:*}
  (cd "$W/bin" && timeout 300 "$NCU" --metrics "$METRICS" --csv --print-units base "./$name") 2>>"$W/log.txt" | grep '^"' >"$W/ncu/$name.csv"
done
pack
log "ncu source page"
for p in "${programs[@]}"; do
  name=${p%%:*}
  (cd "$W/bin" && timeout 300 "$NCU" --section SourceCounters --import-source yes -f -o "$W/bin/src_$name" "./$name" >/dev/null 2>&1 &&
    "$NCU" -i "$W/bin/src_$name.ncu-rep" --page source --csv --print-source cuda,sass >"$W/src/$name.csv" 2>&1)
  pack
done
log done
pack
