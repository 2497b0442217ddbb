// A kernel's LLVM IR (NVPTX, everything inlined) decoded once into the
// engine's compact instruction array. Assumes the IR is what Clang 22 emits
// for sm_XX: `ptx_kernel` functions, `addrspace(3)` shared globals, no calls
// to other defined functions. Immutable once decoded (simulator/engine/
// Decode.h: the engine's LLVM side), so one instance can be shared by
// BlockRunners on several threads; it holds no LLVM type.
#pragma once

#include "core/Launch.h"
#include "core/SourceLoc.h"
#include "simulator/engine/Bytecode.h"
#include "simulator/engine/Events.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kcheck::sim {

/// Static facts about one decoded instruction, for reports.
struct InstInfo {
  std::string opcode; // "load", "store", "br", "call llvm.nvvm.shfl.sync..."
  // Innermost DILocation first, then each inlinedAt, outward.
  std::vector<core::SourceLoc> inlineChain;
  bool isMemory = false;
  MemSpace space = MemSpace::Global; // IR-declared; generic resolves at run
  bool isGenericAddress = false;     // space is resolved per access
  AccessKind kind = AccessKind::Load;
  uint32_t bytesPerLane = 0;
  std::string objectName; // source name of the underlying object, or ""
  // The underlying object when it is known, so the access must stay inside
  // it: an index into DecodedKernel::localVariables() (an alloca) or
  // sharedVariables() (a __shared__ variable), else -1.
  int32_t localVariable = -1, sharedVariable = -1;
  bool isVolatile = false; // a volatile load or store (for racecheck)
  // An atomic read-modify-write, or an atomic load or store (`load atomic`:
  // the read of a compare-and-swap loop,
  // analyzer/pipeline/IrPipelineAtomics.h): for racecheck an atomic access.
  bool isAtomic = false;
  // For a load wider than what the program reads (core::kReadBytesMetadata):
  // bit k set when byte k of each lane's access is read; 0 when all are.
  uint32_t readBytesMask = 0;
  // The inline-PTX instruction the access was lowered from, when SASS runs
  // it as something other than a plain LD/ST (cp.async, ldmatrix); "" for
  // ordinary accesses (core/PtxTags.h).
  std::string ptxInstruction;
  bool isConditionalBranch = false;

  /// "file:line" of the innermost location, or "<unknown location>".
  std::string where() const;
};

/// A shared-memory variable's place in the block's shared window.
struct SharedVariable {
  std::string irName;
  std::string sourceName;
  uint64_t offset;
  uint64_t bytes; // 0 for the dynamic (extern) one
  bool dynamic;
};

/// A local (per-thread) array or variable: an alloca's place in the frame.
struct LocalVariable {
  std::string name;
  uint64_t offset;
  uint64_t bytes;
};

/// A trap's report: a failed assert's expression, with the place the assert
/// names (file and line of its macro, as the GPU prints them), or a plain
/// __trap() (no place: the instruction's own).
struct TrapInfo {
  std::string message;
  core::SourceLoc at;
  // A failed assert's expression and function (__assertfail's arguments),
  // for the line the GPU prints; empty for a plain __trap().
  std::string expression, function;
};

class DecodedKernel {
public:
  const std::string &name() const { return name_; }
  const std::vector<InstInfo> &insts() const { return infos_; }
  /// Static shared bytes, with the dynamic part starting right after them.
  uint64_t staticSharedBytes() const { return staticShared_; }
  const std::vector<SharedVariable> &sharedVariables() const {
    return sharedVars_;
  }
  unsigned numArgs() const { return unsigned(args_.size()); }
  /// Bytes of local memory (allocas) per thread.
  uint64_t localFrameBytes() const { return localFrame_; }
  const std::vector<LocalVariable> &localVariables() const {
    return localVars_;
  }

