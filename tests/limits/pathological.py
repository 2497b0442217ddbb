#!/usr/bin/env python3
"""Pathological inputs (issue 10, "limits"): each must end well within 60 s
with a clear message and bounded memory.

usage: pathological.py KCHECK CASE [--max-seconds S] [--max-rss-mb MB]

Writes the case's input to a temporary directory (the 10 MB file is made
here, never committed), runs kcheck on it, and checks the exit code, the
message, the wall time and the peak RSS of kcheck (getrusage of the child).
Prints one line with the measured time and RSS (docs/reliability.md's table
comes from these lines).
"""
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

HEAD = "#include <cuda_runtime.h>\n#include <cstdio>\n"

SHARED_1GB = HEAD + r"""
__global__ void big(float *out) {
  __shared__ float s[1u << 28]; // 1 GiB
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x * 7) & 255];
}
int main() {
  float *d;
  cudaMalloc(&d, 1024);
  big<<<1, 256>>>(d);
  return 0;
}
"""

# A 1 GiB __device__ array, every element written by a grid of 2^20 blocks.
GLOBAL_1GB = HEAD + r"""
__device__ float g[1u << 28]; // 1 GiB
__global__ void fill() {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  g[i] = float(i & 1023);
}
int main() {
  fill<<<(1u << 28) / 256, 256>>>();
  return 0;
}
"""

# kcheck run: the program's own cudaMalloc of 1 GiB, a kernel writing a
# strided subset, a small copy back.
MALLOC_1GB = HEAD + r"""
__global__ void touch(float *p, size_t n) {
  size_t i = (size_t(blockIdx.x) * blockDim.x + threadIdx.x) * 4096;
  if (i < n)
    p[i] = 1.0f;
}
int main() {
  size_t n = (size_t(1) << 30) / sizeof(float);
  float *d;
  if (cudaMalloc(&d, n * sizeof(float)) != cudaSuccess) {
    printf("cudaMalloc failed\n");
    return 1;
  }
  touch<<<(unsigned)(n / 4096 / 256), 256>>>(d, n);
  float h = 0;
  cudaMemcpy(&h, d, sizeof(float), cudaMemcpyDeviceToHost);
  printf("p[0] = %g\n", h);
  cudaFree(d);
  return 0;
}
"""

GRID_2G = HEAD + r"""
__global__ void k(float *out) {
  out[(blockIdx.x * 32 + threadIdx.x) & 1023] = threadIdx.x;
}
int main() {
  float *d;
  cudaMalloc(&d, 4096);
  k<<<2147483647, 32>>>(d);
  return 0;
}
"""

# Issue 18: a 12.9 M-block launch of a simple kernel (one warp a block, one
# element a thread, 1.6 GB per array): statically, blocks that provably cost
# the same are simulated once (simulator/BlockClasses.h).
GRID_12M = HEAD + r"""
__global__ void scale(float *out, const float *in, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = a * in[i];
}
int main() {
  int n = 12900000 * 32;
  float *in, *out;
  cudaMalloc(&in, size_t(n) * sizeof(float));
  cudaMalloc(&out, size_t(n) * sizeof(float));
  scale<<<(n + 31) / 32, 32>>>(out, in, 2.0f, n);
  cudaDeviceSynchronize();
  return 0;
}
"""

# The same grid under `kcheck run`, one float a block: the host code runs, so
# every block is simulated (skipped blocks' stores would not be computed).
GRID_12M_RUN = HEAD + r"""
__global__ void blockSum(float *sums, const float *in) {
  float v = in[blockIdx.x * 32 + threadIdx.x];
  for (int d = 16; d > 0; d /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, d);
  if (threadIdx.x == 0)
    sums[blockIdx.x] = v;
}
int main() {
  int blocks = 12900000;
  float *in, *sums;
  cudaMalloc(&in, size_t(blocks) * 32 * sizeof(float));
  cudaMalloc(&sums, size_t(blocks) * sizeof(float));
  blockSum<<<blocks, 32>>>(sums, in);
  float last = -1;
  cudaMemcpy(&last, sums + blocks - 1, sizeof(float), cudaMemcpyDeviceToHost);
  printf("last block sum %g\n", last);
  return 0;
}
"""

INFINITE_LOOP = HEAD + r"""
__global__ void spin(volatile int *flag, int *out) {
  while (flag[0] == 0) {
  }
  out[threadIdx.x] = 1;
}
int main() {
  int *flag, *out;
  cudaMalloc(&flag, 4);
  cudaMalloc(&out, 128);
  cudaMemset(flag, 0, 4);
  spin<<<1, 32>>>(flag, out);
  return 0;
}
"""

# A block that runs for minutes (writing memory, so no repeat is detected)
# with the step budget raised past it: the time budget stops it within a
# few milliseconds of its end (the clock is read every 2^18 warp
# instructions).
LONG_BLOCK = HEAD + r"""
__global__ void count(volatile int *out, long long n) {
  for (long long i = 0; i < n; ++i)
    out[threadIdx.x] = out[threadIdx.x] * 3 + int(i);
}
int main() {
  int *out;
  cudaMalloc(&out, 128);
  count<<<1, 32>>>(out, 100000000000ll);
  return 0;
}
"""

# Many launches, each with its own argument (no repeat to reuse), under
# `kcheck run`: the time budget stops between two of them, the earlier ones
# reported.
MANY_LAUNCHES = HEAD + r"""
__global__ void add(float *x, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] += float(k);
}
int main() {
  float *x;
  cudaMalloc(&x, 1024 * 256 * sizeof(float));
  for (int k = 0; k < 100000; ++k)
    add<<<1024, 256>>>(x, k);
  cudaDeviceSynchronize();
  return 0;
}
"""


