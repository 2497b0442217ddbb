// Text edits, the unified diff, and the two layout recipes (padding, XOR
// swizzle) on small kernels: the edits each proposes, that the edited source
// compiles, and the shapes they must leave alone.
#include "../fixes_recipes/RecipeTestSupport.h"
#include "driver/UnifiedDiff.h"

#include <gtest/gtest.h>

namespace kcheck::analyzer {
namespace {

using testing::proposeFor;
using testing::rewriteAndCompile;

TEST(ApplyEdits, ReplacesInsertsAndDeletesInAnyOrder) {
  std::string text = "float tile[32][32];";
  std::vector<TextEdit> edits = {
      {15, 2, "33"}, {0, 0, "__shared__ "}, {18, 1, ""}};
  EXPECT_EQ(applyEdits(text, edits), "__shared__ float tile[32][33]");
}

TEST(ApplyEdits, RefusesOverlapsAndEditsPastTheEnd) {
  std::string text = "abcdef";
  EXPECT_EQ(applyEdits(text, {{1, 3, "X"}, {2, 1, "Y"}}), text);
  EXPECT_EQ(applyEdits(text, {{5, 2, "X"}}), text);
  EXPECT_EQ(applyEdits(text, {{6, 0, "!"}}), "abcdef!");
  EXPECT_TRUE(editsOverlap({{2, 0, "a"}, {2, 0, "b"}}));
  EXPECT_FALSE(editsOverlap({{0, 2, "a"}, {2, 2, "b"}}));
}

TEST(UnifiedDiff, EqualTextsGiveNothing) {
  EXPECT_EQ(driver::unifiedDiff("a\nb\n", "a\nb\n", "f.cu"), "");
}

TEST(UnifiedDiff, OneChangedLineWithContext) {
  std::string before, after;
  for (int i = 1; i <= 10; ++i) {
    before += "line " + std::to_string(i) + "\n";
    after +=
        (i == 5 ? std::string("LINE 5") : "line " + std::to_string(i)) + "\n";
  }
  EXPECT_EQ(driver::unifiedDiff(before, after, "f.cu"),
            "--- f.cu\n+++ f.cu\n@@ -2,7 +2,7 @@\n line 2\n line 3\n"
            " line 4\n-line 5\n+LINE 5\n line 6\n line 7\n line 8\n");
}

TEST(UnifiedDiff, DistantChangesMakeTwoHunksAndInsertionsCount) {
  std::string before, after;
  for (int i = 1; i <= 20; ++i) {
    before += std::to_string(i) + "\n";
    after += std::to_string(i) + "\n";
    if (i == 1)
      after += "inserted\n";
  }
  after.replace(after.find("\n20\n") + 1, 2, "twenty");
  EXPECT_EQ(driver::unifiedDiff(before, after, "f"),
            "--- f\n+++ f\n@@ -1,4 +1,5 @@\n 1\n+inserted\n 2\n 3\n 4\n"
            "@@ -17,4 +18,4 @@\n 17\n 18\n 19\n-20\n+twenty\n");
}

TEST(UnifiedDiff, MarksAMissingFinalNewline) {
  EXPECT_EQ(driver::unifiedDiff("a\nb", "a\nc", "f"),
            "--- f\n+++ f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of "
            "file\n+c\n\\ No newline at end of file\n");
}

const char *kColumnRead = R"(#define N 32
__global__ void column(const float *in, float *out) {
  __shared__ float tile[N][N];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * N + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * N + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
)";

TEST(PadSharedArray, PadsTheLastExtentByOneTwoAndFourFloats) {
  auto p = proposeFor(proposePadSharedArray, "pad2d.cu", kColumnRead);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  ASSERT_EQ(p.candidates.size(), 3u);
  const FixCandidate &one = p.candidates[0];
  EXPECT_EQ(one.recipe, "pad-shared-array");
  EXPECT_EQ(one.checkId, "bank-conflict");
  EXPECT_EQ(one.kernel, "column");
  EXPECT_EQ(one.title, "pad 'tile' from [N][N] to [N][N + 1]");
  EXPECT_EQ(one.lines, (std::vector<unsigned>{4, 6}));
  EXPECT_NE(rewriteAndCompile("pad2d.cu", kColumnRead, one)
                .find("__shared__ float tile[N][N + 1];"),
            std::string::npos);
  EXPECT_EQ(p.candidates[2].title, "pad 'tile' from [N][N] to [N][N + 4]");
}

// The seed sgemm's shape: a 1-D array indexed through OFFSET(row, col, ld),
// in a template whose arguments size it.
const char *kOffsetMacro =
    R"(#define OFFSET(row, col, ld) ((row) * (ld) + (col))
template <int BM, int BK>
__global__ void gemm(const float *a, float *out) {
  __shared__ float smem_a[BM * BK];
  unsigned r = threadIdx.x / 2, c = threadIdx.x % 2;
  smem_a[OFFSET(c * 4, r, BM)] = a[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = smem_a[OFFSET(threadIdx.x % BK, r, BM)];
}
template __global__ void gemm<128, 8>(const float *, float *);
)";

TEST(PadSharedArray, WidensTheLeadingDimensionAtTheMacroArguments) {
  auto p = proposeFor(proposePadSharedArray, "offset.cu", kOffsetMacro);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  ASSERT_EQ(p.candidates.size(), 3u);
  const FixCandidate &one = p.candidates[0];
  EXPECT_EQ(one.title, "pad the rows of 'smem_a' (row * BM + col) from BM to "
                       "BM + 1 elements: [BM * BK] to [(BM + 1) * BK]");
  std::string fixed = rewriteAndCompile("offset.cu", kOffsetMacro, one);
  EXPECT_NE(fixed.find("smem_a[(BM + 1) * BK]"), std::string::npos);
  EXPECT_NE(fixed.find("smem_a[OFFSET(c * 4, r, BM + 1)]"), std::string::npos);
  EXPECT_NE(fixed.find("smem_a[OFFSET(threadIdx.x % BK, r, BM + 1)]"),
            std::string::npos);
}

TEST(PadSharedArray, LeavesArraysReachedOtherThanBySubscripts) {
  // A row pointer and a flattened index would keep the old layout.
  const char *rowPointer = R"(__global__ void k(float *out) {
  __shared__ float tile[32][32];
  float *row = tile[threadIdx.y];
  row[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
)";
  auto p = proposeFor(proposePadSharedArray, "rowptr.cu", rowPointer);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  EXPECT_TRUE(p.candidates.empty());
  // The index `i * 32 + j` is not written in the main file at one place
  // only: the macro's body holds the 32.
  const char *macroBody = R"(#define AT(i, j) ((i) * 32 + (j))
__global__ void k(float *out) {
  __shared__ float s[32 * 32];
  s[AT(threadIdx.y, threadIdx.x)] = 1;
  __syncthreads();
  out[threadIdx.x] = s[AT(threadIdx.x, threadIdx.y)];
}
)";
  p = proposeFor(proposePadSharedArray, "macrobody.cu", macroBody);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  EXPECT_TRUE(p.candidates.empty());
}

TEST(PadSharedArray, VectorAccessKeepsRowsSixteenByteAligned) {
  const char *vector = R"(__global__ void k(float4 *out) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = reinterpret_cast<float4 *>(&tile[threadIdx.x][0])[0];
}
)";
  auto p = proposeFor(proposePadSharedArray, "vector.cu", vector);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  ASSERT_EQ(p.candidates.size(), 1u);
  EXPECT_EQ(p.candidates[0].title, "pad 'tile' from [32][32] to [32][36]");
}

