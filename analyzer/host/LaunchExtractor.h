// Host launch extraction: finds every kernel launch `k<<<grid, block, shmem,
// stream>>>(args)` (and cudaLaunchKernel) reachable from `main`, in program
// order, and evaluates its geometry and arguments with a small abstract
// interpreter of the host code (HostEvaluator.h), without running it.
//
// Assumptions:
// - The AST comes from a device-only CUDA parse (`--cuda-device-only`): host
//   code is parsed and Sema'd (templates instantiated) but never generated,
//   and kernels are mangled the way the device-side IR names them.
// - CUDA runtime calls are recognised by name (cudaMalloc, cudaMemcpy, ...),
//   not by header, so kcheck's stubs or the real cuda_runtime.h both work;
//   every runtime call succeeds (cudaSuccess).
// - Anything that depends on the device (cudaDeviceGetAttribute,
//   cudaGetDeviceProperties), on input (argc/argv, scanf) or on host memory
//   contents is Unknown, with a `why` naming its source and file:line;
//   ExtractorOptions lets the caller answer device queries (`--arch`) and fix
//   argc.
// - Launches the evaluation does not reach (functions main never calls) are
//   not listed; their kernels appear in kernelsWithoutLaunch.
#pragma once

#include "core/ArchSpec.h"
#include "core/Launch.h"
#include "core/Occupancy.h"
#include "core/SourceLoc.h"
#include "core/TextureRules.h"
#include "core/TextureView.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang {
class ASTConsumer;
class ASTContext;
} // namespace clang

namespace kcheck::analyzer {

// The result of evaluating a host expression.
struct HostValue {
  enum class Kind {
    Unknown,
    Int,
    Float,
    DevicePtr,
    HostPtr
  } kind = Kind::Unknown;
  int64_t i = 0;       // Int (unsigned 64-bit values keep their bit pattern)
  double f = 0;        // Float
  int allocation = -1; // DevicePtr: HostAllocation::id
  int64_t offset = 0;  // DevicePtr: byte offset into the allocation
  std::string why;     // Unknown: what could not be evaluated, with file:line

