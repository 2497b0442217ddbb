// SharedBankModel: how many shared-memory wavefronts one warp-wide shared
// load or store costs, on GPUs with 32 banks of 4 bytes (cc 5.x and later).
//
// Assumptions and their sources:
// - Bank of a byte address = (address / 4) % 32; successive 4-byte words go to
//   successive banks (CUDA C++ Programming Guide, Compute Capability 5.x+,
//   "Shared Memory").
// - Lanes that read or write the same 4-byte word are served together
//   (broadcast for loads, one winner for stores): no conflict (same source;
//   measured on the H100: reduce_v1 costs 95 load and 55 store wavefronts per
//   256-thread block, ../shared/corpus/h100/seed_exact.csv).
// - Accesses of 1, 2 or 4 bytes are served for the whole warp at once: the
//   wavefronts are the largest number of distinct words any one bank holds.
// - 8-byte accesses are served one half-warp (lanes 0-15, 16-31) at a time;
//   within a half-warp the same bank rule applies to every word each lane
//   touches. Measured on the H100: a full warp of 8-byte accesses costs 2.
// - 16-byte accesses are also served per half-warp, but lanes share a 16-byte
//   chunk only within their quad (lanes 4k..4k+3): a half-warp needs
//   ceil(sum over its quads of 16 x distinct chunks / 128) wavefronts, or the
//   bank-conflict degree of its words if that is larger. This one rule fits
//   every LDS.128 measured on the H100 (wavefronts per warp): contiguous 4;
//   MatMulTiled `Mds[ty][k]`, one row per half-warp, 2; chunk lane/8
//   (kernels/sgemm_warp_tiling `reg_a`) 2; chunk lane/4 with rows 4 apart
//   conflicting (seed sgemm_warp_tiling `reg_a`) 2; chunk lane%4 (seed
//   sgemm_warp_tiling `reg_b`) 4; 32-byte stride (sgemm_vectorize `reg_b`) 8.
// - The ideal (conflict-free) cost of a phase is the number of 128-byte
//   wavefronts its data needs, at least 1; Nsight Compute's
//   "L1 Wavefronts Shared Ideal" counts the same for the seed corpus.
#pragma once

#include "simulator/models/WarpAddresses.h"

#include <cstdint>

namespace kcheck::sim {

struct SharedCost {
  uint32_t wavefronts = 0; // what the hardware spends
  uint32_t ideal = 0;      // what the same data would cost without conflicts
  /// The conflict degree as programmers say it ("4-way"): wavefronts per
  /// ideal wavefront, rounded up; 1 means conflict-free.
  uint32_t degree() const {
    return ideal ? (wavefronts + ideal - 1) / ideal : 0;
  }
};

class SharedBankModel {
public:
  explicit SharedBankModel(unsigned banks = 32, unsigned bankWidthBytes = 4)
      : banks_(banks), bankWidth_(bankWidthBytes) {}

  SharedCost cost(const WarpAddresses &access) const;
  unsigned bankOf(uint64_t byteAddress) const {
    return unsigned((byteAddress / bankWidth_) % banks_);
  }

private:
  SharedCost phaseCost(const WarpAddresses &access, unsigned firstLane,
                       unsigned lanes) const;
  SharedCost wideHalfWarpCost(const WarpAddresses &access,
                              unsigned firstLane) const;
  unsigned banks_;
  unsigned bankWidth_;
};

} // namespace kcheck::sim
