// The IR pipeline that makes Clang's NVPTX IR execute the memory instructions
// nvcc's SASS executes (docs/research/parity-notes.md), plus what the
// interpreter needs: every device function inlined into its kernels.
#pragma once

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace llvm {
class CallBase;
class Module;
} // namespace llvm

namespace kcheck::analyzer {

// Registers the NVPTX target (info, target, MC) with LLVM; safe to call
// repeatedly.
void initializeNvptxTarget();

// Runs, on a module fresh from Clang (-O3 -Xclang -disable-llvm-passes):
//   mark defined non-kernel functions alwaysinline (nvcc inlines them; the
//     interpreter executes no calls)
//   -> sroa<modify-cfg>, infer-address-spaces; loops whose exit test reads
//   blockDim/gridDim inside the loop marked not to runtime-unroll
//   (IrPipelineUnroll.h)
//   -> record each kernel load's and store's line (LICM drops some)
//   -> default<O3>, with -unroll-threshold=800,
//   -simplifycfg-sink-common=false and -simplifycfg-hoist-common=false, and
//   NVVM's runtime unroll counts (IrPipelineUnroll.h)
//   -> give loads and stores left with no location their recorded line
//   -> every addrspace(3) global aligned to at least 16 bytes (as ptxas lays
//   them out)
//   -> constant memcpys of 1/2/4/8/16 bytes as one load + one store of that
//   width
//   -> phis of identical arithmetic folded (IrPipelinePhis.h)
//   -> if/else diamonds as NVVM leaves them: common loads hoisted, common
//   stores sunk (IrPipelineMemory.h)
//   -> infer-address-spaces, infer-alignment, load-store-vectorizer
//   -> the vectorizer's masked loads and stores as nvcc's plain ones
//   -> what ptxas and the NVPTX backend do to loops of at most 7 iterations
//   (IrPipelinePtxasUnroll.h), to shared loads and stores
//   (IrPipelineShared.h, IrPipelineSink.h), switches as compare trees
//   (IrPipelineSwitch.h)
// and debug locations moved to where nvcc's line table has them (before:
// multi-line copies on the RHS's line; after: line-0 loads and stores on the
// previous located instruction's line, loads of a copy forwarded to a
// by-value parameter on the line of their first use), with an NVPTX
// TargetMachine for `arch` (e.g. "sm_90"), so the cost models are NVPTX's.
void runNvccLikePipeline(llvm::Module &module, llvm::StringRef arch);

// The names of kcheck's own passes, as pipeline texts give them
// (analyzer/pipeline/Passes.def); runNvccLikePipeline's stages are texts of
// these and LLVM's names.
std::vector<std::string> kcheckPassNames();

// Runs the pipeline text `passes` (kcheck's names and LLVM's, as `opt
// -passes=`) on `module`, with an NVPTX TargetMachine for `arch`: one pass
// alone, or a stage. False, with `why`, when the text does not parse.
bool runPassPipeline(llvm::Module &module, llvm::StringRef arch,
                     llvm::StringRef passes, std::string &why);

// Calls from kernels to functions defined in the module; empty after the
// pipeline unless a device function is recursive (which the interpreter then
// reports).
std::vector<const llvm::CallBase *>
callsToDefinedFunctions(const llvm::Module &module);

} // namespace kcheck::analyzer
