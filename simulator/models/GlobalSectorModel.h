// GlobalSectorModel: the memory requests and transactions one warp-wide
// global load or store costs, for the generation an ArchSpec names. Sources:
// [Guide] CUDA C++ Programming Guide, "Compute Capabilities", section
// "Global Memory" of the capability named; [Slides] the seed slides
// (../shared/seeds, "global memory coalescing"); [H100] Nsight Compute
// measurements in ../shared/corpus/h100; [L1TEX] NVIDIA's Nsight Compute
// L1TEX model (forums.developer.nvidia.com/t/165293).
//
// Every generation: accesses are 1, 2, 4, 8 or 16 bytes, aligned to their size
// (the engine faults misaligned ones) [Guide "Size and Alignment
// Requirement"]. `usedBytes` are the distinct bytes the active lanes touch;
// lanes reading one element count once.
//
// cc1.0, 1.1 [Guide 1.x; Slides "per half-warp on cc1.x"]:
// - Per half-warp (one request each). It coalesces when the words are 4, 8 or
//   16 bytes and the k-th active thread accesses the k-th word of a segment
//   aligned to 16 words (64 bytes for 4-byte words, 128 for 8; for 16-byte
//   words the first 8 words in one 128-byte segment, the last 8 in the
//   next): one 64-byte, one 128-byte, or two 128-byte transactions (one per
//   8-lane half with active lanes). Inactive lanes do not break coalescing.
// - Otherwise "a separate memory transaction is issued for each thread": one
//   32-byte transaction per active lane (the Guide's "16 separate 32-byte
//   transactions" for a full half-warp).
//
// cc1.2, 1.3 [Guide 1.x]: per half-warp, the Guide's protocol: take the
// segment (32 bytes for 1-byte words, 64 for 2-byte, 128 for 4-, 8-, 16-byte)
// of the lowest-numbered pending lane, serve every pending lane in it, reduce
// 128 to 64 bytes and 64 to 32 bytes while only the lower or upper half is
// used, repeat.
//
// cc2.x and later [Guide 2.x, 3.x; 5.x: L2 "same as 3.x"; 6.x-8.x "same as
// 5.x"; Slides]:
// - Requests: cc2.x-6.x split a warp's access into 128-byte requests, one
//   per half-warp for 8-byte words, one per quarter-warp for 16-byte words
//   [Guide 2.x, 3.x]; cc7.x and later send one request per instruction
//   [L1TEX]. Only requests with an active lane count. Requests are not among
//   the H100-validated metrics.
// - Transactions: the distinct aligned units the request's bytes fall in,
//   summed over requests. The unit is the 128-byte L1 line for loads cached
//   in L1 on cc2.x (the default) and cc3.x (`--l1-cache on`, i.e.
//   -dlcm=ca), else the 32-byte L2 segment / sector [Guide 2.x, 3.x; Slides].
//   cc5.x and later count 32-byte sectors whether L1 caches the load or not
//   (what Nsight Compute's sector metrics count). The Guide does not tell
//   stores from loads here; neither does kcheck.
// - sm_90: one request, sectors = distinct 32-byte sectors of the warp
//   (measured: OffsetCopy with a 1-element offset costs 5 sectors per warp
//   for 4 ideal, ../shared/corpus/h100/seed_exact.csv).
//
// Ideal: the transactions the used bytes would need if contiguous and
// aligned: ceil(usedBytes / unit) on cc2.x+; per active half-warp
// max(1, ceil(used / segment)) on cc1.x, the segment being 32, 64 or 128
// bytes by word size as above.
#pragma once

#include "core/ArchSpec.h"
#include "simulator/models/WarpAddresses.h"

#include <cstdint>

namespace kcheck::sim {

struct GlobalCost {
  /// Transactions: 32-byte sectors on cc3.x+ (and cc2.x without L1),
  /// 128-byte lines on cc2.x with L1, 32/64/128-byte segments on cc1.x.
  uint32_t sectors = 0;
  uint32_t ideal = 0;            // transactions the used bytes need at best
  uint32_t requests = 0;         // memory requests the instruction issues
  uint32_t transactionBytes = 0; // the unit: sector, line or largest segment
  uint32_t bytesMoved = 0;       // sum of the transactions' sizes
  uint32_t usedBytes = 0;        // distinct bytes the active lanes access
  uint32_t transactions() const { return sectors; }
  /// usedBytes / bytesMoved: 1 when every fetched byte is used.
  double efficiency() const {
    return bytesMoved ? double(usedBytes) / double(bytesMoved) : 1.0;
  }
};

class GlobalSectorModel {
public:
  /// sm_90: one request, 32-byte sectors.
  GlobalSectorModel() = default;
  /// The target's rules with the L1 setting of `arch.options`.
  explicit GlobalSectorModel(const core::ArchSpec &arch)
      : GlobalSectorModel(arch.global, arch.options.l1Cache) {}
  GlobalSectorModel(const core::GlobalMemorySpec &spec, bool l1Cache)
      : spec_(spec), l1Cache_(l1Cache) {}

  GlobalCost cost(const WarpAddresses &access) const;
  /// Bytes per transaction on cc2.x and later with this L1 setting.
  unsigned unitBytes() const {
    return l1Cache_ && spec_.l1LineBytes ? spec_.l1LineBytes
                                         : spec_.segmentBytes;
  }

private:
  GlobalCost cachedCost(const WarpAddresses &access) const;
  GlobalCost halfWarpCost(const WarpAddresses &access) const;

  core::GlobalMemorySpec spec_;
  bool l1Cache_ = false;
};

/// Distinct bytes the active lanes of `access` touch.
uint32_t usedBytesOf(const WarpAddresses &access, unsigned firstLane = 0,
                     unsigned lanes = kWarpLanes);

} // namespace kcheck::sim
