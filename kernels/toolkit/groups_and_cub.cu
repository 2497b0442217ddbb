// Cooperative groups and CUB block primitives: cg::reduce on a 32-thread and
// a 16-thread tile, tile shuffles, coalesced_threads and an inclusive scan;
// cub::BlockReduce, cub::BlockScan and cub::BlockLoad with a warp transpose,
// cub::WarpReduce.
#include "common.h"
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cub/cub.cuh>

namespace cg = cooperative_groups;

__global__ void cg_tiles(int *out, const int *in) {
  cg::thread_block block = cg::this_thread_block();
  auto tile32 = cg::tiled_partition<32>(block);
  auto tile16 = cg::tiled_partition<16>(block);
  int v = in[block.group_index().x * block.size() + block.thread_rank()];
  int s32 = cg::reduce(tile32, v, cg::plus<int>());
  int m16 = cg::reduce(tile16, v, cg::greater<int>());
  int up = tile32.shfl_up(v, 1);
  int scan = cg::inclusive_scan(tile32, v);
  if (v % 3 == 0) {
    cg::coalesced_group active = cg::coalesced_threads();
    v += active.size();
  }
  int i = block.group_index().x * block.size() + block.thread_rank();
  out[i] = s32 + m16 + up + scan + v;
}

__global__ void cub_block(int *out, const int *in) {
  using Load = cub::BlockLoad<int, 128, 4, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Reduce = cub::BlockReduce<int, 128>;
  using Scan = cub::BlockScan<int, 128>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Reduce::TempStorage reduce;
    typename Scan::TempStorage scan;
  } temp;
  int items[4];
  Load(temp.load).Load(in + blockIdx.x * 512, items);
  __syncthreads();
  int sum = Reduce(temp.reduce).Sum(items);
  __syncthreads();
  Scan(temp.scan).ExclusiveSum(items, items);
  for (int k = 0; k < 4; ++k)
    out[blockIdx.x * 512 + threadIdx.x * 4 + k] = items[k] + sum;
}

__global__ void cub_warp(int *out, const int *in) {
  using WarpReduce = cub::WarpReduce<int>;
  __shared__ typename WarpReduce::TempStorage temp[4];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int s = WarpReduce(temp[threadIdx.x / 32]).Sum(in[i]);
  if (threadIdx.x % 32 == 0)
    out[i / 32] = s;
}

int main() {
  const int n = 64 * 512;
  int *in = deviceBuffer<int>(n, 1), *out;
  CHECK(cudaMalloc(&out, n * sizeof(int)));
  cg_tiles<<<n / 256, 256>>>(out, in);
  CHECK_LAUNCH();
  cub_block<<<n / 512, 128>>>(out, in);
  CHECK_LAUNCH();
  cub_warp<<<n / 128, 128>>>(out, in);
  CHECK_LAUNCH();
  printf("sum %.0f\n", deviceSum(out, n / 32));
  return 0;
}
