#!/bin/sh
# A kernel fault (fixtures/faulting.cu: launch 0 fine, launch 1 faults) must
# not lose the counters of the launch before it, whatever the batch size.
# Skips (77) without a GPU or nvcc.
profile=$1 src=$2
if ! (command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1); then
  echo "no GPU: skipped"; exit 77
fi
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$NVCC" ] || { echo "no nvcc: skipped"; exit 77; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$NVCC" -arch=sm_90 -lineinfo -o "$dir/faulting" "$src" || exit 1
for batch in 256 1; do
  "$profile" --batch $batch --output "$dir/m$batch.json" -- "$dir/faulting"; rc=$?
  cat "$dir/m$batch.json"
  [ $rc -eq 1 ] || { echo "batch $batch: expected exit 1 (incomplete), got $rc"; exit 1; }
  # fine<<<1, 32>>>: one 4-byte store per thread, 1 warp: 1 STG, 4 sectors.
  for want in '"smsp__sass_inst_executed_op_global_st.sum": 1,' \
              '"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_st.sum": 4,' \
              'fault|failed'; do
    grep -Eq "$want" "$dir/m$batch.json" || { echo "batch $batch: missing: $want"; exit 1; }
  done
  ! grep -q "counters lost after the fault" "$dir/m$batch.json" ||
    { echo "batch $batch: counters lost"; exit 1; }
done
