#include "TestSupport.h"

#include "core/SourcePath.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

#include <gtest/gtest.h>

namespace kcheck::analyzer {
namespace {

using testing::corpusDir;
using testing::writeSource;

const SubscriptFact *factWithText(const std::vector<SubscriptFact> &facts,
                                  const std::string &function,
                                  const std::string &text) {
  for (const SubscriptFact &fact : facts)
    if (fact.function == function && fact.fullText == text)
      return &fact;
  return nullptr;
}

class SlidesFacts : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    compiled = new CompiledModule(
        compileDevice((corpusDir() / "seed" / "slides.cu").string(), {}));
  }
  static void TearDownTestSuite() {
    delete compiled;
    compiled = nullptr;
  }
  static CompiledModule *compiled;
};
CompiledModule *SlidesFacts::compiled = nullptr;

TEST_F(SlidesFacts, TwoDimensionalSharedSubscriptIsOneFact) {
  ASSERT_TRUE(compiled->ok) << compiled->diagnostics;
  const SubscriptFact *fact =
      factWithText(compiled->subscripts, "MatMulTiled", "Mds[ty][k]");
  ASSERT_NE(fact, nullptr);
  EXPECT_EQ(fact->base, "Mds");
  EXPECT_EQ(fact->indices, (std::vector<std::string>{"ty", "k"}));
  EXPECT_EQ(fact->indexText, "ty][k");
  EXPECT_TRUE(fact->sharedMemory);
  EXPECT_EQ(fact->elementType, "float");
  EXPECT_EQ(fact->dims, (std::vector<std::string>{"16", "16"}));
  EXPECT_EQ(fact->indexVariables, (std::vector<std::string>{"ty", "k"}));
  EXPECT_EQ(fact->loc.line, 35u);
  EXPECT_TRUE(llvm::StringRef(fact->loc.file).ends_with("slides.cu"));
  // The inner `Mds[ty]` is part of this fact, not a fact of its own.
  EXPECT_EQ(factWithText(compiled->subscripts, "MatMulTiled", "Mds[ty]"),
            nullptr);
}

TEST_F(SlidesFacts, BuiltinIndexVariablesKeepTheirMember) {
  const SubscriptFact *fact = factWithText(compiled->subscripts, "ColumnRead33",
                                           "tile[threadIdx.x][threadIdx.y]");
  ASSERT_NE(fact, nullptr);
  EXPECT_EQ(fact->dims, (std::vector<std::string>{"32", "33"}));
  EXPECT_EQ(fact->indexVariables,
            (std::vector<std::string>{"threadIdx.x", "threadIdx.y"}));
}

TEST_F(SlidesFacts, GlobalPointerSubscriptIsNotShared) {
  const SubscriptFact *fact = factWithText(
      compiled->subscripts, "PictureKernel", "d_Pin[Row * n + Col]");
  ASSERT_NE(fact, nullptr);
  EXPECT_FALSE(fact->sharedMemory);
  EXPECT_TRUE(fact->dims.empty());
  EXPECT_EQ(fact->indexText, "Row * n + Col");
  EXPECT_EQ(fact->indexVariables,
            (std::vector<std::string>{"Row", "n", "Col"}));
}

// Every shared or global access the simulator sees in slides.cu maps back to
// the subscript it comes from, through the load's or store's DILocation.
TEST_F(SlidesFacts, EveryMemoryInstructionFindsItsSubscript) {
  ASSERT_TRUE(compiled->ok);
  int mapped = 0;
  for (const llvm::Function &function : *compiled->module) {
    for (const llvm::Instruction &instruction : llvm::instructions(function)) {
      if (!llvm::isa<llvm::LoadInst, llvm::StoreInst>(instruction))
        continue;
      const llvm::DILocation *where = instruction.getDebugLoc().get();
      ASSERT_NE(where, nullptr);
      // The file as the engine names it: Clang's debug info strips the
      // prefix it shares with the working directory (core/SourcePath.h).
      const SubscriptFact *fact =
          findSubscript(compiled->subscripts,
                        {core::debugInfoPath(where->getDirectory().str(),
                                             where->getFilename().str()),
                         where->getLine(), where->getColumn()});
      ASSERT_NE(fact, nullptr) << function.getName().str() << " line "
                               << where->getLine() << ":" << where->getColumn();
      ++mapped;
    }
  }
  EXPECT_GT(mapped, 60);
}

