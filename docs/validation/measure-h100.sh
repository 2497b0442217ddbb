#!/usr/bin/env bash
# Measures kernels/, kernels/patterns/ and the seed corpus on the GPU machine
# with kcheck-profile (per launch and per line) and with Nsight Compute (the
# source page, then the per-launch metrics), for docs/validation/h100.md. Run
# from the repository root:
#   bash docs/validation/measure-h100.sh CORPUS_DIR OUT_DIR
# CORPUS_DIR holds seed/*.cu and common.h (../shared/corpus). Writes
# OUT_DIR/results.tar.gz: meas/NAME.json, src/NAME.csv (source page),
# ncu/NAME.csv (per launch), cubin/NAME.cubin (for check-line-credits.py),
# tests/, log.txt. Stops starting new work when BUDGET seconds (default 560)
# are nearly spent; the archive always holds what was done.
set -u
CORPUS=${1:-../shared/corpus}
OUT=${2:-${OUT:-out}}
W=$(mktemp -d)
mkdir -p "$OUT" "$W"/{meas,ncu,src,bin,tests,cubin}
T0=$(date +%s)
log() { echo "== $(($(date +%s) - T0))s $*" | tee -a "$W/log.txt"; }
left() { echo $((${BUDGET:-560} - ($(date +%s) - T0))); }
limit() { local l; l=$(left); echo $((l < ${1} ? l : ${1})); }
pack() { tar -C "$W" -czf "$OUT/results.tar.gz" meas ncu src tests cubin log.txt; }
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
METRICS=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets.sum,smsp__sass_inst_executed.sum,smsp__sass_thread_inst_executed.sum

log "build runtime + programs"
(cmake -S . -B build-gpu -G Ninja -DKCHECK_RUNTIME_ONLY=ON -DKCHECK_BUILD_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=Release && ninja -C build-gpu kcheck-profile kcheck_inject) \
  >>"$W/log.txt" 2>&1 &
rt=$!
programs=()
for f in "$CORPUS"/seed/*.cu kernels/*.cu kernels/patterns/*.cu tests/runtime/fixtures/{known_counts,faulting,many_launches}.cu; do
  n=$(basename "$f" .cu)
  programs+=("$n")
  cp "$f" "$W/bin/"
  (nvcc -arch=sm_90 -O3 -lineinfo -o "$W/bin/$n" "$f" &&
    nvcc -arch=sm_90 -O3 -lineinfo -cubin -o "$W/cubin/$n.cubin" "$f") >"$W/bin/$n.log" 2>&1 &
done
wait
cat "$W"/bin/*.log >>"$W/log.txt"
[ -x build-gpu/kcheck-profile ] || { log "runtime build failed"; pack; exit 1; }
P=$PWD/build-gpu/kcheck-profile
log "built"

log "runtime tests"
for t in known_counts faulting many_launches; do
  (cd "$W/bin" && timeout 120 "$P" --per-line --file $t.cu --output "$W/tests/$t.json" -- ./$t) >"$W/tests/$t.log" 2>&1
  echo "exit $?" >>"$W/tests/$t.log"
done
corpus=()
for n in "${programs[@]}"; do
  case $n in known_counts | faulting | many_launches) ;; *) corpus+=("$n") ;; esac
done
pack

log "per launch + per line (kcheck-profile)"
for n in "${corpus[@]}"; do
  [ "$(left)" -gt 40 ] || { log "skip profile $n"; continue; }
  (cd "$W/bin" && timeout "$(limit 120)" "$P" --per-line --file "$n.cu" --output "$W/meas/$n.json" -- "./$n") >"$W/meas/$n.log" 2>&1
  log "profile $n: exit $?"
  pack
done
log "ncu source page"
for n in "${corpus[@]}"; do
  [ "$(left)" -gt 30 ] || { log "skip source $n"; continue; }
  (cd "$W/bin" && timeout "$(limit 120)" "$NCU" --section SourceCounters --import-source yes -f -o "$W/bin/src_$n" "./$n" >/dev/null 2>&1 &&
    "$NCU" -i "$W/bin/src_$n.ncu-rep" --page source --csv --print-source cuda,sass >"$W/src/$n.csv" 2>&1)
  log "source $n: exit $?"
  pack
done
log "ncu per launch"
for n in "${corpus[@]}"; do
  [ "$(left)" -gt 20 ] || { log "skip ncu $n"; continue; }
  (cd "$W/bin" && timeout "$(limit 100)" "$NCU" --metrics "$METRICS" --csv --print-units base "./$n") 2>>"$W/log.txt" | grep '^"' >"$W/ncu/$n.csv"
  log "ncu $n: $(wc -l <"$W/ncu/$n.csv") rows"
done
log done
pack