def ten_megabytes():
    """About 10 MB of valid CUDA: many device functions, one kernel that
    calls one of them, one launch."""
    parts = [HEAD]
    i = 0
    size = len(HEAD)
    while size < 10 * 1024 * 1024:
        body = (f"__device__ __noinline__ float f{i}(const float *p, int t) {{\n"
                + "".join(f"  float v{j} = p[(t * {j + 1} + {i}) & 1023] * {j}.5f;\n"
                          for j in range(24))
                + "  return " + " + ".join(f"v{j}" for j in range(24)) + ";\n}\n")
        parts.append(body)
        size += len(body)
        i += 1
    parts.append(r"""
__global__ void k(const float *in, float *out) {
  out[threadIdx.x] = f0(in, threadIdx.x);
}
int main() {
  float *in, *out;
  cudaMalloc(&in, 4096);
  cudaMalloc(&out, 4096);
  k<<<1, 256>>>(in, out);
  return 0;
}
""")
    return "".join(parts)


# name: (source, kcheck arguments, expected exit, regex the output must match)
CASES = {
    "shared_1gb": (SHARED_1GB, ["predict"], 3,
                   r"declares 1073741824 bytes of __shared__ memory: a kernel may "
                   r"declare at most 49152"),
    "global_1gb": (GLOBAL_1GB, ["predict"], 0,
                   r"fill<<<1048576, 256>>>"),
    "global_1gb_exhaustive": (GLOBAL_1GB,
                              ["predict", "--exhaustive", "--max-memory", "256"], 3,
                              r"simulated memory it touched passed 256 MB"),
    # exit 1: the 16 KiB-strided stores are uncoalesced (a finding).
    "malloc_1gb_run": (MALLOC_1GB, ["run"], 1, r"p\[0\] = 1"),
    "grid_2g": (GRID_2G, ["predict"], 3,
                r"launch of 2147483647 blocks not simulated: .*--max-launch-steps"),
    "grid_12m": (GRID_12M, ["predict"], 0,
                 r"scale<<<12900000, 32>>>(.|\n)*global_st.sum +12900000"),
    # exit 1: lane 0 alone stores (a divergent branch: a finding).
    "grid_12m_run": (GRID_12M_RUN, ["run"], 1, r"last block sum 0"),
    "grid_2g_exhaustive": (GRID_2G, ["predict", "--exhaustive"], 3,
                           r"launch of 2147483647 blocks not simulated"),
    "infinite_loop": (INFINITE_LOOP, ["predict"], 3,
                      r"the launch never ends: every block left spins with nothing "
                      r"changing(.|\n)*waits at \S+:5 \(warp 0 comes back there "
                      r"with nothing changed\)"),
    "time_budget_block": (LONG_BLOCK,
                          ["predict", "--step-budget", "1000000000000",
                           "--time-budget", "6"], 3,
                          r"the analysis passed its time budget of 6 s "
                          r"\(--time-budget raises it\) at \S+:[56] in count"),
    "time_budget_launches": (MANY_LAUNCHES, ["run", "--time-budget", "8"], 3,
                             r"launch #0 add<<<1024, 256>>>(.|\n)*the analysis "
                             r"passed its time budget of 8 s \(--time-budget "
                             r"raises it\) before (launch #[0-9]+ add|block)"),
    "source_10mb": (None, ["predict"], 3,
                    r"is 10 MB, past --max-source 4 MB: kcheck declines to compile it"),
}


def main():
    args = sys.argv[1:]
    if len(args) < 2 or args[1] not in CASES:
        print(__doc__, file=sys.stderr)
        return 2
    kcheck, case = args[0], args[1]
    max_seconds = 60.0
    max_rss_mb = 2048
    rest = args[2:]
    while rest:
        if rest[0] == "--max-seconds":
            max_seconds = float(rest[1])
        elif rest[0] == "--max-rss-mb":
            max_rss_mb = int(rest[1])
        rest = rest[2:]
    source, kargs, want_exit, want = CASES[case]
    if source is None:
        source = ten_megabytes()
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, case + ".cu")
        with open(path, "w") as f:
            f.write(source)
        cmd = [kcheck, kargs[0], path, "-q"] + kargs[1:]
        start = time.monotonic()
        try:
            p = subprocess.run(cmd, capture_output=True, text=True,
                               timeout=max_seconds * 2)
        except subprocess.TimeoutExpired:
            print(f"{case}: FAIL: still running after {max_seconds * 2:.0f} s")
            return 1
        seconds = time.monotonic() - start
    rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    output = p.stdout + p.stderr
    print(f"{case}: exit {p.returncode}, {seconds:.1f} s, peak RSS {rss_mb:.0f} MB"
          f", input {len(source) / 1e6:.1f} MB")
    failures = []
    if p.returncode != want_exit:
        failures.append(f"exit {p.returncode}, want {want_exit}")
    if not re.search(want, output):
        failures.append(f"output does not match /{want}/")
    if seconds > max_seconds:
        failures.append(f"took {seconds:.1f} s, bound {max_seconds:.0f} s")
    if rss_mb > max_rss_mb:
        failures.append(f"peak RSS {rss_mb:.0f} MB, bound {max_rss_mb} MB")
    if failures:
        print("FAIL: " + "; ".join(failures))
        print(output[-3000:])
        return 1
    print("ok: " + output.strip().splitlines()[-1][:200] if output.strip() else "ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
