// Inline PTX as IR: every `asm` call whose template kcheck knows becomes the
// plain LLVM IR that executes the same instructions (loads and stores of the
// same width and space, atomics, NVVM shuffle/vote/barrier intrinsics,
// arithmetic), so the engine and the models see real kernels' memory
// accesses. Runs last in the IR pipeline: nvcc's optimizer does not look
// inside inline assembly either. A template it cannot lower stays a call,
// marked with the reason (core::kUnloweredAsmMetadata), and the engine
// reports it with its source line. Memory instructions that SASS does not run
// as a plain LD/ST (cp.async, ldmatrix) carry core::kPtxInstructionMetadata.
#pragma once

#include "core/PtxTags.h"

#include "llvm/ADT/StringRef.h"

#include <functional>
#include <vector>

namespace llvm {
class Module;
class CallBase;
class CallInst;
} // namespace llvm

namespace kcheck::analyzer {

// The calls of `module` to functions whose name `wanted` accepts, collected
// before a lowering rewrites them.
std::vector<llvm::CallInst *>
callsTo(llvm::Module &module,
        const std::function<bool(llvm::StringRef)> &wanted);

// Lowers every inline-assembly call of `module` that it can.
void lowerInlinePtx(llvm::Module &module);

// Rewrites the scoped NVVM atomics (atomicAdd_block, atomicCAS_system: the
// atomic.<op>.gen.<cta|sys> intrinsics) as atomicrmw/cmpxchg in that scope,
// and __ldu's ldu.global as an invariant global load: before the optimizer,
// so that the rest of the pipeline sees them as the unscoped forms.
void lowerNvvmMemoryIntrinsics(llvm::Module &module);

// Rewrites Clang's cp.async and mbarrier builtins' intrinsics
// (llvm.nvvm.cp.async.*, llvm.nvvm.mbarrier.*) as the inline PTX of the same
// statements lowers: after the optimizer, as with inline PTX, since NVVM's
// optimizer sees neither into them (merging one copy's load with another's
// would lose an LDGSTS).
void lowerNvvmAsyncCopyIntrinsics(llvm::Module &module);

// Rewrites llvm.nvvm.exit (PTX exit: the thread ends) in a kernel as a
// return; run after inlining, late, as the other NVVM rewrites.
void lowerNvvmControlIntrinsics(llvm::Module &module);

// Rewrites NVVM warp intrinsics the engine has no instruction for
// (redux.sync) as shuffles and integer operations.
void lowerNvvmWarpIntrinsics(llvm::Module &module);

// Rewrites the NVVM arithmetic intrinsics libdevice is built from (fma.rn,
// add.rn, mul.rn, d2i.hi/lo, lohi.i2d, f2i.rz, ...) as generic IR.
void lowerNvvmArithmeticIntrinsics(llvm::Module &module);

// Rewrites wmma m16n16k16 fragment loads, stores and products (mma.h) as
// the loads and stores ptxas makes of them and tensor-core math
// (WmmaLowering.cpp).
void lowerWmmaIntrinsics(llvm::Module &module);

} // namespace kcheck::analyzer
