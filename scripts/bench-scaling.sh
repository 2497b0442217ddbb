#!/usr/bin/env bash
# Benchmark (not a test): a reduce_v1-style kernel (interleaved addressing,
# bank conflicts, one output per block) predicted at 1K, 64K and 1M blocks
# through --grid. With block classes the cost should not grow with the grid:
# prints each wall time (minimum of REPEAT runs) and the max/min ratio
# (issue 7 asks for at most 1.5).
# usage: scripts/bench-scaling.sh [KCHECK] [REPEAT]
set -euo pipefail
cd "$(dirname "$0")/.."
kcheck=${1:-build/kcheck}
repeat=${2:-3}
[ -x "$kcheck" ] || { echo "no $kcheck: build kcheck first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Buffers sized for the largest grid (pages are allocated lazily; the input
# is never written by the host, so it reads as input-derived zeros).
cat >"$tmp/reduce_v1_scaling.cu" <<'CU'
#define BLOCK_SIZE 256
#define MAX_BLOCKS (1024 * 1024)

__global__ void reduce_v1(float *g_idata, float *g_odata) {
  __shared__ float sdata[BLOCK_SIZE];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = g_idata[i];
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0)
    g_odata[blockIdx.x] = sdata[0];
}

int main() {
  float *in, *out;
  cudaMalloc((void **)&in, (size_t)MAX_BLOCKS * BLOCK_SIZE * sizeof(float));
  cudaMalloc((void **)&out, (size_t)MAX_BLOCKS * sizeof(float));
  reduce_v1<<<MAX_BLOCKS, BLOCK_SIZE>>>(in, out);
  cudaDeviceSynchronize();
  return 0;
}
CU
min_time() { # prints the minimum wall time of $repeat runs of "$@"
  local best=
  for _ in $(seq "$repeat"); do
    local start end t
    start=$(date +%s.%N)
    "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best"
}
times=()
for grid in 1024 65536 1048576; do
  t=$(min_time "$kcheck" predict "$tmp/reduce_v1_scaling.cu" --format json --grid "$grid")
  times+=("$t")
  printf 'reduce_v1 %8d blocks  %6.3f s\n' "$grid" "$t"
done
max=$(printf '%s\n' "${times[@]}" | sort -g | tail -1)
min=$(printf '%s\n' "${times[@]}" | sort -g | head -1)
printf 'max/min ratio          %6.2f\n' "$(echo "$max / $min" | bc -l)"
