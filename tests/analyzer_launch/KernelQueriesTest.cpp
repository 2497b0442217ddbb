// Grids sized by the occupancy API and cudaFuncGetAttributes, answered from
// what the compiler gave the kernel (a stand-in for nvcc's report here), and
// host code that certainly stops before its launches.
#include "LaunchTestSupport.h"

#include "analyzer/toolchain/KernelResourceUsage.h"
#include "core/DeviceFacts.h"

using namespace kcheck;
using namespace kcheck::analyzer;
using namespace kcheck::analyzer::launch_test;

namespace {

// Every kernel: 64 registers per thread, 1 KB of static shared memory.
ExtractorOptions withResources(std::vector<std::string> *asked = nullptr) {
  ExtractorOptions o;
  o.arch = *core::findArch("sm_90");
  o.kernelResources = [asked](const std::string &kernel, std::string &) {
    if (asked)
      asked->push_back(kernel);
    core::KernelResources r;
    r.registers = 64;
    r.staticSharedBytes = 1024;
    return std::optional<core::KernelResources>(r);
  };
  o.deviceQuery = [](const std::string &name) {
    return core::deviceFact(*core::findArch("sm_90"), name);
  };
  return o;
}

} // namespace

TEST(KernelQueries, OccupancySizesTheGrid) {
  std::vector<std::string> asked;
  HostProgram p = extract(R"cuda(
__global__ void k(int *p) {}
__global__ void __launch_bounds__(128) bounded(int *p) {}
int main() {
  int *d;
  cudaMalloc(&d, 4096);
  int sms, perSM = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, (const void *)k, 256, 0);
  k<<<perSM * sms, 256>>>(d);
  cudaFuncAttributes a, b;
  cudaFuncGetAttributes(&a, (const void *)k);
  cudaFuncGetAttributes(&b, (const void *)bounded);
  k<<<a.numRegs, a.maxThreadsPerBlock>>>(d);
  k<<<b.sharedSizeBytes / 1024, b.maxThreadsPerBlock>>>(d);
  int grid = 0, block = 0;
  cudaOccupancyMaxPotentialBlockSize(&grid, &block, k);
  k<<<grid, block>>>(d);
  cudaFuncSetAttribute((const void *)k, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, (const void *)k, 128, 100 * 1024);
  k<<<perSM, 128, 100 * 1024>>>(d);
}
)cuda",
                          withResources(&asked));
  ASSERT_EQ(p.launches.size(), 5u);
  // 64 registers: 2048 a warp, 8 warps of each sub-partition's 16384, so 4
  // blocks of 8 warps; on 132 SMs.
  EXPECT_EQ(p.launches[0].grid, d3(4 * 132)) << joined(p.notes);
  EXPECT_EQ(p.launches[1].grid, d3(64));
  EXPECT_EQ(p.launches[1].block, d3(1024));
  EXPECT_EQ(p.launches[2].grid, d3(1));
  EXPECT_EQ(p.launches[2].block, d3(128)); // its __launch_bounds__
  EXPECT_EQ(p.launches[3].grid, d3(132));
  EXPECT_EQ(p.launches[3].block, d3(1024));
  // 100 KB + 1 KB static + 1 KB reserved: 2 in the SM's 228 KB.
  EXPECT_EQ(p.launches[4].grid, d3(2));
  ASSERT_FALSE(asked.empty());
  EXPECT_EQ(asked[0], "_Z1kPi");
  EXPECT_NE(joined(p.notes).find("4 blocks of 256 threads per SM for k (64 "
                                 "registers per thread from nvcc; limited "
                                 "by registers)"),
            std::string::npos)
      << joined(p.notes);
}

TEST(KernelQueries, WithoutTheCompilersAnswerTheGridIsUnknown) {
  ExtractorOptions o = withResources();
  o.kernelResources = [](const std::string &, std::string &why) {
    why = "no CUDA toolkit was found";
    return std::optional<core::KernelResources>();
  };
  HostProgram p = extract(R"cuda(
__global__ void k(int *p) {}
int main() {
  int *d;
  cudaMalloc(&d, 4096);
  int perSM = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSM, (const void *)k, 256, 0);
  k<<<perSM, 256>>>(d);
}
)cuda",
                          o);
  ASSERT_EQ(p.launches.size(), 1u);
  EXPECT_FALSE(p.launches[0].grid.has_value());
  EXPECT_NE(joined(p.launches[0].notes).find("no CUDA toolkit was found"),
            std::string::npos)
      << joined(p.launches[0].notes);
}

TEST(KernelQueries, HostCodeThatCertainlyStops) {
  // An assert that fails whatever the input: the program stops there.
  HostProgram p = extract(R"cuda(
#include <cassert>
__global__ void k(int *p) {}
void notImplemented() { assert(false && "Not implemented"); }
int main(int argc, char **argv) {
  int *d;
  cudaMalloc(&d, 4096);
  notImplemented();
  k<<<1, 32>>>(d);
}
)cuda");
  EXPECT_NE(p.stoppedBy.find("`assert(false && \"Not implemented\")` fails at "
                             "t.cu:4"),
            std::string::npos)
      << p.stoppedBy;
  // Where a value kcheck does not know decides, nothing is certain: an
  // unknown condition, an unknown `?:` (assert's own expansion), or a path
  // that an earlier unknown branch may have left.
  for (const char *body : {
           "if (argc > 3) exit(1);",
           "assert(argc > 3);",
           "if (argc > 3) { k<<<1, 1>>>(d); return 0; } abort();",
       }) {
    HostProgram q = extract(std::string(R"cuda(
#include <cassert>
__global__ void k(int *p) {}
int main(int argc, char **argv) {
  int *d;
  cudaMalloc(&d, 4096);
)cuda") + body + "\n}\n");
    EXPECT_EQ(q.stoppedBy, "") << body;
  }
}

TEST(KernelQueries, PtxasReportIsReadPerEntry) {
  // nvcc --resource-usage (CUDA 13): entries, and a device function whose
  // properties must not land on the entry before it.
  std::map<std::string, core::KernelResources> k = parsePtxasResourceUsage(
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z1kPfi' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z1kPfi\n"
      "    256 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 18 registers, used 4 barriers, 1024 bytes smem, "
      "388 bytes cmem[0]\n"
      "ptxas info    : Function properties for _Z6helperv\n"
      "    64 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Compiling entry function '_Z1gv' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z1gv\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 4 registers, used 0 barriers\n");
  ASSERT_EQ(k.size(), 2u);
  EXPECT_EQ(k["_Z1kPfi"].registers, 18);
  EXPECT_EQ(k["_Z1kPfi"].barriers, 4);
  EXPECT_EQ(k["_Z1kPfi"].staticSharedBytes, 1024u);
  EXPECT_EQ(k["_Z1kPfi"].constBytes, 388u);
  EXPECT_EQ(k["_Z1kPfi"].localBytes, 256u);
  EXPECT_EQ(k["_Z1gv"].registers, 4);
  EXPECT_EQ(k["_Z1gv"].localBytes, 0u);
}
