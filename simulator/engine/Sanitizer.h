// GPU-free compute-sanitizer: shadow state over the engine's event stream,
// kept apart from the interpreter (as KLEE keeps its checkers apart from its
// executor). A Sanitizer wraps the sink a block's events go to, forwards
// every event unchanged, and checks each one:
//   memcheck  - the engine's memory faults (out of bounds against the
//               allocation, the __shared__ variable or the alloca; misaligned),
//               recorded with thread, block, address and allocation;
//   initcheck - a load of a shared byte no thread of this block has written;
//   synccheck - a warp-synchronous call whose member mask leaves out the
//               calling thread (the engine's WarpMemberMask fault; barrier
//               divergence is counted by the engine itself, InstStats);
//   racecheck - two accesses to one shared byte, at least one a write, by
//               different threads with nothing ordering them: threads of
//               different warps with no __syncthreads() between (a data race),
//               or lanes of one warp with no __syncwarp()/__syncthreads()
//               between and not both volatile (the code relies on implicit
//               warp synchrony, which independent thread scheduling since
//               Volta does not give, and the compiler may keep the value in a
//               register).
//
// Assumptions: the engine runs a block's warps one at a time, each until a
// barrier, in a fixed order, and a warp's lanes in lockstep; so an access
// happens after another in the event stream, and the two are ordered on a
// GPU only through a barrier (the warps' barrier counts differ), a
// __syncwarp (same warp, warp-sync counts differ), program order (same
// thread) or one instruction (same warp execution). Atomics never race with
// atomics. Per shared byte the shadow keeps the last write and two readers
// since it (the latest, and the latest of another thread), so a write racing
// only with an older, overwritten reader can be missed. One Sanitizer per
// launch, driven by one thread; the shadow exists only while it does.
#pragma once

#include "core/Launch.h"
#include "simulator/engine/BlockRunner.h"
#include "simulator/engine/DecodedKernel.h"
#include "simulator/engine/Events.h"
#include "simulator/engine/SanitizerOptions.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <tuple>
#include <vector>

namespace kcheck::sim {

enum class Hazard : uint8_t { ReadAfterWrite, WriteAfterRead, WriteAfterWrite };
const char *toString(Hazard hazard); // "read-after-write"...

struct SanitizerFinding {
  enum class Check : uint8_t { Memcheck, Initcheck, Racecheck, Synccheck };
  Check check = Check::Memcheck;
  uint32_t instId = 0;      // the access that showed it (a race's later one)
  core::Dim3 block, thread; // of that access (first occurrence)
  uint64_t address = 0;     // shared byte offset; memcheck: the fault's
  uint64_t count = 1;       // occurrences (thread accesses) in the launch
  // racecheck: the earlier access of the pair.
  Hazard hazard = Hazard::ReadAfterWrite;
  bool withinWarp = false; // both threads in one warp
  uint32_t otherInstId = 0;
  core::Dim3 otherThread;
  std::optional<Fault> fault; // memcheck, synccheck: the kernel stopped
};

struct SanitizerReport {
  std::vector<SanitizerFinding> findings; // in the order first seen
  bool faulted() const;
};

class Sanitizer {
public:
  Sanitizer(const DecodedKernel &kernel, const core::LaunchConfig &launch,
            SanitizerOptions options);
  ~Sanitizer();
  Sanitizer(const Sanitizer &) = delete;
  Sanitizer &operator=(const Sanitizer &) = delete;

  /// The sink for `block`'s events: checks them and forwards each to
  /// `inner`. Valid until the next begin().
  EventSink &begin(core::Dim3 block, EventSink &inner);

  const SanitizerReport &report() const { return report_; }

private:
  class BlockSink;
  struct Stamp;
  struct ByteShadow;

  void onAccess(const WarpAccess &a);
  void onBarrier(const BarrierEvent &b);
  void onFault(const Fault &f);
  void checkShared(const WarpAccess &a);
  void checkSharedLane(const WarpAccess &a, const InstInfo &info,
                       const Stamp &s, unsigned lane);
  SanitizerFinding &finding(SanitizerFinding::Check check, uint32_t instId,
                            uint32_t otherInstId, Hazard hazard,
                            bool withinWarp, bool &fresh);
  core::Dim3 threadAt(uint32_t linear) const;

  const DecodedKernel &kernel_;
  core::LaunchConfig launch_;
  SanitizerOptions options_;
  std::unique_ptr<BlockSink> sink_;
  SanitizerReport report_;
  // Finding per (check, instruction, other instruction, hazard, warp).
  std::map<std::tuple<int, uint32_t, uint32_t, int, bool>, size_t> index_;
  // Per block run.
  core::Dim3 block_;
  uint32_t generation_ = 0;
  std::vector<ByteShadow> shadow_;  // per shared byte
  std::vector<uint32_t> barriers_;  // per warp: __syncthreads passed
  std::vector<uint32_t> warpSyncs_; // per warp: __syncwarp (or barrier) passed
  std::vector<uint64_t> accesses_;  // per warp: shared accesses executed
};

} // namespace kcheck::sim