  // For the runner.
  const std::vector<bc::Inst> &code() const { return code_; }
  uint32_t numSlots() const { return numSlots_; }
  uint32_t entryPc() const { return 0; }
  const std::vector<bc::ArgSlot> &argSlots() const { return args_; }
  const std::vector<bc::ConstSlot> &constSlots() const { return consts_; }
  const std::vector<bc::DeviceSymbol> &deviceSymbols() const {
    return symbols_;
  }
  const std::vector<bc::Edge> &edges() const { return edges_; }
  const std::vector<bc::PhiCopy> &phiCopies() const { return phiCopies_; }
  const std::vector<bc::SwitchCase> &switchCases() const { return cases_; }
  const std::vector<bc::GepTerm> &gepTerms() const { return gepTerms_; }
  const std::vector<int32_t> &shuffleMasks() const { return shuffleMasks_; }
  const std::vector<bc::RepackInfo> &repacks() const { return repacks_; }
  const std::vector<bc::PrintfFormat> &printfFormats() const {
    return formats_;
  }
  /// The kernel's __cluster_dims__ (nvvm.cluster_dim), if it has them.
  const std::optional<core::Dim3> &clusterDims() const { return cluster_; }
  /// Whether it uses thread-block clusters (bc::Op::Cluster: the cluster
  /// barrier, mapa, getctarank): its blocks run cluster by cluster, each
  /// cluster's alongside each other.
  bool usesClusters() const;
  /// Whether it reads or writes texture or surface objects (bc::Op::Texture).
  bool usesTextures() const;
  /// Whether the kernel calls malloc or free (bc::Op::DeviceHeap).
  bool usesDeviceHeap() const;
  /// Whether it calls the device runtime (bc::Op::DeviceRuntime): launches
  /// kernels, makes streams, allocates.
  bool usesDeviceRuntime() const;
  /// The kernels its device-runtime calls name (mangled), and those calls'
  /// operand slots (bc::Op::DeviceRuntime).
  const std::vector<std::string> &deviceKernels() const {
    return deviceKernels_;
  }
  const std::vector<uint32_t> &callOperands() const { return callOperands_; }
  /// Where each parameter lies in a launch's parameter buffer, as nvcc lays
  /// it out (a device-side launch's arguments are read from there).
  struct ParameterPlace {
    uint64_t offset = 0, bytes = 0;
  };
  const std::vector<ParameterPlace> &parameterPlaces() const {
    return parameterPlaces_;
  }
  /// What each Trap reports (bc::Inst::aux).
  const std::vector<TrapInfo> &traps() const { return traps_; }
  /// Reconvergence pc of the block holding conditional branch `pc`
  /// (kExitPc when its immediate post-dominator is the virtual exit).
  uint32_t reconvergencePc(uint32_t pc) const { return reconv_[pc]; }
  uint32_t maxPhiCopies() const { return maxPhiCopies_; }
  unsigned pointerBits(unsigned addrSpace) const;

  static constexpr uint32_t kExitPc = 0xffffffffu;

private:
  friend class Decoder;
  DecodedKernel() = default;

  std::string name_;
  std::optional<core::Dim3> cluster_;
  std::vector<InstInfo> infos_;
  std::vector<bc::Inst> code_;
  std::vector<uint32_t> reconv_; // per pc; only meaningful for branches
  uint32_t numSlots_ = 1;        // slot 0: constant zero, never tainted
  std::vector<bc::ArgSlot> args_;
  std::vector<bc::ConstSlot> consts_;
  std::vector<bc::DeviceSymbol> symbols_;
  std::vector<bc::Edge> edges_;
  std::vector<bc::PhiCopy> phiCopies_;
  std::vector<bc::SwitchCase> cases_;
  std::vector<bc::GepTerm> gepTerms_;
  std::vector<int32_t> shuffleMasks_;
  std::vector<bc::RepackInfo> repacks_;
  std::vector<bc::PrintfFormat> formats_;
  std::vector<std::string> deviceKernels_;
  std::vector<uint32_t> callOperands_;
  std::vector<ParameterPlace> parameterPlaces_;
  std::vector<TrapInfo> traps_;
  std::vector<SharedVariable> sharedVars_;
  std::vector<LocalVariable> localVars_;
  uint64_t staticShared_ = 0;
  uint64_t localFrame_ = 0;
  uint32_t maxPhiCopies_ = 0;
  unsigned sharedPtrBits_ = 64, localPtrBits_ = 64, genericPtrBits_ = 64;
};

} // namespace kcheck::sim
