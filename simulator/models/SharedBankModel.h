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
// - 8-byte accesses are served one half-warp (lanes 0-15, 16-31) at a time,
//   16-byte accesses one quarter-warp (8 lanes) at a time; within a phase the
//   same bank rule applies to every word each lane touches. Measured on the
//   H100: a full warp of 8-byte accesses costs 2 wavefronts, of 16-byte
//   accesses 4; sgemm_warp_tiling's LDS.128 where lane l reads chunk l % 4
//   (64 contiguous bytes) costs 4; sgemm_vectorize's LDS.128 of chunk
//   8 * (l % 16) costs 8 (2 per quarter: chunks j and j+4 share banks).
// - Exception, 16-byte: when each quarter of a half-warp reads a single
//   address, the half-warp is served together (one wavefront unless those
//   addresses share a bank). Measured on the H100: MatMulTiled's LDS.128 of
//   `Mds[ty][k]` (one row per half-warp) costs 2 wavefronts per warp, not 4;
//   an LDS.128 where lanes 8q..8q+7 read chunk q (kernels/sgemm_warp_tiling.cu
//   `reg_a`) costs 2, not 4.
// - The ideal (conflict-free) cost of a phase is the number of 128-byte
//   wavefronts its distinct words need, at least 1; Nsight Compute's
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
  static bool singleAddress(const WarpAddresses &access, unsigned firstLane,
                            unsigned lanes);
  unsigned banks_;
  unsigned bankWidth_;
};

} // namespace kcheck::sim
