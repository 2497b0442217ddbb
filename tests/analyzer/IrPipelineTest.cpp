// The nvcc-like IR pipeline on constructs where LLVM 22 alone differs from
// nvcc (analyzer/pipeline/IrPipelineMemory.h, kernels/patterns/README.md).
#include "TestSupport.h"

#include "analyzer/pipeline/IrPipeline.h"
#include "analyzer/toolchain/CudaToolkit.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Transforms/Utils/Cloning.h"

#include <algorithm>
#include <optional>

#include <gtest/gtest.h>

namespace kcheck::analyzer {
namespace {

const llvm::Function &kernel(const llvm::Module &module, llvm::StringRef name) {
  for (const llvm::Function &function : module)
    if (!function.isDeclaration() && function.getName().contains(name))
      return function;
  ADD_FAILURE() << "no function " << name.str();
  return *module.begin();
}

struct Accesses {
  std::vector<const llvm::LoadInst *> loads;
  std::vector<const llvm::StoreInst *> stores;
  unsigned maskedCalls = 0;
};

Accesses accesses(const llvm::Function &function, unsigned addressSpace) {
  Accesses result;
  for (const llvm::Instruction &instruction : llvm::instructions(function)) {
    if (const auto *load = llvm::dyn_cast<llvm::LoadInst>(&instruction);
        load && load->getPointerAddressSpace() == addressSpace)
      result.loads.push_back(load);
    if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&instruction);
        store && store->getPointerAddressSpace() == addressSpace)
      result.stores.push_back(store);
    if (const auto *call = llvm::dyn_cast<llvm::IntrinsicInst>(&instruction);
        call && (call->getIntrinsicID() == llvm::Intrinsic::masked_load ||
                 call->getIntrinsicID() == llvm::Intrinsic::masked_store))
      ++result.maskedCalls;
  }
  return result;
}

// Bytes of each load from `addressSpace` in kernel `name`, in order.
std::vector<uint64_t> loadWidths(const llvm::Module &module,
                                 llvm::StringRef name, unsigned addressSpace) {
  std::vector<uint64_t> widths;
  for (const llvm::LoadInst *load :
       accesses(kernel(module, name), addressSpace).loads)
    widths.push_back(module.getDataLayout().getTypeStoreSize(load->getType()));
  return widths;
}

std::string kernelsPatterns(const std::string &name) {
  return std::string(KCHECK_SOURCE_DIR) + "/kernels/patterns/" + name;
}

