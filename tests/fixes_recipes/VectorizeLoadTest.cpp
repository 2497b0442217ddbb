#include "RecipeTestSupport.h"

namespace kcheck::analyzer {
namespace {

using testing::proposeFor;
using testing::rewriteAndCompile;
using testing::withCheck;

// sgemm_vectorize's register fill from shared memory (seed 003), through the
// OFFSET macro, in a template instantiated twice.
const char *kSharedLoad = R"(#define OFFSET(row, col, ld) ((row) * (ld) + (col))
typedef unsigned int uint;
template <int BN, int BK, int TN>
__global__ void fill(const float *B, float *C) {
  const uint thread_col = threadIdx.x % (BN / TN);
  __shared__ float smem_b[BK * BN];
  float reg_b[TN] = {0.0f};
  smem_b[threadIdx.x] = B[threadIdx.x];
  __syncthreads();
  float sum = 0.0f;
  for (uint d = 0; d < BK; ++d) {
    for (uint i = 0; i < TN; ++i) reg_b[i] = smem_b[OFFSET(d, thread_col * TN + i, BN)];
    for (uint n = 0; n < TN; ++n) sum += reg_b[n];
  }
  C[threadIdx.x] = sum;
}
void launch(const float *B, float *C) {
  fill<128, 8, 8><<<1, 256>>>(B, C);
  fill<64, 8, SECOND_TN><<<1, 256>>>(B, C);
}
)";

std::string withTn(const std::string &source, const std::string &tn) {
  std::string s = source;
  s.replace(s.find("SECOND_TN"), 9, tn);
  return s;
}

TEST(VectorizeLoad, SharedRegisterFillBecomesFloat4) {
  std::string source = withTn(kSharedLoad, "4");
  auto p = proposeFor(proposeVectorizeLoad, "shared.cu", source);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  ASSERT_EQ(p.candidates.size(), 1u);
  const FixCandidate &c = p.candidates[0];
  EXPECT_EQ(c.recipe, "vectorize-load");
  EXPECT_EQ(c.checkId, "bank-conflict");
  EXPECT_EQ(c.kernel, "fill");
  EXPECT_EQ(c.lines, std::vector<unsigned>{12});
  std::string fixed = rewriteAndCompile("shared.cu", source, c);
  EXPECT_NE(
      fixed.find("    for (uint i = 0; i < TN; i += 4) { const float4 v = "
                 "reinterpret_cast<const float4 *>(&smem_b[OFFSET(d, "
                 "thread_col * TN + i, BN)])[0]; reg_b[i] = v.x; reg_b[i + 1] "
                 "= v.y; reg_b[i + 2] = v.z; reg_b[i + 3] = v.w; }\n"),
      std::string::npos)
      << fixed;
}

TEST(VectorizeLoad, EveryInstantiationMustProveAlignment) {
  // TN = 2 in the second instantiation: it can only take float2 while the
  // first takes float4, so the template has no edit valid for both.
  auto two =
      proposeFor(proposeVectorizeLoad, "tn2.cu", withTn(kSharedLoad, "2"));
  ASSERT_TRUE(two.compiled) << two.diagnostics;
  EXPECT_TRUE(two.candidates.empty());
  // TN = 3: thread_col * 3 is not a multiple of anything.
  auto three =
      proposeFor(proposeVectorizeLoad, "tn3.cu", withTn(kSharedLoad, "3"));
  ASSERT_TRUE(three.compiled) << three.diagnostics;
  EXPECT_TRUE(three.candidates.empty());
}

// A global pointer parameter moved by multiples of 4 elements; a multi-line
// loop body; a destination index that is not the counter alone.
const char *kGlobalLoad =
    R"(__global__ void gather(const int *in, int *out, int n) {
  int regs[8];
  in += blockIdx.x * 64;
  in = in + 8 * n;
  for (int t = 0; t < 4; t++)
    regs[t + 4] =
        in[threadIdx.x * 4 + t];
  out[threadIdx.x] = regs[4] + regs[5] + regs[6] + regs[7];
}
)";

