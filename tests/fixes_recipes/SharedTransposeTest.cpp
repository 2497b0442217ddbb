#include "RecipeTestSupport.h"

namespace kcheck::analyzer {
namespace {

using testing::proposeFor;
using testing::rewriteAndCompile;

// kernels/patterns/transpose.cu's transpose_naive, with guards as in its
// transpose_guarded.
const char *kNaive = R"(#define TILE 32
#define ROWS 8
__global__ void transpose_naive(float *out, const float *in, int w, int h)
{
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < w && y + j < h)
      out[x * h + (y + j)] = in[(y + j) * w + x];
}
)";

const char *kNaiveFixed = R"(#define TILE 32
#define ROWS 8
__global__ void transpose_naive(float *out, const float *in, int w, int h)
{
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (y + j < w && x < h) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}
)";

TEST(SharedTranspose, GuardedNaiveTransposeBecomesTiled) {
  auto p = proposeFor(proposeSharedTranspose, "naive.cu", kNaive);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  ASSERT_EQ(p.candidates.size(), 1u);
  const FixCandidate &c = p.candidates[0];
  EXPECT_EQ(c.recipe, "shared-transpose");
  EXPECT_EQ(c.checkId, "uncoalesced-access");
  EXPECT_EQ(c.kernel, "transpose_naive");
  EXPECT_EQ(c.lines, std::vector<unsigned>{9});
  EXPECT_NE(c.title.find("assumes a 32 x 8 thread block"), std::string::npos);
  EXPECT_EQ(rewriteAndCompile("naive.cu", kNaive, c), kNaiveFixed);
}

// No j loop (a 16 x 16 block), one declaration statement, the sums and
// products written the other way round, a function named `tile` elsewhere
// (the local array shadows it).
const char *kSquare =
    R"(__global__ void t16(double *out, const double *in, int n) {
  int x = threadIdx.x + 16 * blockIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  out[y + x * n] = in[x + n * y];
}
__global__ void tile(float *a) { a[0] = 1; }
)";

TEST(SharedTranspose, SquareBlockWithoutLoop) {
  auto p = proposeFor(proposeSharedTranspose, "square.cu", kSquare);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  ASSERT_EQ(p.candidates.size(), 1u);
  EXPECT_NE(p.candidates[0].title.find("16 x 16"), std::string::npos);
  std::string fixed = rewriteAndCompile("square.cu", kSquare, p.candidates[0]);
  EXPECT_NE(fixed.find("  __shared__ double tile[16][16 + 1];\n"
                       "  int x = threadIdx.x + 16 * blockIdx.x, y = "
                       "blockIdx.y * 16 + threadIdx.y;\n"
                       "  tile[threadIdx.y][threadIdx.x] = in[x + n * y];\n"
                       "  __syncthreads();\n"
                       "  x = blockIdx.y * 16 + threadIdx.x;\n"
                       "  y = blockIdx.x * 16 + threadIdx.y;\n"
                       "  out[y * n + x] = tile[threadIdx.x][threadIdx.y];\n}"),
            std::string::npos)
      << fixed;
}

struct Mismatch {
  const char *name;
  const char *from; // a piece of kNaive
  const char *to;
};
// Test names and ctest listings show the case name, not its bytes.
void PrintTo(const Mismatch &m, std::ostream *os) { *os << m.name; }

class SharedTransposeRejects : public ::testing::TestWithParam<Mismatch> {};

TEST_P(SharedTransposeRejects, NoCandidate) {
  std::string source = kNaive;
  size_t at = source.find(GetParam().from);
  ASSERT_NE(at, std::string::npos);
  source.replace(at, std::string(GetParam().from).size(), GetParam().to);
  auto p = proposeFor(proposeSharedTranspose,
                      std::string(GetParam().name) + ".cu", source);
  ASSERT_TRUE(p.compiled) << p.diagnostics << source;
  EXPECT_TRUE(p.candidates.empty()) << source;
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, SharedTransposeRejects,
    ::testing::Values(
        // x is used elsewhere.
        Mismatch{"x_used",
                 "      out[x * h + (y + j)] = in[(y + j) * w + x];\n}",
                 "      out[x * h + (y + j)] = in[(y + j) * w + x];\n  out[0] "
                 "= x;\n}"},
        // A copy, not a transpose.
        Mismatch{"copy", "out[x * h + (y + j)]", "out[(y + j) * h + x]"},
        // The guard bounds something else than the coordinates.
        Mismatch{"guard", "if (x < w && y + j < h)", "if (x < w && y < h)"},
        Mismatch{"guard_thread", "if (x < w && y + j < h)",
                 "if (x < w && y + j < h - threadIdx.x)"},
        // ROWS does not divide TILE.
        Mismatch{"rows", "j += ROWS", "j += 12"},
        // The loop does not cover the tile.
        Mismatch{"loop_bound", "j < TILE;", "j < 16;"},
        // Different tile sizes for x and y.
        Mismatch{"tile_sizes", "blockIdx.y * TILE", "blockIdx.y * 16"},
        // The width depends on the thread.
        Mismatch{"width", "(y + j) * w + x", "(y + j) * (w + x) + x"},
        // In-place: out and in are the same.
        Mismatch{"in_place", "in[(y + j) * w + x]", "out[(y + j) * w + x]"}),
    [](const ::testing::TestParamInfo<Mismatch> &info) {
      return std::string(info.param.name);
    });

} // namespace
} // namespace kcheck::analyzer
