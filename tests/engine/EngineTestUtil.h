// Helpers for engine tests: parse hand-written NVPTX-style IR, decode a
// kernel, record events. Assumes IR in the shape Clang 22 emits for sm_90.
#pragma once

#include "simulator/engine/BlockRunner.h"
#include "simulator/engine/DecodedKernel.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace kcheck::sim::test {

/// Module header shared by the tests: NVPTX data layout and triple.
extern const char *const kModuleHeader;

struct ParsedKernel {
  ParsedKernel() = default;
  ParsedKernel(ParsedKernel &&) = default;
  // Assignment would free the old context before the old module.
  ParsedKernel &operator=(ParsedKernel &&) = delete;

  std::unique_ptr<llvm::LLVMContext> context;
  std::unique_ptr<llvm::Module> module;
  std::unique_ptr<DecodedKernel> kernel; // null when decoding failed
  std::string error;                     // decode error text
};

/// Parses a whole module's text and decodes function `name`.
ParsedKernel parseModule(const std::string &text, const std::string &name);

/// Parses kModuleHeader + body + debug metadata and decodes `name`. In the
/// body, kernels attach `!dbg !3` (a subprogram in file "k.cu") and an
/// instruction's `!dbg !N` for N in 10..59 means line N of k.cu.
ParsedKernel parseKernel(const std::string &body, const std::string &name);

struct RecordedAccess {
  uint32_t instId;
  MemSpace space;
  AccessKind kind;
  uint32_t bytesPerLane;
  uint32_t activeMask;
  std::vector<uint64_t> addrs; // 32 entries
  uint32_t warp = 0;
};

class RecordingSink : public EventSink {
public:
  void onAccess(const WarpAccess &a) override;
  void onBranch(const BranchEvent &b) override { branches.push_back(b); }
  void onBarrier(const BarrierEvent &b) override { barriers.push_back(b); }
  std::vector<RecordedAccess> accesses;
  std::vector<BranchEvent> branches;
  std::vector<BarrierEvent> barriers;
  /// Accesses of one instruction (by opcode-independent id).
  std::vector<RecordedAccess> of(uint32_t instId) const;
};

/// Ids of the decoded instructions whose opcode is `opcode`, in order.
std::vector<uint32_t> instsWithOpcode(const DecodedKernel &k,
                                      const std::string &opcode);

/// A 1-D launch: `grid` blocks of `block` threads.
core::LaunchConfig launch1d(uint32_t grid, uint32_t block,
                            uint64_t dynamicShared = 0);

std::vector<float> readFloats(const DeviceMemory &mem, uint64_t addr, size_t n);
std::vector<int32_t> readInts(const DeviceMemory &mem, uint64_t addr, size_t n);

} // namespace kcheck::sim::test
