// GlobalSectorModel: the 32-byte sectors one warp-wide global load or store
// requests, on GPUs that serve global memory in 32-byte sectors (cc 3.x and
// later with L1 in sector mode; sm_90).
//
// Assumptions and their sources:
// - Sectors = the distinct aligned 32-byte segments that the active lanes'
//   bytes fall in, per instruction (CUDA C++ Programming Guide, "Device Memory
//   Accesses"; measured on the H100: OffsetCopy with a 1-element offset costs 5
//   sectors per warp for 4 ideal, ../shared/corpus/h100/seed_exact.csv).
// - The ideal is the sectors the same number of useful bytes would need if
//   they were contiguous and aligned: ceil(distinct bytes / 32).
#pragma once

#include "simulator/models/WarpAddresses.h"

#include <cstdint>

namespace kcheck::sim {

struct GlobalCost {
  uint32_t sectors = 0;
  uint32_t ideal = 0;
};

class GlobalSectorModel {
public:
  explicit GlobalSectorModel(unsigned sectorBytes = 32)
      : sectorBytes_(sectorBytes) {}
  GlobalCost cost(const WarpAddresses &access) const;

private:
  unsigned sectorBytes_;
};

} // namespace kcheck::sim