// p[i].x += dt * p[i].w on a 16-byte aligned struct: one whole 16-byte load
// (nvcc's ld.global.v4.f32), not a masked load, and a scalar store of x.
// Each pass of the registry (Passes.def) runs alone, by its name, and leaves
// valid IR; the stages name only registered passes (a stage that did not
// parse would stop every compile).
TEST(IrPipeline, EveryRegisteredPassRunsAlone) {
  std::string path = testing::writeSource("registry.cu", R"(
__global__ void k(const float *in, float *out, int n) {
  __shared__ float tile[64];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * 64 + t];
  __syncthreads();
  float s = 0;
  for (int i = 0; i < n; ++i)
    s += tile[(t + i) % 64];
  if (t & 1)
    out[blockIdx.x * 64 + t] = s;
  else
    out[blockIdx.x * 64 + t] = -s;
}
)");
  CompiledModule compiled = compileDevice(path, {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  std::vector<std::string> names = kcheckPassNames();
  EXPECT_GT(names.size(), 30u);
  for (const std::string &name : names) {
    std::unique_ptr<llvm::Module> copy = llvm::CloneModule(*compiled.module);
    std::string why;
    // A function pass's name alone is a module pipeline too: the
    // PassBuilder wraps it in function(...) itself.
    ASSERT_TRUE(runPassPipeline(*copy, "sm_90", name, why))
        << name << ": " << why;
    std::string broken;
    llvm::raw_string_ostream out(broken);
    EXPECT_FALSE(llvm::verifyModule(*copy, &out)) << name << ": " << broken;
  }
  std::string why;
  std::unique_ptr<llvm::Module> copy = llvm::CloneModule(*compiled.module);
  EXPECT_FALSE(runPassPipeline(*copy, "sm_90", "kcheck-no-such-pass", why));
  EXPECT_NE(why.find("kcheck-no-such-pass"), std::string::npos) << why;
}

TEST(IrPipeline, GappedFieldLoadsBecomeLoadsOfTheUsedFields) {
  CompiledModule compiled =
      compileDevice(kernelsPatterns("aos_partial.cu"), {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  // No masked load is left, and the 16-byte load keeps only its used lanes:
  // two 4-byte loads, as the H100 measured for aos4_xw and aos4_xz (two LDG
  // per warp for nvcc's one ld.global.v4).
  for (const char *name : {"aos4_xw", "aos4_xz"}) {
    Accesses global = accesses(kernel(*compiled.module, name), 1);
    EXPECT_EQ(global.maskedCalls, 0u) << name;
    ASSERT_EQ(global.loads.size(), 2u) << name;
    for (const llvm::LoadInst *load : global.loads)
      EXPECT_FALSE(load->getType()->isVectorTy()) << name;
    for (const llvm::StoreInst *store : global.stores)
      EXPECT_FALSE(store->getValueOperand()->getType()->isVectorTy()) << name;
  }
  // A whole-struct copy back (`p[i] = q`) is stored whole, unchanged fields
  // included, as nvcc does: one 16-byte store, so every lane of the one
  // 16-byte load is used (H100: one LDG.128 and one STG.128 per warp).
  Accesses copy = accesses(kernel(*compiled.module, "aos4_copy"), 1);
  ASSERT_EQ(copy.loads.size(), 1u);
  EXPECT_TRUE(copy.loads[0]->getType()->isVectorTy());
  ASSERT_EQ(copy.stores.size(), 1u);
  EXPECT_TRUE(copy.stores[0]->getValueOperand()->getType()->isVectorTy());
}

// Hillis-Steele step `if (tid >= offset) out = in[tid] + in[tid - offset];
// else out = in[tid];`: nvcc hoists the common load and stores once (per
// step LDS; @P LDS; STS), whichever way LLVM computes the two addresses.
TEST(IrPipeline, DiamondLoadsHoistedAndStoresSunk) {
  CompiledModule compiled = compileDevice(kernelsPatterns("scan.cu"), {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  Accesses shared = accesses(kernel(*compiled.module, "scan_hillis_steele"), 3);
  // The initial store, one per step (8 steps), and the final load; per step
  // two loads.
  EXPECT_EQ(shared.stores.size(), 1u + 8u);
  EXPECT_EQ(shared.loads.size(), 2u * 8u + 1u);
  // The hoisted loads are on line 0 or credited to the barrier before them
  // (scan.cu lines 37 and 45), never to one arm's line.
  unsigned onBarrierLines = 0;
  for (const llvm::LoadInst *load : shared.loads)
    if (const llvm::DILocation *loc = load->getDebugLoc().get();
        loc && (loc->getLine() == 37 || loc->getLine() == 45))
      ++onBarrierLines;
  EXPECT_EQ(onBarrierLines, 8u);
}

// `if (i < n) sdata[tid] = g_in[i]; else sdata[tid] = 0;` stays two stores,
// as in nvcc's PTX (reduce_cg; parity-notes item 4).
TEST(IrPipeline, StoreOfZeroInElseArmIsNotMerged) {
  std::string path = testing::writeSource("zero_else.cu", R"(
__global__ void k(const int *g, int n, int *o) {
  __shared__ int s[256];
  int t = threadIdx.x; int i = blockIdx.x * 256 + t;
  if (i < n) s[t] = g[i]; else s[t] = 0;
  __syncthreads();
  o[i] = s[t ^ 1];
}
)");
  CompiledModule compiled = compileDevice(path, {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  EXPECT_EQ(accesses(kernel(*compiled.module, "k"), 3).stores.size(), 2u);
}

// `t = s[i]; s[i] = s[j]; s[j] += t;`: nvcc 13.0 reloads s[j] after the store
// to s[i] unless it proves i != j (its PTX for these kernels); LLVM's GVN
// alone forwards the first load of s[j] in both (MemoryDependence's
// store-of-the-same-value rule), and no temporary is left behind.
TEST(IrPipeline, ReloadAfterMayAliasStoreOfSameValueIsKept) {
  std::string path = testing::writeSource("reload.cu", R"(
__global__ void unknown_idx(float *out, int i, int j) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  s[tid] = out[tid];
  __syncthreads();
  if (tid == 0) { float t = s[i]; s[i] = s[j]; s[j] += t; }
  __syncthreads();
  out[tid] = s[tid];
}
__global__ void distinct_idx(float *out) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  s[tid] = out[tid];
  __syncthreads();
  if (tid < 64) {
    int a = tid, b = tid + 128;
    float t = s[a]; s[a] = s[b]; s[b] += t;
  }
  __syncthreads();
  out[tid] = s[tid];
}
__global__ void global_unknown(int *p, const int *q) {
  int i = q[threadIdx.x], j = q[threadIdx.x + 32];
  int t = p[i]; p[i] = p[j]; p[j] += t;
}
)");
  CompiledModule compiled = compileDevice(path, {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  // s[i], s[j], s[j] again, s[tid] at the end.
  EXPECT_EQ(accesses(kernel(*compiled.module, "unknown_idx"), 3).loads.size(),
            4u);
  // s[a] and s[b] differ: s[b] is not reloaded.
  EXPECT_EQ(accesses(kernel(*compiled.module, "distinct_idx"), 3).loads.size(),
            3u);
  // q[..] twice, p[i], p[j], p[j] again.
  EXPECT_EQ(
      accesses(kernel(*compiled.module, "global_unknown"), 1).loads.size(), 5u);
  for (const llvm::Function &function : *compiled.module)
    for (const llvm::Instruction &instruction : llvm::instructions(function))
      EXPECT_FALSE(llvm::isa<llvm::FreezeInst>(instruction))
          << function.getName().str();
}

// scan_blelloch_padded's down-sweep reloads temp[bi] in the steps with
// offset 16, 8, 4, 2, 1, where `ai + (ai >> 5)` and `bi + (bi >> 5)` may be
// equal, and not in those with offset 128, 64, 32 (H100: 65 LDS per block).
TEST(IrPipeline, PaddedBlellochReloadsOnlyWhereIndicesMayBeEqual) {
  CompiledModule compiled = compileDevice(kernelsPatterns("scan.cu"), {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  Accesses shared =
      accesses(kernel(*compiled.module, "scan_blelloch_padded"), 3);
  // Up-sweep 2 per step, down-sweep 2 per step plus 5 reloads, 2 at the
  // end: 8 steps each.
  EXPECT_EQ(shared.loads.size(), 2u * 8u + 2u * 8u + 5u + 2u);
}

std::string kernelsToolkit(const std::string &name) {
  return std::string(KCHECK_SOURCE_DIR) + "/kernels/toolkit/" + name;
}

// The byte offset of a shared load in the __shared__ variable named `name`
// (nullopt when it is another variable's or not at a constant offset).
std::optional<int64_t> offsetIn(const llvm::LoadInst &load,
                                llvm::StringRef name) {
  const llvm::DataLayout &layout = load.getModule()->getDataLayout();
  llvm::APInt offset(64, 0);
  const llvm::Value *base =
      load.getPointerOperand()->stripAndAccumulateConstantOffsets(
          layout, offset, /*AllowNonInbounds=*/true);
  if (!base->getName().contains(name))
    return std::nullopt;
  return offset.getSExtValue();
}

// (offset, bytes) of `function`'s shared loads from the variables named in
// `bases` (a name part -> the offset added to the load's), sorted.
std::vector<std::pair<int64_t, uint64_t>>
sharedLoadsIn(const llvm::Function &function,
              const std::vector<std::pair<std::string, int64_t>> &bases) {
  std::vector<std::pair<int64_t, uint64_t>> loads;
  for (const llvm::LoadInst *load : accesses(function, 3).loads) {
    uint64_t bytes =
        load->getModule()->getDataLayout().getTypeStoreSize(load->getType());
    for (const auto &[name, base] : bases)
      if (std::optional<int64_t> offset = offsetIn(*load, name))
        loads.push_back({base + *offset, bytes});
  }
  std::sort(loads.begin(), loads.end());
  return loads;
}

// kernels/toolkit/nvcc_parity.cu, measured on the H100 (4/4 launches exact).
TEST(IrPipeline, NvccParityWithPtxas) {
  CompiledModule compiled = compileDevice(kernelsToolkit("nvcc_parity.cu"), {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  // nvcc ignores ext_vector_type: the 4-byte "wide" type takes the scalar
  // path, four 4-byte loads, no 16-byte one.
  Accesses wide = accesses(kernel(*compiled.module, "ext_vector_width"), 1);
  ASSERT_EQ(wide.loads.size(), 4u);
  for (const llvm::LoadInst *load : wide.loads)
    EXPECT_FALSE(load->getType()->isVectorTy());
  // The segment is read once: the reads after the assembly shuffles are the
  // same loads (4 before, 0 after, as the H100's 4 LDS per warp).
  EXPECT_EQ(accesses(kernel(*compiled.module, "reload_after_asm_shuffle"), 3)
                .loads.size(),
            4u);
  // `counter.bits |= ...` loads the field in the loop's conditional block,
  // where it stores it, not once before the loop.
  unsigned bitsLoadsBesideItsStore = 0;
  for (const llvm::LoadInst *load :
       accesses(kernel(*compiled.module, "conditional_update"), 3).loads)
    if (offsetIn(*load, "counter") == 12)
      for (const llvm::Instruction &other : *load->getParent())
        if (const auto *store = llvm::dyn_cast<llvm::StoreInst>(&other);
            store && store->getPointerOperand() == load->getPointerOperand())
          ++bitsLoadsBesideItsStore;
  EXPECT_EQ(bitsLoadsBesideItsStore, 1u);
  // Words 1-3 of `aggregates` are one 16-byte load, words 5 and 6 two
  // loads; k and len before the branch and bits in it one 16-byte load.
  std::vector<std::pair<int64_t, uint64_t>> expected = {
      {0, 16}, {20, 4}, {24, 4}, {100, 16}};
  EXPECT_EQ(sharedLoadsIn(kernel(*compiled.module, "shared_chunks"),
                          {{"aggregates", 0}, {"counter", 100}}),
            expected);
}

// Two 24-byte shared arrays sit at window offsets 0 and 24, as ptxas packs
// them (core/SharedLayout.h; CUB TempStorage pairs, HeCBench channelSum's
// 3 LDS where a 16-byte-aligned layout gives 4): words 2-4 of the first are
// an 8-byte and a 4-byte load, of the second (window 32..44) one 16-byte
// load.
TEST(IrPipeline, SharedChunksFollowPtxasPackedLayout) {
  std::string path = testing::writeSource("packed_layout.cu", R"(
__global__ void packed_layout(int *out, int v) {
  __shared__ int first[6];
  __shared__ int second[6];
  if (threadIdx.x < 6) {
    first[threadIdx.x] = v;
    second[threadIdx.x] = v + 1;
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = first[2] + first[3] + first[4] + second[2] + second[3] +
             second[4];
}
)");
  CompiledModule compiled = compileDevice(path, {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  // (window offset, bytes)
  std::vector<std::pair<int64_t, uint64_t>> expected = {
      {8, 8}, {16, 4}, {32, 16}};
  EXPECT_EQ(sharedLoadsIn(kernel(*compiled.module, "packed_layout"),
                          {{"first", 0}, {"second", 24}}),
            expected);
}

// nvcc's NVVM declares every extern __shared__ array `.align 16` (the
// dynamic window starts at a multiple of 16, core/SharedLayout.h) and
// vectorizes on that: HeCBench fma's `b[4 * v + i]`, i = 0..3, over an
// `extern __shared__ char[]` cast to float* is one ld.shared.v4.f32 in its
// PTX. At the char array's own alignment nothing would merge.
TEST(IrPipeline, ExternSharedIsAlignedAsNvvmDeclaresIt) {
  std::string path = testing::writeSource("extern_align.cu", R"(
__global__ void extern_align(float *out) {
  extern __shared__ char raw[];
  float *b = reinterpret_cast<float *>(raw);
  b[threadIdx.x] = threadIdx.x;
  __syncthreads();
  float sum = 0;
  for (int i = 0; i < 4; ++i)
    sum += b[4 * threadIdx.x + i];
  out[threadIdx.x] = sum;
}
)");
  CompiledModule compiled = compileDevice(path, {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  Accesses shared = accesses(kernel(*compiled.module, "extern_align"), 3);
  ASSERT_EQ(shared.loads.size(), 1u);
  EXPECT_EQ(compiled.module->getDataLayout().getTypeStoreSize(
                shared.loads[0]->getType()),
            16u);
}

// ptxas merges no byte access to shared memory and no pair of 16-bit loads
// of integers, but does pair 16-bit stores (HeCBench scan on the H100: for
// `char`, two STS.U8 and two LDS.U8; for `short`, one STS and two LDS.U16).
TEST(IrPipeline, SubwordSharedAccessesStayApartAsPtxasKeepsThem) {
  std::string path = testing::writeSource("subword.cu", R"(
template <typename T>
__global__ void subword(const T *in, T *out) {
  __shared__ T temp[256];
  int t = threadIdx.x;
  temp[2 * t] = in[2 * t];
  temp[2 * t + 1] = in[2 * t + 1];
  __syncthreads();
  out[2 * t] = temp[2 * t];
  out[2 * t + 1] = temp[2 * t + 1];
}
template __global__ void subword<char>(const char *, char *);
template __global__ void subword<short>(const short *, short *);
)");
  CompiledModule compiled = compileDevice(path, {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  const llvm::DataLayout &layout = compiled.module->getDataLayout();
  auto widths = [&](const char *name) {
    Accesses shared = accesses(kernel(*compiled.module, name), 3);
    std::vector<uint64_t> loads, stores;
    for (const llvm::LoadInst *load : shared.loads)
      loads.push_back(layout.getTypeStoreSize(load->getType()));
    for (const llvm::StoreInst *store : shared.stores)
      stores.push_back(
          layout.getTypeStoreSize(store->getValueOperand()->getType()));
    return std::make_pair(loads, stores);
  };
  using Widths = std::pair<std::vector<uint64_t>, std::vector<uint64_t>>;
  EXPECT_EQ(widths("subwordIc"), (Widths{{1, 1}, {1, 1}}));
  EXPECT_EQ(widths("subwordIs"), (Widths{{2, 2}, {4}}));
}

// `float4 p = in[i];` is loaded whole, as nvcc does (ld.global.v4.f32), and
// ptxas keeps the 16-byte load when three or four of its words are used
// (HeCBench histogram's float4 pixel: one LDG.128 for x, y, z), and loads
// the used words when at most two are (aos_partial.cu's aos4_xw).
TEST(IrPipeline, WholeStructCopiesAreLoadedWholeAndNarrowedLikePtxas) {
  std::string path = testing::writeSource("float4_fields.cu", R"(
#define FIELDS(name, expr)                                                \
  __global__ void name(const float4 *in, float *out) {                    \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                        \
    float4 p = in[i];                                                     \
    out[i] = expr;                                                        \
  }
FIELDS(xyzFields, p.x + p.y * p.z)
FIELDS(yzwFields, p.y + p.z * p.w)
FIELDS(xwFields, p.x + p.w)
FIELDS(xyFields, p.x + p.y)
)");
  CompiledModule compiled = compileDevice(path, {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  auto widths = [&](const char *name) {
    return loadWidths(*compiled.module, name, 1);
  };
  EXPECT_EQ(widths("xyzFields"), (std::vector<uint64_t>{16}));
  EXPECT_EQ(widths("yzwFields"), (std::vector<uint64_t>{16}));
  EXPECT_EQ(widths("xwFields"), (std::vector<uint64_t>{4, 4}));
  EXPECT_EQ(widths("xyFields"), (std::vector<uint64_t>{8}));
}

// Loads on either side of an inline asm without side effects merge as in
// nvcc (HeCBench quantAQLM: four 4-byte shared loads around `__hfma2`'s asm
// are one LDS.128); an asm that may touch memory keeps them apart.
TEST(IrPipeline, PureInlineAsmDoesNotStopTheVectorizer) {
  std::string path = testing::writeSource("asm_between_loads.cu", R"(
__device__ int pure(int a, int b) {
  int r;
  asm("add.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  return r;
}
__device__ int clobbers(int a, int b) {
  int r;
  asm("add.s32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b) : "memory");
  return r;
}
template <int (*F)(int, int)>
__global__ void around(const int4 *in, int *out) {
  __shared__ int4 tile[64];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  const int *w = reinterpret_cast<const int *>(&tile[threadIdx.x % 32]);
  int acc = 0;
#pragma unroll
  for (int j = 0; j < 4; ++j)
    acc = F(w[j], acc);
  out[threadIdx.x] = acc;
}
template __global__ void around<pure>(const int4 *, int *);
template __global__ void around<clobbers>(const int4 *, int *);
)");
  CompiledModule compiled = compileDevice(path, {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  auto widths = [&](const char *name) {
    return loadWidths(*compiled.module, name, 3);
  };
  EXPECT_EQ(widths("aroundIXadL_Z4pure"), (std::vector<uint64_t>{16}));
  EXPECT_EQ(widths("aroundIXadL_Z8clobbers"),
            (std::vector<uint64_t>{4, 4, 4, 4}));
}

// A constant-length memset is stores as wide as the alignment allows, as
// NVPTX expands it (fengChenHPC perthreadmalloc on the H200: 123 ST.E.U8
// for memset(malloc(123), 0, 123)).
TEST(IrPipeline, SmallMemsetsAreStoresAsNvptxExpandsThem) {
  std::string path = testing::writeSource("memsets.cu", R"(
__global__ void heap(int n) {
  char *p = (char *)malloc(123);
  memset(p, 0, 123);
  free(p);
}
__global__ void tile(int *out, int v) {
  __shared__ __align__(16) char t[72];
  memset(t, v, 72);
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x % 72];
}
)");
  // The toolkit's headers: the bundled ones define memset as a loop.
  CompileOptions options;
  std::string why;
  options.toolkit = findCudaToolkit("", why);
  if (!options.toolkit)
    GTEST_SKIP() << "no CUDA toolkit: " << why;
  CompiledModule compiled = compileDevice(path, options);
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  auto storeWidths = [&](const char *name, unsigned space) {
    std::vector<uint64_t> widths;
    for (const llvm::StoreInst *store :
         accesses(kernel(*compiled.module, name), space).stores)
      widths.push_back(compiled.module->getDataLayout().getTypeStoreSize(
          store->getValueOperand()->getType()));
    return widths;
  };
  EXPECT_EQ(storeWidths("_Z4heapi", 0), std::vector<uint64_t>(123, 1));
  EXPECT_EQ(storeWidths("_Z4tilePii", 3),
            (std::vector<uint64_t>{16, 16, 16, 16, 8}));
}

} // namespace
} // namespace kcheck::analyzer
