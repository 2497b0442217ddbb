#include "RecipeTestSupport.h"

namespace kcheck::analyzer {
namespace {

using testing::proposeFor;
using testing::rewriteAndCompile;
using testing::withCheck;

// reduce_v1 of the reduction tutorial: interleaved addressing, index form.
const char *kIndexForm = R"(#define BLOCK 256
__global__ void reduce_v1(const float *in, float *out) {
  __shared__ float sdata[BLOCK];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int s = 1; s < blockDim.x; s *= 2) {
    int index = 2 * s * tid;
    if (index < blockDim.x) {
      sdata[index] += sdata[index + s];
    }
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
)";

const char *kIndexFormFixed = R"(#define BLOCK 256
__global__ void reduce_v1(const float *in, float *out) {
  __shared__ float sdata[BLOCK];
  unsigned int tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) {
      sdata[tid] += sdata[tid + s];
    }
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
)";

TEST(SequentialAddressing, IndexFormBecomesSequential) {
  auto p = proposeFor(proposeSequentialAddressing, "index.cu", kIndexForm);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  auto bank = withCheck(p, "bank-conflict");
  ASSERT_EQ(bank.size(), 1u);
  EXPECT_EQ(bank[0]->recipe, "sequential-addressing");
  EXPECT_EQ(bank[0]->kernel, "reduce_v1");
  EXPECT_EQ(bank[0]->lines, std::vector<unsigned>{10});
  EXPECT_NE(bank[0]->title.find("sums in a different order"),
            std::string::npos);
  EXPECT_NE(bank[0]->title.find("assumes blockDim.x is a power of two"),
            std::string::npos);
  auto divergent = withCheck(p, "divergent-branch");
  ASSERT_EQ(divergent.size(), 1u);
  EXPECT_EQ(divergent[0]->lines, std::vector<unsigned>{9});
  EXPECT_EQ(rewriteAndCompile("index.cu", kIndexForm, *bank[0]),
            kIndexFormFixed);
}

// The slides' form: barrier first, t % (2 * stride), a constant bound.
const char *kModuloForm = R"(__global__ void modulo(const int *in, int *out) {
  __shared__ int partial[512];
  unsigned int t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  for (unsigned int stride = 1; stride < 512; stride <<= 1) {
    __syncthreads();
    if (t % (2 * stride) == 0) partial[t] = max(partial[t + stride], partial[t]);
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}
)";

const char *kModuloFormFixed =
    R"(__global__ void modulo(const int *in, int *out) {
  __shared__ int partial[512];
  unsigned int t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  for (unsigned int stride = 512 / 2; stride > 0; stride >>= 1) {
    __syncthreads();
    if (t < stride) partial[t] = max(partial[t + stride], partial[t]);
  }
  if (t == 0) out[blockIdx.x] = partial[0];
}
)";

TEST(SequentialAddressing, ModuloFormWithConstantBound) {
  auto p = proposeFor(proposeSequentialAddressing, "modulo.cu", kModuloForm);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  auto divergent = withCheck(p, "divergent-branch");
  ASSERT_EQ(divergent.size(), 1u);
  EXPECT_EQ(divergent[0]->lines, std::vector<unsigned>{7});
  // max on int is exact; the constant bound needs the block to match it.
  EXPECT_EQ(divergent[0]->title.find("different order"), std::string::npos);
  EXPECT_NE(divergent[0]->title.find("256 <= blockDim.x <= 512"),
            std::string::npos);
  EXPECT_EQ(rewriteAndCompile("modulo.cu", kModuloForm, *divergent[0]),
            kModuloFormFixed);
}

// Cooperative groups' barrier, threadIdx.x used directly, a template bound:
// every instantiation must prove it.
const char *kTemplateForm = R"(#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <unsigned N>
__global__ void reduce_t(const int *in, int *out) {
  cg::thread_block cta = cg::this_thread_block();
  extern __shared__ int sdata[];
  sdata[threadIdx.x] = in[blockIdx.x * N + threadIdx.x];
  cta.sync();
  for (int s = 1; s < N; s *= 2) {
    if ((threadIdx.x & (2 * s - 1)) == 0) sdata[threadIdx.x] ^= sdata[threadIdx.x + s];
    cg::sync(cta);
  }
  if (threadIdx.x == 0) out[blockIdx.x] = sdata[0];
}
void launch(const int *in, int *out) {
  reduce_t<256><<<4, 256, 1024>>>(in, out);
  reduce_t<INSTANCE><<<4, 128, 512>>>(in, out);
}
)";

std::string withInstance(const std::string &source, const std::string &n) {
  std::string s = source;
  s.replace(s.find("INSTANCE"), 8, n);
  return s;
}

