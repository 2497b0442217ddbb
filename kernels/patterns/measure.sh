#!/usr/bin/env bash
# Measures DIR/*.cu (default kernels/patterns) on the GPU machine:
# kcheck-profile per launch and per line, Nsight Compute per launch (the
# metrics of docs/validation/measure-h100.sh) and the source page, plus the
# SASS with line info. Run from the repository root:
#   bash kernels/patterns/measure.sh OUT_DIR [DIR]
# Writes OUT_DIR/ncu/NAME.csv, meas/NAME.json, src/NAME.csv, sass/NAME.sass, log.txt.
set -u
OUT=${1:-${OUT:-out}}
DIR=${2:-kernels/patterns}
W=$(mktemp -d)
mkdir -p "$OUT"/{ncu,meas,src,sass} "$W/bin"
T0=$(date +%s)
log() { echo "== $(( $(date +%s) - T0 ))s $*" | tee -a "$OUT/log.txt"; }
left() { echo $(( ${BUDGET:-540} - ($(date +%s) - T0) )); }
NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
METRICS=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__sass_branch_targets_threads_divergent.sum,smsp__sass_branch_targets.sum,smsp__sass_inst_executed.sum,smsp__sass_thread_inst_executed.sum

log "build runtime + programs"
(cmake -S . -B build-rt -G Ninja -DKCHECK_RUNTIME_ONLY=ON -DKCHECK_BUILD_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=Release && ninja -C build-rt kcheck-profile kcheck_inject) >"$OUT/build-rt.log" 2>&1 &
rt=$!
names=()
cp "$DIR"/*.h "$W/bin/" 2>/dev/null
for f in "$DIR"/*.cu; do
  n=$(basename "$f" .cu)
  names+=("$n")
  cp "$f" "$W/bin/"
  (nvcc -arch=sm_90 -O3 -lineinfo -o "$W/bin/$n" "$f" &&
    nvcc -arch=sm_90 -O3 -lineinfo -cubin -o "$W/bin/$n.cubin" "$f" &&
    nvdisasm -c -gi "$W/bin/$n.cubin" >"$OUT/sass/$n.sass") >"$OUT/sass/$n.log" 2>&1 &
done
wait
log "built: $(ls build-rt/kcheck-profile 2>/dev/null) $(cd $W/bin && ls | tr '\n' ' ')"

log "ncu per launch"
for n in "${names[@]}"; do
  (cd "$W/bin" && timeout 100 "$NCU" --metrics "$METRICS" --csv --print-units base "./$n") 2>>"$OUT/log.txt" | grep '^"' >"$OUT/ncu/$n.csv"
  log "ncu $n: $(wc -l <"$OUT/ncu/$n.csv") rows"
done
P=$PWD/build-rt/kcheck-profile
log "kcheck-profile --per-line"
for n in "${names[@]}"; do
  [ "$(left)" -gt 30 ] || { log "skip profile $n"; continue; }
  (cd "$W/bin" && timeout $(( $(left) < 90 ? $(left) : 90 )) "$P" --per-line --file "$n.cu" \
    --output "$OUT/meas/$n.json" -- "./$n") >"$OUT/meas/$n.log" 2>&1
  log "profile $n: exit $?"
done
log "ncu source page"
for n in "${names[@]}"; do
  [ "$(left)" -gt 40 ] || { log "skip source $n"; continue; }
  (cd "$W/bin" && timeout $(( $(left) < 90 ? $(left) : 90 )) "$NCU" --section SourceCounters --import-source yes -f -o "$W/bin/src_$n" "./$n" >/dev/null 2>&1 &&
    "$NCU" -i "$W/bin/src_$n.ncu-rep" --page source --csv --print-source cuda,sass >"$OUT/src/$n.csv" 2>&1)
  log "source $n: exit $?"
done
log done
