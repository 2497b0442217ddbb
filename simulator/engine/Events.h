// What the engine reports while it runs a block: one event per warp-level
// memory instruction and per conditional branch. Assumes a 32-lane warp; the
// engine holds no hardware model, so bank/sector counting happens in the sink.
#pragma once

#include <cstdint>

namespace kcheck::sim {

inline constexpr unsigned kWarpSize = 32;
inline constexpr uint32_t kFullMask = 0xffffffffu;

enum class MemSpace : uint8_t { Global, Shared, Local, Constant, Param };
enum class AccessKind : uint8_t { Load, Store, Atomic };

const char *toString(MemSpace space);
const char *toString(AccessKind kind);

/// One warp executing one memory instruction.
struct WarpAccess {
  uint32_t instId; // index into DecodedKernel::insts()
  MemSpace space;  // resolved space (generic pointers are resolved)
  AccessKind kind;
  uint32_t bytesPerLane; // 1, 2, 4, 8, 16 (a <4 x float> load is 16)
  uint32_t activeMask;   // lanes that executed it
  // 32 entries; only active lanes are meaningful. Shared: byte offset in the
  // block's shared window; Global/Constant: device virtual address; Local:
  // byte offset in the lane's own local frame.
  const uint64_t *addrs;
  uint32_t warp = 0; // warp index within the block
};

struct BranchEvent {
  uint32_t instId;
  uint32_t activeMask;
  uint32_t takenMask; // lanes that go to successor 0
  uint32_t warp = 0;  // warp index within the block
};

/// One warp arriving at a __syncthreads() (for barrier-divergence reports:
/// live lanes that did not arrive with the warp took another path), or, with
/// `warpLevel`, executing a __syncwarp() (for racecheck; not a block barrier).
struct BarrierEvent {
  uint32_t instId;
  uint32_t warp;       // warp index within the block
  uint32_t activeMask; // lanes that arrived
  uint32_t liveMask;   // lanes of the warp not exited (the others missed it)
  bool warpLevel = false;
};

struct Fault; // BlockRunner.h

class EventSink {
public:
  virtual ~EventSink();
  virtual void onAccess(const WarpAccess &access) = 0;
  virtual void onBranch(const BranchEvent &) {}
  virtual void onBarrier(const BarrierEvent &) {}
  /// The block stopped on a memory error (after which no event comes).
  virtual void onFault(const Fault &) {}
  // Only called when RunnerOptions::instructionEvents is set (it costs a
  // virtual call per executed warp instruction).
  virtual void onInstruction(uint32_t /*instId*/, uint32_t /*activeMask*/) {}
  // Only called for the pcs listed in RunnerOptions::probePcs, just before a
  // warp executes one: `registers` is the warp's register file, slot-major
  // (slot s of lane l at registers[s * 32 + l]), for drivers that observe the
  // values an instruction is about to use.
  virtual void onProbe(uint32_t /*pc*/, uint32_t /*activeMask*/,
                       const uint64_t * /*registers*/) {}
};

} // namespace kcheck::sim