TEST(XorSwizzle, PermutesEveryColumnIndexByItsRow) {
  auto p = proposeFor(proposeXorSwizzle, "xor.cu", kColumnRead);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  ASSERT_EQ(p.candidates.size(), 1u);
  EXPECT_EQ(p.candidates[0].title,
            "swizzle 'tile': tile[r][c] -> tile[r][c ^ (r % 32)]");
  std::string fixed = rewriteAndCompile("xor.cu", kColumnRead, p.candidates[0]);
  EXPECT_NE(fixed.find("tile[threadIdx.y][threadIdx.x ^ (threadIdx.y % 32)] ="),
            std::string::npos);
  EXPECT_NE(fixed.find("= tile[threadIdx.x][threadIdx.y ^ (threadIdx.x % 32)]"),
            std::string::npos);
}

TEST(XorSwizzle, NarrowRowsShareABankLineAndOtherShapesAreLeft) {
  const char *narrow = R"(__global__ void k(float *out) {
  __shared__ float t[64][16];
  t[threadIdx.x][threadIdx.y + 1] = 1;
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.y][threadIdx.x];
}
)";
  auto p = proposeFor(proposeXorSwizzle, "narrow.cu", narrow);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  ASSERT_EQ(p.candidates.size(), 1u);
  std::string fixed = rewriteAndCompile("narrow.cu", narrow, p.candidates[0]);
  EXPECT_NE(fixed.find("t[threadIdx.x][(threadIdx.y + 1) ^ (threadIdx.x / 2 % "
                       "16)]"),
            std::string::npos);
  const char *notPowerOfTwo = R"(__global__ void k(float *out) {
  __shared__ float t[32][33];
  t[threadIdx.y][threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
}
)";
  p = proposeFor(proposeXorSwizzle, "odd.cu", notPowerOfTwo);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  EXPECT_TRUE(p.candidates.empty());
}

TEST(XorSwizzle, NoEditInAMacroArgumentExpandedTwice) {
  // Swizzling `j` where SUM's body expands it would also swizzle the other
  // subscript's row index.
  const char *twice = R"(#define SUM(i, j) (t[i][j] + t[j][i])
__global__ void k(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = SUM(threadIdx.x, threadIdx.y);
}
)";
  auto p = proposeFor(proposeXorSwizzle, "twice.cu", twice);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  EXPECT_TRUE(p.candidates.empty());
  // Expanded once, a macro argument is the place to edit.
  const char *once = R"(#define AT(i, j) t[i][j]
__global__ void k(float *out) {
  __shared__ float t[32][32];
  AT(threadIdx.y, threadIdx.x) = 1;
  __syncthreads();
  out[threadIdx.x] = AT(threadIdx.x, threadIdx.y);
}
)";
  p = proposeFor(proposeXorSwizzle, "once.cu", once);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  ASSERT_EQ(p.candidates.size(), 1u);
  EXPECT_NE(rewriteAndCompile("once.cu", once, p.candidates[0])
                .find("AT(threadIdx.x, threadIdx.y ^ (threadIdx.x % 32))"),
            std::string::npos);
}

} // namespace
} // namespace kcheck::analyzer
