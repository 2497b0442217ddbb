// SharedBankModel: how many shared-memory wavefronts (serialized bank
// accesses) one warp-wide shared load or store costs, for the generation an
// ArchSpec names. Sources: [Guide] CUDA C++ Programming Guide, "Compute
// Capabilities", section "Shared Memory" of the capability named; [Slides]
// the seed slides (../shared/seeds, bank examples and stride table); [H100]
// Nsight Compute measurements in ../shared/corpus/h100/seed_exact.csv.
//
// Every generation:
// - Bank of a byte address = (address / bank width) % banks; successive
//   words go to successive banks [Guide, every cc; Slides].
// - n lanes touching n different words of one bank cost n serialized
//   accesses [Guide; Slides "Bank conflicts"]. wavefronts / ideal, rounded
//   up, is the "n-way" degree.
//
// cc1.x (16 banks x 4 bytes) [Guide 1.x]:
// - A warp's request is split in two, one per half-warp: lanes of different
//   half-warps never conflict.
// - Reads: each step serves one broadcast word (every address within it) and
//   one address for each other bank. The Guide leaves the choices open;
//   kcheck broadcasts the word of the lowest pending lane and, in every other
//   bank, serves its lowest pending lane (a priority encoder). Addresses are
//   the lanes' byte addresses, so 8- and 16-bit accesses to different bytes
//   of one word conflict outside the broadcast word, as the Guide's
//   `char shared[BaseIndex + tid]` example says.
// - Writes (WarpAddresses::store): one address per bank per step; lanes
//   writing the same address are served once ("only one thread performs a
//   write").
// - Accesses wider than 32 bits "are split into 32-bit accesses": a 64-bit
//   access is two requests (the low and the high words), a 128-bit one four.
// - Ideal: one step per request and half-warp with active lanes.
//
// cc2.x (32 banks x 4 bytes, multicast) [Guide 2.x]:
// - Lanes touching any address within one 32-bit word never conflict (reads
//   broadcast, any number of words at once; writes: one lane wins).
// - Up to 32-bit: the whole warp is one request: wavefronts = the most
//   distinct words any bank holds.
// - 64-bit: "a bank conflict only occurs if two or more threads in either of
//   the half-warps access different addresses belonging to the same bank":
//   each half-warp is one phase with the rule above.
// - 128-bit: per quarter-warp, "add 1 to the maximum number of threads in a
//   quarter-warp that access different addresses belonging to the same
//   bank": wavefronts 1 + that maximum, ideal 1, per active quarter-warp, so
//   a conflict-free 128-bit access is the Guide's "2-way".
//
// cc3.x (32 banks, 64-bit or 32-bit mode, `--bank-mode 8|4`) [Guide 3.x;
// Slides]:
// - 64-bit mode: successive 8-byte words go to successive banks; lanes
//   touching sub-words of one 8-byte word never conflict (e.g. 32-bit
//   accesses to the two halves of one 64-bit word).
// - 32-bit mode (the default): successive 4-byte words go to successive
//   banks; lanes never conflict on one 32-bit word, nor on words i and i + 32
//   of one 64-word aligned segment (bank bandwidth is 64 bits per cycle).
// - The Guide names no phases for 3.x: kcheck serves the whole warp at once
//   for every access size (a bank delivers 64 bits per clock, so 32 banks
//   deliver a warp's 64-bit accesses at once); wavefronts = the most distinct
//   (paired) words any bank holds; ideal = distinct (paired) words / 32,
//   rounded up. This is kcheck's reading, not a documented count.
//
// cc5.x and later (32 banks x 4 bytes, multicast) [Guide 5.x, 7.x, 8.x:
// "same as 5.x"; Slides]:
// - Up to 32-bit: as cc2.x, the whole warp at once (measured on the H100:
//   reduce_v1 costs 95 load and 55 store wavefronts per 256-thread block).
// - The Guide documents no phases for wider accesses after 2.x; kcheck uses
//   the H100 measurements for every cc5.x+ target:
// - 64-bit accesses are served one half-warp (lanes 0-15, 16-31) at a time;
//   within a half-warp the same bank rule applies to every word each lane
//   touches (as cc2.x documents). Measured: a full warp costs 2.
// - A 64-bit load whose active lanes come in equal pairs (every lane n reads
//   lane n ^ 1's address, or every lane lane n ^ 2's) is one 32-lane phase:
//   all lanes at one address 1, `8 * (lane / 2)` 1, `16 * (lane / 2)` 2
//   (../shared/docs/research/sm90-shared-rules.md, rule 3; HeCBench
//   accuracy's LDS.64 of two scalars every lane reads: 1). Stores never.
//   A lane whose partner n ^ 1 is inactive does not break the pairs: with
//   lanes {0, 31}, {0, 8, 16, 24} or the odd lanes only, one phase; the
//   n ^ 2 pairing needs both lanes active (measured: 129 partial-warp
//   LDS.64 of kernels/toolkit/partial_warp_shared.cu and mixed_masks.cu,
//   all of them; a relaxed n ^ 2 misses 3).
// - 128-bit accesses are also served per half-warp, but lanes share a
//   16-byte chunk only within their quad (lanes 4k..4k+3): a half-warp needs
//   ceil(sum over its quads of 16 x distinct chunks / 128) wavefronts, or the
//   bank-conflict degree of its words if that is larger. This one rule fits
//   every LDS.128 measured on the H100 (wavefronts per warp): contiguous 4;
//   MatMulTiled `Mds[ty][k]`, one row per half-warp, 2; chunk lane/8
//   (kernels/sgemm_warp_tiling `reg_a`) 2; chunk lane/4 with rows 4 apart
//   conflicting (seed sgemm_warp_tiling `reg_a`) 2; chunk lane%4 (seed
//   sgemm_warp_tiling `reg_b`) 4; 32-byte stride (sgemm_vectorize `reg_b`) 8.
// - A 128-bit load whose active lanes all read one address costs one
//   wavefront per 16 active lanes, wherever they are: {0, 8, 16, 24}, the
//   odd lanes or lanes 0-7 and 16-23 1, 24 lanes 2, the whole warp 2
//   (partial_warp_shared.cu, 7 of 7). Of the 75 partial-warp LDS.128
//   measured, this model misses 7, all lanes in pairs or quads on one chunk
//   with some partners inactive (lane 0 off: 3 on the H100, 2 here; lane 31
//   off: 2 on both), for which no rule is known yet.
// - The ideal (conflict-free) cost of a phase is the number of 128-byte
//   wavefronts its data needs, at least 1; Nsight Compute's
//   "L1 Wavefronts Shared Ideal" counts the same for the seed corpus.
#pragma once