const char *kGlobalLoadFixed =
    R"(__global__ void gather(const int *in, int *out, int n) {
  int regs[8];
  in += blockIdx.x * 64;
  in = in + 8 * n;
  for (int t = 0; t < 4; t += 4)
    {
      const int4 v = reinterpret_cast<const int4 *>(&in[threadIdx.x * 4 + t])[0];
      regs[t + 4] = v.x;
      regs[(t + 1) + 4] = v.y;
      regs[(t + 2) + 4] = v.z;
      regs[(t + 3) + 4] = v.w;
    }
  out[threadIdx.x] = regs[4] + regs[5] + regs[6] + regs[7];
}
)";

TEST(VectorizeLoad, GlobalPointerParameter) {
  auto p = proposeFor(proposeVectorizeLoad, "global.cu", kGlobalLoad);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  ASSERT_EQ(p.candidates.size(), 1u);
  const FixCandidate &c = p.candidates[0];
  EXPECT_EQ(c.checkId, "uncoalesced-access");
  EXPECT_EQ(c.lines, std::vector<unsigned>{7});
  EXPECT_NE(c.title.find("assumes 'in' arrives 16-byte aligned"),
            std::string::npos);
  EXPECT_EQ(rewriteAndCompile("global.cu", kGlobalLoad, c), kGlobalLoadFixed);
}

struct Mismatch {
  const char *name;
  const char *from; // a piece of kGlobalLoad
  const char *to;
};
// Test names and ctest listings show the case name, not its bytes.
void PrintTo(const Mismatch &m, std::ostream *os) { *os << m.name; }

class VectorizeLoadRejects : public ::testing::TestWithParam<Mismatch> {};

TEST_P(VectorizeLoadRejects, NoCandidate) {
  std::string source = kGlobalLoad;
  size_t at = source.find(GetParam().from);
  ASSERT_NE(at, std::string::npos);
  source.replace(at, std::string(GetParam().from).size(), GetParam().to);
  auto p = proposeFor(proposeVectorizeLoad,
                      std::string(GetParam().name) + ".cu", source);
  ASSERT_TRUE(p.compiled) << p.diagnostics << source;
  EXPECT_TRUE(p.candidates.empty()) << source;
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, VectorizeLoadRejects,
    ::testing::Values(
        // The base is not a multiple of 4 elements.
        Mismatch{"misaligned_base", "threadIdx.x * 4 + t",
                 "threadIdx.x * 4 + 1 + t"},
        Mismatch{"odd_stride", "threadIdx.x * 4 + t", "threadIdx.x * 3 + t"},
        // The pointer moves by a runtime amount.
        Mismatch{"pointer_moved", "in = in + 8 * n;", "in = in + n;"},
        Mismatch{"pointer_incremented", "in = in + 8 * n;", "++in;"},
        // Not consecutive elements.
        Mismatch{"stride_two", "threadIdx.x * 4 + t",
                 "threadIdx.x * 4 + 2 * t"},
        // The trip count is not a multiple of 2.
        Mismatch{"trip_count", "t < 4; t++", "t < 3; t++"},
        // The destination could alias the source: a global array.
        Mismatch{"global_destination", "regs[t + 4] =", "out[t + 4] ="},
        // An extra statement in the loop.
        Mismatch{"extra", "regs[t + 4] =\n        in[threadIdx.x * 4 + t];",
                 "{ regs[t + 4] = in[threadIdx.x * 4 + t]; regs[0] += 1; }"},
        // Not a load of the counter's element.
        Mismatch{"counter_step", "t++)", "t += 2)"}),
    [](const ::testing::TestParamInfo<Mismatch> &info) {
      return std::string(info.param.name);
    });

} // namespace
} // namespace kcheck::analyzer
