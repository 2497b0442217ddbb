// Where `const` device variables live, as nvcc places them.
#pragma once

#include <memory>

namespace clang {
class ASTConsumer;
} // namespace clang

namespace kcheck::analyzer {

// Clang makes every const-qualified namespace-scope variable with a constant
// initializer an implicit `__constant__` on the device side
// (SemaCUDA::MaybeAddConstantAttr), `__device__ const float t[] = {...}`
// included; nvcc keeps a variable its program declares `__device__` in global
// memory (`.global` in its PTX) and reads it with `ld.global.nc`, LDG on the
// H100, which Nsight Compute counts as global loads and sectors (HeCBench
// adamw's `static __device__ __const__ float _exp_qmap[16]`, read by a
// binary search: 12 LDG.E.CONSTANT in its SASS). This consumer, run on each
// declaration before code generation, drops the implicit `__constant__` of a
// variable declared `__device__`, so that Clang emits it in global memory
// too. Variables without `__device__` (host constants that Clang lets device
// code read) keep Clang's placement: nvcc rejects most of those.
std::unique_ptr<clang::ASTConsumer> makeDeviceConstInGlobalMemoryLikeNvcc();

} // namespace kcheck::analyzer