  static HostValue unknown(std::string why) {
    HostValue v;
    v.why = std::move(why);
    return v;
  }
  static HostValue integer(int64_t i) {
    HostValue v;
    v.kind = Kind::Int;
    v.i = i;
    return v;
  }
  static HostValue floating(double f) {
    HostValue v;
    v.kind = Kind::Float;
    v.f = f;
    return v;
  }
  static HostValue devicePtr(int allocation, int64_t offset) {
    HostValue v;
    v.kind = Kind::DevicePtr;
    v.allocation = allocation;
    v.offset = offset;
    return v;
  }
  static HostValue hostPtr() {
    HostValue v;
    v.kind = Kind::HostPtr;
    return v;
  }
  // main's argv when the program's arguments are known: a host pointer
  // whose `allocation` says so, wherever it is passed.
  static constexpr int kProgramArguments = -2;
  static HostValue programArguments() {
    HostValue v = hostPtr();
    v.allocation = kProgramArguments;
    return v;
  }
  bool known() const { return kind != Kind::Unknown; }
  // Same value; `why` is an explanation, not part of the value.
  bool sameValue(const HostValue &o) const {
    return kind == o.kind && i == o.i && f == o.f &&
           allocation == o.allocation && offset == o.offset;
  }
};

struct HostAllocation {
  int id = -1;
  std::optional<uint64_t> bytes; // nullopt: the size could not be evaluated
  // The variable the pointer ended up in (the outermost frame it was returned
  // to, e.g. `in` for `float *in = dev_alloc_fill<float>(N)`), else the text of
  // the cudaMalloc target.
  std::string name;
  core::SourceLoc loc;          // where `name` was given
  bool hostInitialized = false; // cudaMemcpy'd from host data
  bool zeroed = false;          // cudaMemset to 0
  // The texels of a CUDA array (cudaMallocArray, cudaMalloc3DArray), laid
  // out as core/TextureRules.h says.
  std::optional<core::textures::ArrayShape> array;
  // A mipmapped array (cudaMallocMipmappedArray): its levels' allocations,
  // each an array; this allocation holds no bytes of its own.
  std::vector<int> mipmapLevels;
};

// A texture or surface object host code made (cudaCreateTextureObject,
// cudaCreateSurfaceObject): the view core/TextureRules.h makes of its
// descriptors. Its texels' device addresses are placeholders, which the
// driver replaces by the allocations' own: (allocation + 1) * 2^40 + offset.
struct HostTextureObject {
  static constexpr unsigned kAllocationShift = 40;
  static uint64_t placeholder(int allocation, uint64_t offset) {
    return (uint64_t(allocation) + 1) << kAllocationShift | offset;
  }
  static int allocationOf(uint64_t placeholder) {
    return int(placeholder >> kAllocationShift) - 1;
  }
  static uint64_t offsetOf(uint64_t placeholder) {
    return placeholder & ((uint64_t(1) << kAllocationShift) - 1);
  }
  // The handle the runtime gives: the n-th object made is n (sim::
  // TextureObjects numbers them so), whichever host path makes them.
  uint64_t handle = 0;
  bool surface = false;
  core::TextureView view;
  std::string where; // "file.cu:12"
};

// One scalar of a struct passed by value: where its bytes go.
struct ArgField {
  enum class Type { Int, Float, Double, Pointer } type = Type::Int;
  uint64_t offset = 0; // bytes from the start of the struct
  uint32_t bytes = 0;
  std::string path; // "p.sizes[2]"
  HostValue value;
};

struct LaunchArg {
  std::string text; // source text of the argument
  HostValue value;  // converted to the parameter's type by Sema already
  // A struct passed by value: its scalars (value is then Unknown).
  std::optional<std::vector<ArgField>> fields;
};

struct HostLaunch {
  std::string kernelName;  // qualified source name, e.g. "reduce_v5<256>"
  std::string mangledName; // device-side name of the llvm::Function
  std::string
      signature; // Nsight style: "void reduce_v5<256>(float *, float *)"
  core::SourceLoc loc;
  std::optional<core::Dim3> grid, block;      // nullopt: unknown
  std::optional<uint64_t> dynamicSharedBytes; // nullopt: unknown
  bool cooperative = false;                   // cudaLaunchCooperativeKernel
  // cudaLaunchKernelEx's cudaLaunchAttributeClusterDimension (nullopt:
  // none; the kernel's __cluster_dims__ then apply).
  std::optional<core::Dim3> cluster;
  // cudaFuncAttributeMaxDynamicSharedMemorySize as the program set it for
  // the kernel before the launch; nullopt: not set (or not known).
  std::optional<uint64_t> dynamicSharedOptIn;
  // cudaFuncAttributeNonPortableClusterSizeAllowed set for the kernel.
  bool nonPortableCluster = false;
  std::vector<LaunchArg> args;
  // Everything that could not be evaluated for this launch, and the conditions
  // it was found under, in words with file:line.
  std::vector<std::string> notes;
  // Its grid, block, shared size or an argument could not be evaluated, or
  // it lies under a condition that could not: running the host code
  // (--run-host) would give what static extraction lacks.
  bool unevaluated = false;
};

struct HostProgram {
  std::vector<HostAllocation> allocations;
  std::vector<HostLaunch> launches;              // in program order
  std::vector<HostTextureObject> textureObjects; // in the order made
  std::vector<std::string> notes; // program-level notes (budget, no main...)
  // Launches the GPU refuses before they are made (a graph's kernel node
  // refused when added), in words with file:line: what the program runs
  // instead of them is nothing.
  std::vector<std::string> refusedLaunches;
  // Where host code certainly stops (a failed assert, abort(), exit()) on
  // the path the evaluator followed with every condition known, e.g.
  // "`assert(false && \"Not implemented\")` fails at sgemm.cu:322"; empty
  // when it returns from main or when the stop depends on unknown values.
  std::string stoppedBy;
  // The first call of host code into CUB or Thrust that the evaluation did
  // not follow (a device-side parse, ExtractorOptions::followLibraries off),
  // "`cub::DeviceScan::ExclusiveScan` at main.cu:118"; empty if none. Their
  // launches are made on the host side of NV_IF_TARGET, which only a
  // host-side parse sees.
  std::string libraryCall;
  // Mangled names of kernels defined (and instantiated) but never launched.
  std::vector<std::string> kernelsWithoutLaunch;
};

struct ExtractorOptions {
  uint64_t maxSteps = 1000000;       // total evaluation steps: nothing hangs
  unsigned maxLoopIterations = 1000; // loops without launches run this far
  uint64_t maxLoopSteps = 20000;     // ... and spend at most this many steps
  unsigned maxLaunchLoopIterations = 10000; // loops with launches are unrolled
  unsigned maxCallDepth = 64;
  // main's argc, as if the program were run with argc - 1 arguments (argv
  // stays unknown); nullopt: unknown, so `if (argc > 1)` takes both sides.
  std::optional<int> argc;
  // The program's arguments (argv[1..]): when set, argc is their count + 1
  // and argv[k] is known to the string conversions (atoi, strtol, std::stoi,
  // atof, ...) that read it.
  std::optional<std::vector<std::string>> programArgs;
  // Answers a device query: a cudaDeviceAttr enumerator name
  // ("cudaDevAttrMultiProcessorCount") or a cudaDeviceProp field name
  // ("multiProcessorCount"). nullopt (or no function): Unknown.
  std::function<std::optional<int64_t>(const std::string &)> deviceQuery;
  // The GPU the occupancy API answers for, and what the compiler gave a
  // kernel (by mangled name; nullopt with `why` when unknown): without
  // both, occupancy queries and cudaFuncGetAttributes are Unknown.
  std::optional<core::ArchSpec> arch;
  // Enter the toolkit's C++ libraries (CUB, Thrust, libcu++: the CCCL
  // headers) as if they were the program's code, with CUB's device queries
  // (PtxVersion, SmVersion) answered for `arch`. Meant for a host-side parse.
  bool followLibraries = false;
  std::function<std::optional<core::KernelResources>(const std::string &,
                                                     std::string &why)>
      kernelResources;
};

// Extracts the launches of the translation unit in `ctx` into `out`.
void extractLaunches(clang::ASTContext &ctx, HostProgram &out,
                     const ExtractorOptions &options = {});

// An ASTConsumer that runs extractLaunches in HandleTranslationUnit, so it can
// share the device compile's parse (MultiplexConsumer).
std::unique_ptr<clang::ASTConsumer>
makeLaunchExtractor(HostProgram &out, ExtractorOptions options = {});

} // namespace kcheck::analyzer