#include "core/ArchSpec.h"
#include "simulator/models/WarpAddresses.h"

#include <array>
#include <cstdint>
#include <optional>

namespace kcheck::sim {

struct SharedCost {
  uint32_t wavefronts = 0; // what the hardware spends
  uint32_t ideal = 0;      // what the same data would cost without conflicts
  uint32_t phases = 0;     // requests / phases with active lanes
  /// The conflict degree as programmers say it ("4-way"): wavefronts per
  /// ideal wavefront, rounded up; 1 means conflict-free.
  uint32_t degree() const {
    return ideal ? (wavefronts + ideal - 1) / ideal : 0;
  }
};

class SharedBankModel {
public:
  /// sm_90: 32 banks of 4 bytes, the H100 rules.
  SharedBankModel() = default;
  /// The target's rules in the bank mode of `arch.options`.
  explicit SharedBankModel(const core::ArchSpec &arch)
      : SharedBankModel(arch.shared, arch.options.bankModeBytes) {}
  SharedBankModel(const core::SharedMemorySpec &spec, unsigned bankBytes)
      : spec_(spec), bankBytes_(bankBytes) {}

  SharedCost cost(const WarpAddresses &access) const;

  unsigned banks() const { return spec_.banks; }
  unsigned bankBytes() const { return bankBytes_; }
  unsigned bankOf(uint64_t byteAddress) const {
    return unsigned((byteAddress / bankBytes_) % spec_.banks);
  }
  /// Active lanes per bank of the lane's first byte (explanations, tests).
  std::array<uint32_t, kWarpLanes> lanesPerBank(const WarpAddresses &a) const;

private:
  static bool lanesInEqualPairs(const WarpAddresses &access);
  static std::optional<SharedCost>
  oneAddressLoadCost(const WarpAddresses &access);
  SharedCost wordsCost(const WarpAddresses &access, unsigned firstLane,
                       unsigned lanes) const;
  SharedCost quadSharingHalfWarpCost(const WarpAddresses &access,
                                     unsigned firstLane) const;
  SharedCost fermiQuarterWarpCost(const WarpAddresses &access,
                                  unsigned firstLane) const;
  SharedCost teslaRequestCost(const WarpAddresses &access, unsigned firstLane,
                              unsigned wordIndex) const;
  SharedCost teslaCost(const WarpAddresses &access) const;
  SharedCost
  perPhase(const WarpAddresses &access, unsigned lanesPerPhase,
           SharedCost (SharedBankModel::*phase)(const WarpAddresses &, unsigned)
               const) const;
  SharedCost halfWarpWordsCost(const WarpAddresses &access,
                               unsigned firstLane) const {
    return wordsCost(access, firstLane, kWarpLanes / 2);
  }

  core::SharedMemorySpec spec_;
  unsigned bankBytes_ = 4;
};

} // namespace kcheck::sim
