// Internal: turns one llvm::Function into a DecodedKernel. Assumes the
// function is a kernel with all device functions inlined; everything it
// cannot execute becomes an llvm::Error naming the construct and its line.
#pragma once

#include "simulator/engine/Decode.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/DataLayout.h"

namespace llvm {
class BasicBlock;
class CallInst;
class Constant;
class Instruction;
class Type;
class Value;
} // namespace llvm

namespace kcheck::sim {

class Decoder {
public:
  /// An empty kernel for run() to fill (DecodedKernel's constructor is the
  /// decoder's alone).
  static std::unique_ptr<DecodedKernel> newKernel() {
    return std::unique_ptr<DecodedKernel>(new DecodedKernel());
  }
  Decoder(const llvm::Function &fn, DecodedKernel &out);
  llvm::Error run();

  // Shared with DecodeCalls.cpp.
  llvm::Error decodeCall(const llvm::CallInst &call);
  llvm::Error unsupported(const llvm::Instruction &inst,
                          const llvm::Twine &what) const;
  llvm::Expected<uint32_t> slotOf(const llvm::Value *value);
  llvm::Expected<unsigned> slotCount(llvm::Type *type,
                                     const llvm::Instruction &at) const;
  uint32_t emit(const bc::Inst &inst, const llvm::Instruction &at,
                std::string opcode);
  uint32_t resultSlot(const llvm::Instruction &inst) const;

private:
  struct ConstValue {
    uint64_t value = 0;
    int32_t symbol = -1;
  };

  llvm::Error layoutShared();
  llvm::Error assignSlots();
  llvm::Error decodeBlock(const llvm::BasicBlock &block);
  llvm::Error decodeInst(const llvm::Instruction &inst);
  llvm::Error decodeMemory(const llvm::Instruction &inst);
  llvm::Error emitMemoryAccess(const llvm::Instruction &inst, bc::Inst &in,
                               const llvm::Value *ptr, llvm::Type *valueType,
                               AccessKind kind, bool isVolatile, bool isAtomic);
  // One per instruction class of decodeInst; `in` carries the result slot
  // and element count.
  llvm::Error decodeBinary(const llvm::Instruction &inst, bc::Inst &in);
  llvm::Error decodeFNeg(const llvm::Instruction &inst, bc::Inst &in);
  llvm::Error decodeCompare(const llvm::Instruction &inst, bc::Inst &in);
  llvm::Error decodeSelect(const llvm::Instruction &inst, bc::Inst &in);
  llvm::Error decodeFreeze(const llvm::Instruction &inst, bc::Inst &in);
  llvm::Error decodeExtractElement(const llvm::Instruction &inst, bc::Inst &in);
  llvm::Error decodeInsertElement(const llvm::Instruction &inst, bc::Inst &in);
  llvm::Error decodeShuffleVector(const llvm::Instruction &inst, bc::Inst &in);
  llvm::Error decodeAggregateValue(const llvm::Instruction &inst, bc::Inst &in);
  llvm::Error decodeCast(const llvm::Instruction &inst);
  llvm::Error decodeGep(const llvm::Instruction &inst);
  llvm::Error decodeTerminator(const llvm::Instruction &inst);
  llvm::Expected<uint32_t> makeEdge(const llvm::BasicBlock &from,
                                    const llvm::BasicBlock &to,
                                    const llvm::Instruction &at);
  llvm::Expected<ConstValue> evalConstant(const llvm::Constant *c,
                                          const llvm::Instruction &at);
  llvm::Expected<int32_t> symbolFor(const llvm::GlobalVariable &gv,
                                    const llvm::Instruction &at);
  llvm::Error serialize(const llvm::Constant *c, uint8_t *out,
                        const llvm::Instruction &at);
  llvm::Error checkScalar(llvm::Type *type, const llvm::Instruction &at) const;
  // 16-bit floats: the IR pipeline widens f16/bf16 arithmetic to double;
  // what remains (intrinsics on half vectors, bfloat16 min/max) runs on
  // 16-bit registers (SmallFloat.h). Sets sub2 for bfloat16.
  void setFloatFormat(llvm::Type *type, bc::Inst &in) const;
  // Parts of decodeCall (DecodeCalls.cpp): `in` carries the call's result
  // slot and vector width; each emits the call's instruction.
  llvm::Error decodeNvvmCall(const llvm::CallInst &call, bc::Inst &in,
                             llvm::StringRef name);
  llvm::Error decodeShuffle(const llvm::CallInst &call, bc::Inst &in,
                            llvm::StringRef name);
  llvm::Error decodeVote(const llvm::CallInst &call, bc::Inst &in,
                         llvm::StringRef name);
  llvm::Error callOperandSlots(const llvm::CallInst &call, bc::Inst &in);
  llvm::Error memberMaskSlot(const llvm::Value *mask, bc::Inst &in);
  // flags: FloatFn's bc::kFn* modifiers.
  llvm::Error emitMath(const llvm::CallInst &call, bc::Inst &in, bool isFloat,
                       uint8_t kind, llvm::StringRef name, uint16_t flags = 0);
  llvm::Error decodeMemTransfer(const llvm::CallInst &call, bc::Inst &in,
                                unsigned intrinsicId);
  llvm::Error emitTrap(const llvm::CallInst &call, bc::Inst &in, TrapInfo trap);
  llvm::Error decodePrintf(const llvm::CallInst &call, bc::Inst &in);
  // DecodeDeviceRuntime.cpp: a call of cuda_device_runtime_api.h's.
  llvm::Error decodeDeviceRuntime(const llvm::CallInst &call, bc::Inst &in,
                                  llvm::StringRef name);
  void fillMemoryInfo(InstInfo &info, const llvm::Value *ptr) const;
  void nameSharedSpan(InstInfo &info, const llvm::Instruction &inst) const;

  const llvm::Function &fn_;
  DecodedKernel &k_;
  const llvm::DataLayout &dl_;
  const llvm::Instruction *current_ = nullptr; // for constant errors
  llvm::DenseMap<const llvm::Value *, uint32_t> slots_;
  llvm::DenseMap<const llvm::GlobalVariable *, uint64_t> sharedOffset_;
  llvm::DenseMap<const llvm::GlobalVariable *, int32_t> symbolIndex_;
  llvm::DenseMap<const llvm::Value *, int32_t> localIndex_; // alloca -> var
  llvm::DenseMap<const llvm::BasicBlock *, uint32_t> blockPc_;
  std::vector<std::pair<uint32_t, const llvm::BasicBlock *>> edgeTargets_;
  std::vector<std::pair<uint32_t, const llvm::BasicBlock *>> branchBlocks_;
  uint64_t dynamicSharedOffset_ = 0;
};

/// "sdata" for @_ZZ9reduce_v1PfS_E5sdata: the demangled name's last
/// `::` component.
std::string sourceNameOf(llvm::StringRef irName);

} // namespace kcheck::sim
