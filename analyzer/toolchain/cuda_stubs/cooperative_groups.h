// kcheck stub: the part of CUDA's cooperative groups that block-level kernels
// use, built on __syncthreads, threadIdx/blockDim and the *_sync warp
// intrinsics so the IR holds only what the interpreter already executes.
// Grid-wide sync is not provided (kcheck simulates blocks independently).
#pragma once
#ifdef __clang__
#pragma clang system_header // the stubs stand for system headers
#endif
#include "kcheck_cuda_shim.h"

namespace cooperative_groups {

namespace details {
__device__ __forceinline__ unsigned int blockThreadRank() {
  return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ unsigned int blockThreadCount() {
  return blockDim.x * blockDim.y * blockDim.z;
}
// The driver's grid workspace of a cooperative launch (%envreg1 high and
// %envreg2 low half; null otherwise), as the toolkit's driver_abi.h reads it.
struct grid_workspace {
  unsigned int wsSize;
  unsigned int barrier;
};
__device__ __forceinline__ grid_workspace *gridWorkspace() {
  unsigned int hi, lo;
  asm("mov.u32 %0, %%envreg1;" : "=r"(hi));
  asm("mov.u32 %0, %%envreg2;" : "=r"(lo));
  return (grid_workspace *)((unsigned long long)hi << 32 | lo);
}
} // namespace details

class thread_block {
public:
  __device__ void sync() const { __syncthreads(); }
  __device__ unsigned int thread_rank() const {
    return details::blockThreadRank();
  }
  __device__ unsigned int size() const { return details::blockThreadCount(); }
  __device__ unsigned int num_threads() const {
    return details::blockThreadCount();
  }
  __device__ dim3 group_index() const {
    return dim3(blockIdx.x, blockIdx.y, blockIdx.z);
  }
  __device__ dim3 thread_index() const {
    return dim3(threadIdx.x, threadIdx.y, threadIdx.z);
  }
  __device__ dim3 group_dim() const {
    return dim3(blockDim.x, blockDim.y, blockDim.z);
  }
  __device__ dim3 dim_threads() const { return group_dim(); }
};

__device__ __forceinline__ thread_block this_thread_block() {
  return thread_block();
}

// A grid handle for rank/size queries only.
class grid_group {
public:
  __device__ unsigned long long thread_rank() const {
    unsigned long long block =
        (blockIdx.z * (unsigned long long)gridDim.y + blockIdx.y) * gridDim.x +
        blockIdx.x;
    return block * details::blockThreadCount() + details::blockThreadRank();
  }
  __device__ unsigned long long size() const {
    return (unsigned long long)gridDim.x * gridDim.y * gridDim.z *
           details::blockThreadCount();
  }
  __device__ unsigned long long num_threads() const { return size(); }
  __device__ dim3 group_dim() const {
    return dim3(gridDim.x, gridDim.y, gridDim.z);
  }
  __device__ dim3 block_index() const {
    return dim3(blockIdx.x, blockIdx.y, blockIdx.z);
  }
  __device__ bool is_valid() const { return details::gridWorkspace() != 0; }
  // The toolkit's grid barrier (details/sync.h, its pre-sm_70 form): block
  // (0,0,0) adds 0x80000000 - (blocks - 1), every other block 1, so the
  // last arrival flips the top bit, which each block's first thread polls.
  __device__ void sync() const {
    volatile unsigned int *arrived = &details::gridWorkspace()->barrier;
    __syncthreads();
    if (threadIdx.x + threadIdx.y + threadIdx.z == 0) {
      unsigned int expected = gridDim.x * gridDim.y * gridDim.z;
      unsigned int nb = blockIdx.x + blockIdx.y + blockIdx.z == 0
                            ? 0x80000000u - (expected - 1)
                            : 1u;
      __threadfence();
      unsigned int old = atomicAdd((unsigned int *)arrived, nb);
      while (((old ^ *arrived) & 0x80000000u) == 0) {
      }
      __threadfence();
    }
    __syncthreads();
  }
};

__device__ __forceinline__ grid_group this_grid() { return grid_group(); }

template <unsigned int TileSize, typename ParentT = void>
class thread_block_tile;

// The implementation; tiles of other parents derive from it, as in CUDA.
template <unsigned int TileSize> class thread_block_tile<TileSize, void> {
  static_assert(TileSize >= 1 && TileSize <= 32 &&
                    (TileSize & (TileSize - 1)) == 0,
                "tile size must be a power of two no larger than 32");

public:
  static constexpr unsigned int numThreads = TileSize;

  __device__ void sync() const { __syncwarp(memberMask()); }
  __device__ unsigned int thread_rank() const {
    return details::blockThreadRank() & (TileSize - 1);
  }
  __device__ static constexpr unsigned int size() { return TileSize; }
  __device__ static constexpr unsigned int num_threads() { return TileSize; }
  __device__ unsigned int meta_group_rank() const {
    return details::blockThreadRank() / TileSize;
  }
  __device__ unsigned int meta_group_size() const {
    return (details::blockThreadCount() + TileSize - 1) / TileSize;
  }

  template <class T> __device__ T shfl(T var, int srcRank) const {
    return __shfl_sync(memberMask(), var, srcRank, TileSize);
  }
  template <class T> __device__ T shfl_down(T var, unsigned int delta) const {
    return __shfl_down_sync(memberMask(), var, delta, TileSize);
  }
  template <class T> __device__ T shfl_up(T var, unsigned int delta) const {
    return __shfl_up_sync(memberMask(), var, delta, TileSize);
  }
  template <class T> __device__ T shfl_xor(T var, unsigned int laneMask) const {
    return __shfl_xor_sync(memberMask(), var, laneMask, TileSize);
  }
  __device__ int any(int predicate) const {
    return __ballot_sync(memberMask(), predicate) != 0;
  }
  __device__ int all(int predicate) const {
    return __ballot_sync(memberMask(), predicate) == memberMask();
  }
  // The tile-relative ballot: bit i is the tile's thread of rank i.
  __device__ unsigned int ballot(int predicate) const {
    return __ballot_sync(memberMask(), predicate) >> laneOffset();
  }

protected:
  // The warp lanes this tile occupies, as the mask the *_sync intrinsics want.
  __device__ unsigned int laneOffset() const {
    return TileSize == 32
               ? 0u
               : (details::blockThreadRank() & 31u) & ~(TileSize - 1u);
  }
  __device__ unsigned int memberMask() const {
    return TileSize == 32 ? 0xffffffffu
                          : ((1u << TileSize) - 1u) << laneOffset();
  }
};

template <unsigned int TileSize, typename ParentT>
class thread_block_tile : public thread_block_tile<TileSize, void> {};

template <unsigned int TileSize, typename ParentT>
__device__ __forceinline__ thread_block_tile<TileSize, ParentT>
tiled_partition(const ParentT &) {
  return thread_block_tile<TileSize, ParentT>();
}

template <class Group> __device__ __forceinline__ void sync(const Group &g) {
  g.sync();
}

} // namespace cooperative_groups
