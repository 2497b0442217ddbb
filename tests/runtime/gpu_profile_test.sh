#!/bin/sh
# Measures a kernel with known counts (fixtures/known_counts.cu) and checks
# them exactly. Skips (77) without a GPU or nvcc.
profile=$1 src=$2
if ! (command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1); then
  echo "no GPU: skipped"; exit 77
fi
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
[ -x "$NVCC" ] || { echo "no nvcc: skipped"; exit 77; }
dir=$(mktemp -d)
"$NVCC" -arch=sm_90 -lineinfo -o "$dir/known" "$src" || exit 1
"$profile" --per-line --output "$dir/m.json" --file known_counts.cu -- "$dir/known" || exit 1
cat "$dir/m.json"
# 64 blocks x 256 threads = 512 warps; one LDS with stride 2 (2 wavefronts
# per warp), one STS, one LDG and one STG of 4 bytes (4 sectors per warp).
for want in '"smsp__sass_inst_executed_op_shared_ld.sum": 512' \
            '"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": 1024' \
            '"smsp__sass_inst_executed_op_global_ld.sum": 512' \
            '"smsp__sass_l1tex_t_sectors_pipe_lsu_mem_global_op_ld.sum": 2048' \
            '"file": ".*known_counts.cu"'; do
  grep -q "$want" "$dir/m.json" || { echo "missing: $want"; exit 1; }
done