// Clang's DILocation columns: a load is at the subscript's base, a plain store
// at the
// `=`, both the load and the store of `a[i] += ...` at the `+=`.
TEST(AstFacts, FindSubscriptMatchesLoadAndStoreColumns) {
  std::string path =
      writeSource("columns.cu", R"(__global__ void k(float *out) {
  __shared__ float buf[64];
  int t = threadIdx.x;
  buf[t] = out[t];
  buf[t] += buf[t + 1];
  buf[t]++;
  out[t] = buf[2 * t];
}
)");
  CompiledModule compiled = compileDevice(path, {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  auto lookup = [&](unsigned line, unsigned col) -> std::string {
    const SubscriptFact *fact =
        findSubscript(compiled.subscripts, {path, line, col});
    return fact ? fact->fullText : "<none>";
  };
  EXPECT_EQ(lookup(4, 3), "buf[t]");  // the subscript's own column
  EXPECT_EQ(lookup(4, 10), "buf[t]"); // the store, at '='
  EXPECT_EQ(lookup(4, 12), "out[t]"); // the load
  EXPECT_EQ(lookup(5, 10), "buf[t]"); // compound: load and store at '+='
  EXPECT_EQ(lookup(5, 13), "buf[t + 1]");
  EXPECT_EQ(lookup(5, 17), "buf[t + 1]"); // inside the range
  EXPECT_EQ(lookup(6, 9), "buf[t]");      // '++'
  EXPECT_EQ(lookup(7, 12), "buf[2 * t]");
  EXPECT_EQ(lookup(3, 3), "<none>");
  // The file is compared by name; an empty one is ignored.
  EXPECT_NE(findSubscript(compiled.subscripts, {"", 4, 12}), nullptr);
  EXPECT_EQ(findSubscript(compiled.subscripts, {"other.cu", 4, 12}), nullptr);

  // And every load and store of the kernel lands on one of those columns.
  for (const llvm::Function &function : *compiled.module)
    for (const llvm::Instruction &instruction : llvm::instructions(function))
      if (llvm::isa<llvm::LoadInst, llvm::StoreInst>(instruction)) {
        const llvm::DILocation *where = instruction.getDebugLoc().get();
        ASSERT_NE(where, nullptr);
        EXPECT_NE(lookup(where->getLine(), where->getColumn()), "<none>")
            << where->getLine() << ":" << where->getColumn();
      }
}

TEST(AstFacts, ReinterpretedAndExternSharedSubscripts) {
  std::string path = writeSource("reinterpret.cu", R"(
#define FETCH_FLOAT4(p) (reinterpret_cast<float4 *>(&(p))[0])
__global__ void k(float *in, float *cache) {
  extern __shared__ float dyn[];
  __shared__ float smem[8][32];
  int t = threadIdx.x;
  FETCH_FLOAT4(smem[t / 8][t % 8 * 4]) = FETCH_FLOAT4(in[4 * t]);
  dyn[t] = cache[t];
}
)");
  CompiledModule compiled = compileDevice(path, {});
  ASSERT_TRUE(compiled.ok) << compiled.diagnostics;
  const SubscriptFact *inner =
      factWithText(compiled.subscripts, "k", "smem[t / 8][t % 8 * 4]");
  ASSERT_NE(inner, nullptr);
  EXPECT_TRUE(inner->sharedMemory);
  const SubscriptFact *dyn = factWithText(compiled.subscripts, "k", "dyn[t]");
  ASSERT_NE(dyn, nullptr);
  EXPECT_TRUE(dyn->sharedMemory);
  EXPECT_EQ(dyn->dims, (std::vector<std::string>{""}));
  const SubscriptFact *cache =
      factWithText(compiled.subscripts, "k", "cache[t]");
  ASSERT_NE(cache, nullptr);
  EXPECT_FALSE(cache->sharedMemory);
  EXPECT_EQ(cache->elementType, "float");
  // The reinterpreting [0] of the macro is described by the array it reaches
  // into.
  bool sawReinterpretedShared = false;
  for (const SubscriptFact &fact : compiled.subscripts)
    if (fact.indexText == "0" && fact.sharedMemory &&
        fact.elementType == "float4")
      sawReinterpretedShared = true;
  EXPECT_TRUE(sawReinterpretedShared);
  // The 16-byte store of the float4 assignment is located at its '='.
  const SubscriptFact *store =
      findSubscript(compiled.subscripts, {path, 7, 40});
  ASSERT_NE(store, nullptr);
  EXPECT_TRUE(store->sharedMemory);
}

} // namespace
} // namespace kcheck::analyzer
