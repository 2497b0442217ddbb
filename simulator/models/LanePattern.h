// LanePattern: what a CUDA programmer would say about one warp's global
// addresses (a broadcast, contiguous but misaligned, a constant stride,
// rows, a gather), as data the uncoalesced-access check words. Pure: the
// lanes' byte addresses in, no LLVM, no hardware rule beyond the sector
// size the caller gives (ArchSpec's).
//
// Assumptions: each active lane accesses bytesPerLane bytes at its address;
// "distinct" addresses are compared whole (two lanes at one address share
// it, as a broadcast); the order of distinct addresses is the lanes' order
// (lane 0 first), which is how strides and runs are read.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace kcheck::sim {

struct LanePattern {
  enum class Kind {
    None,       // no active lane
    Single,     // one active lane
    Broadcast,  // at most a quarter as many addresses as lanes
    Contiguous, // one address after the other, element by element
    Strided,    // a constant stride of whole elements (not 1)
    Runs,       // 2-8 runs, each contiguous or at one stride of elements
    Scattered,  // none of these: a gather or scatter
  };
  Kind kind = Kind::None;
  std::vector<unsigned> lanes; // the active lanes, ascending
  // Distinct addresses, in the order lanes first touch them.
  std::vector<uint64_t> addresses;
  // How many lanes share each address when all share equally (0: unequal).
  unsigned lanesPerAddress = 0;
  // Contiguous, Strided: bytes from one address to the next; Runs: within a
  // run.
  int64_t stride = 0;
  // Contiguous: bytes from the sector boundary to the lowest address.
  uint64_t misalignment = 0;
  struct Run {
    size_t length = 0;         // addresses in it
    uint64_t first = 0;        // its first address
    uint64_t misalignment = 0; // of `first` within its sector
  };
  std::vector<Run> runs; // Runs only
};

/// Classifies the active lanes (`activeMask`) of one warp's accesses of
/// `bytesPerLane` bytes at `addresses`, with sectors of `sectorBytes`.
LanePattern classifyLanes(const std::array<uint64_t, 32> &addresses,
                          uint32_t activeMask, unsigned bytesPerLane,
                          unsigned sectorBytes);

} // namespace kcheck::sim