TEST(SequentialAddressing, TemplateBoundProvenForEveryInstantiation) {
  std::string good = withInstance(kTemplateForm, "128");
  auto p = proposeFor(proposeSequentialAddressing, "template.cu", good);
  ASSERT_TRUE(p.compiled) << p.diagnostics;
  auto divergent = withCheck(p, "divergent-branch");
  ASSERT_EQ(divergent.size(), 1u); // once for the template
  std::string fixed = rewriteAndCompile("template.cu", good, *divergent[0]);
  EXPECT_NE(fixed.find("for (int s = N / 2; s > 0; s >>= 1) {\n    if "
                       "(threadIdx.x < s) sdata[threadIdx.x] ^= "
                       "sdata[threadIdx.x + s];\n    cg::sync(cta);"),
            std::string::npos)
      << fixed;

  // One instantiation whose bound is not a power of two: no candidate.
  std::string bad = withInstance(kTemplateForm, "96");
  auto none = proposeFor(proposeSequentialAddressing, "template_bad.cu", bad);
  ASSERT_TRUE(none.compiled) << none.diagnostics;
  EXPECT_TRUE(none.candidates.empty());

  // Dynamic shared memory read again by a function of the file after the
  // loop: its other partial sums would be seen.
  std::string peeks = good;
  peeks.replace(peeks.find("template <unsigned N>"), 0,
                "__device__ int peek() { extern __shared__ int all[]; "
                "return all[1]; }\n");
  peeks.replace(peeks.find("out[blockIdx.x] = sdata[0];"), 27,
                "out[blockIdx.x] = sdata[0] + peek();");
  auto peeked = proposeFor(proposeSequentialAddressing, "peek.cu", peeks);
  ASSERT_TRUE(peeked.compiled) << peeked.diagnostics;
  EXPECT_TRUE(peeked.candidates.empty());
}

// Shapes where the sequential form would not compute the same result.
struct Mismatch {
  const char *name;
  const char *from; // a piece of kIndexForm
  const char *to;
};
// Test names and ctest listings show the case name, not its bytes.
void PrintTo(const Mismatch &m, std::ostream *os) { *os << m.name; }

class SequentialAddressingRejects : public ::testing::TestWithParam<Mismatch> {
};

TEST_P(SequentialAddressingRejects, NoCandidate) {
  std::string source = kIndexForm;
  size_t at = source.find(GetParam().from);
  ASSERT_NE(at, std::string::npos);
  source.replace(at, std::string(GetParam().from).size(), GetParam().to);
  auto p = proposeFor(proposeSequentialAddressing,
                      std::string(GetParam().name) + ".cu", source);
  ASSERT_TRUE(p.compiled) << p.diagnostics << source;
  EXPECT_TRUE(p.candidates.empty()) << source;
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, SequentialAddressingRejects,
    ::testing::Values(
        // Subtraction is not commutative.
        Mismatch{"minus", "sdata[index] += sdata[index + s]",
                 "sdata[index] -= sdata[index + s]"},
        Mismatch{"minus_assign", "sdata[index] += sdata[index + s]",
                 "sdata[index] = sdata[index + s] - sdata[index]"},
        // A bound that is not a power of two.
        Mismatch{"bound", "s < blockDim.x; s *= 2", "s < 96; s *= 2"},
        // An extra statement in the loop.
        Mismatch{"extra", "    __syncthreads();\n  }",
                 "    __syncthreads();\n    sdata[tid] += 1.0f;\n  }"},
        // A partial result other than sdata[0] is read after the loop.
        Mismatch{"read_after", "out[blockIdx.x] = sdata[0]",
                 "out[blockIdx.x] = sdata[0] + sdata[1]"},
        // The array escapes after the loop.
        Mismatch{"escapes", "  if (tid == 0) out",
                 "  float *p = sdata;\n  if (tid == 0) out"},
        // tid is not threadIdx.x.
        Mismatch{"tid", "unsigned int tid = threadIdx.x;",
                 "unsigned int tid = threadIdx.x + 1;"},
        // The index is not 2 * s * tid.
        Mismatch{"index", "int index = 2 * s * tid;",
                 "int index = 4 * s * tid;"},
        // No barrier in the loop.
        Mismatch{"barrier", "    __syncthreads();\n  }", "  }"},
        // The index bound differs from the loop's.
        Mismatch{"index_bound", "if (index < blockDim.x)", "if (index < 128)"},
        // Stride doubling written differently: s grows by 3.
        Mismatch{"stride", "s *= 2", "s *= 3"}),
    [](const ::testing::TestParamInfo<Mismatch> &info) {
      return std::string(info.param.name);
    });

} // namespace
} // namespace kcheck::analyzer
