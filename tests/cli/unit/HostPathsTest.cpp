// The two host paths — static extraction (driver::analyzeFile) and running
// the program's host code (driver::sessionFromHostRun) — simulate through
// one launch runner and report through one builder: for a program whose
// sizes and data both can see, every launch's report is the same, a
// kernel's launches from the device and a fault included.
#include "driver/Options.h"
#include "driver/Session.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace kcheck::driver {
namespace {

namespace fs = std::filesystem;

constexpr const char *kProgram = R"(#include <cassert>
template <int N> __global__ void scale(float *x) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i % N == 0)
    x[i] *= 2.0f;
}
__global__ void child(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] += 1.0f;
}
__global__ void parent(float *x) {
  if (threadIdx.x == 0)
    child<<<2, 64>>>(x + blockIdx.x * 128, 100);
}
__global__ void faults(float *x) {
  assert(x[threadIdx.x] < 0.0f);
}
int main() {
  float *x;
  cudaMalloc(&x, 4096 * sizeof(float));
  cudaMemset(x, 0, 4096 * sizeof(float));
  scale<4><<<16, 256>>>(x);
  parent<<<4, 32>>>(x);
  faults<<<1, 32>>>(x);
  cudaDeviceSynchronize();
  return 0;
}
)";

class HostPathsTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("kcheck-host-paths-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    std::ofstream(dir_ / "paths.cu") << kProgram;
  }
  void TearDown() override { fs::remove_all(dir_); }
  Options options() const {
    Options o;
    o.command = Command::Predict;
    o.file = (dir_ / "paths.cu").string();
    o.quiet = true;
    return o;
  }
  fs::path dir_;
};

TEST_F(HostPathsTest, BothPathsReportEveryLaunchAlike) {
  Session statics = analyzeFile(options());
  std::ostringstream programOutput;
  Session run = sessionFromHostRun(options(), programOutput);
  ASSERT_TRUE(statics.compiled) << statics.clangDiagnostics;
  ASSERT_TRUE(run.compiled) << run.clangDiagnostics;
  // scale, parent, its four children, faults.
  ASSERT_EQ(statics.report.launches.size(), 7u);
  ASSERT_EQ(run.report.launches.size(), 7u);
  for (size_t i = 0; i < 7; ++i) {
    SCOPED_TRACE("launch " + std::to_string(i));
    const core::LaunchReport &a = statics.report.launches[i];
    const core::LaunchReport &b = run.report.launches[i];
    EXPECT_EQ(a.index, b.index);
    EXPECT_EQ(a.kernel, b.kernel);
    EXPECT_EQ(a.signature, b.signature);
    EXPECT_EQ(a.config.grid, b.config.grid);
    EXPECT_EQ(a.config.block, b.config.block);
    EXPECT_EQ(a.simulated, b.simulated);
    EXPECT_EQ(a.metrics.v, b.metrics.v);
    ASSERT_EQ(a.launchedFrom.has_value(), b.launchedFrom.has_value());
    if (a.launchedFrom) {
      EXPECT_EQ(a.launchedFrom->launch, b.launchedFrom->launch);
      EXPECT_EQ(a.launchedFrom->where, b.launchedFrom->where);
    }
    EXPECT_EQ(a.lines.size(), b.lines.size());
  }
  EXPECT_EQ(statics.report.launches[0].kernel, "scale<4>");
  EXPECT_EQ(statics.report.launches[2].kernel, "child");
  EXPECT_EQ(statics.report.launches[2].launchedFrom->launch, 1);
  EXPECT_EQ(statics.report.launches[2].launchedFrom->where.line, 14u);
  // The fault: both report the launch up to it with the same note.
  const std::vector<std::string> &faultNotes = statics.report.launches[6].notes;
  ASSERT_FALSE(faultNotes.empty());
  EXPECT_NE(faultNotes.back().find("the kernel faults"), std::string::npos);
  EXPECT_EQ(faultNotes.back(), run.report.launches[6].notes.back());
}

} // namespace
} // namespace kcheck::driver
