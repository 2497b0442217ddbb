// The device runtime of one grid (simulator/DeviceLaunches.h) as a pure
// component: which launches it takes, the last error each thread reads,
// the order of the work, libcudadevrt's counted accesses.
#include "simulator/DeviceLaunches.h"

#include "core/Metrics.h"

#include <gtest/gtest.h>

namespace kcheck::sim {
namespace {

using Op = bc::DeviceRuntimeOp;

struct Fixture {
  core::ArchSpec arch = *core::findArch("sm_90");
  DeviceMemory memory;
};

DeviceRuntimeCall launchCall(const std::string &kernel, core::Dim3 grid,
                             core::Dim3 block, uint64_t stream = 0,
                             core::Dim3 thread = {0, 0, 0}) {
  static std::string name;
  name = kernel;
  DeviceRuntimeCall c;
  c.op = Op::LaunchDevice;
  c.kernel = &name;
  c.thread = thread;
  c.values[0] = 0x1000; // the parameter buffer
  c.values[1] = 0;      // dynamic shared bytes
  c.values[2] = stream;
  c.dims[0] = grid;
  c.dims[1] = block;
  return c;
}

DeviceRuntimeCall plain(Op op, core::Dim3 thread = {0, 0, 0}) {
  DeviceRuntimeCall c;
  c.op = op;
  c.thread = thread;
  return c;
}

TEST(DeviceLaunches, TakesValidLaunchesAndRefusesOthersOncePerThread) {
  Fixture f;
  GridDeviceRuntime rt(f.arch, f.memory, 0);
  EXPECT_EQ(rt.call(launchCall("a", {2, 1, 1}, {32, 1, 1})).result, 0u);
  // A block of 2048 threads: cudaErrorInvalidConfiguration (9), as the
  // H200 answers, for the launching thread only, read once.
  EXPECT_EQ(rt.call(launchCall("b", {1, 1, 1}, {2048, 1, 1})).result, 9u);
  EXPECT_EQ(rt.call(plain(Op::PeekAtLastError, {1, 0, 0})).result, 0u);
  EXPECT_EQ(rt.call(plain(Op::PeekAtLastError)).result, 9u);
  EXPECT_EQ(rt.call(plain(Op::GetLastError)).result, 9u);
  EXPECT_EQ(rt.call(plain(Op::GetLastError)).result, 0u);
  EXPECT_EQ(rt.call(launchCall("c", {0, 1, 1}, {32, 1, 1})).result, 9u);
  std::vector<DeviceWork> work = rt.takeWork();
  ASSERT_EQ(work.size(), 1u);
  EXPECT_EQ(work[0].kernel, "a");
  EXPECT_EQ(work[0].config.deviceDepth, 1u);
  // Each refused launch: 17 global loads of libcudadevrt's.
  EXPECT_EQ(rt.libraryCounters()[core::Metric::GlobalLdInst], 34u);
}

TEST(DeviceLaunches, SetConditionalSetsOnlyTheLaunchedGraphsHandles) {
  Fixture f;
  DeviceRuntimeCall set = plain(Op::GraphSetConditional);
  set.values[0] = 7, set.values[1] = 5;
  // Analysed without its program: any handle, the value dropped.
  GridDeviceRuntime alone(f.arch, f.memory, 0);
  EXPECT_TRUE(alone.call(set).fault.empty());
  // In a graph launch whose handles are 3 and 7: 7 is set, 4 faults.
  GraphConditionals c;
  c.values[3] = {};
  c.values[7] = {1, false};
  GridDeviceRuntime rt(f.arch, f.memory, 0, {&c, nullptr});
  EXPECT_TRUE(rt.call(set).fault.empty());
  EXPECT_EQ(c.values[7].value, 5u);
  EXPECT_TRUE(c.values[7].defined);
  EXPECT_FALSE(c.values[3].defined);
  set.values[0] = 4;
  EXPECT_NE(rt.call(set).fault.find("belongs to no graph being launched"),
            std::string::npos);
  EXPECT_EQ(c.values.count(4), 0u);
  // No library access is counted for it (DeviceLaunches.h).
  EXPECT_EQ(rt.libraryCounters()[core::Metric::GlobalStInst], 0u);
}

TEST(DeviceLaunches, TailLaunchesRunLastAndDepthIsBounded) {
  Fixture f;
  GridDeviceRuntime rt(f.arch, f.memory, 0);
  rt.call(launchCall("tail", {1, 1, 1}, {1, 1, 1}, /*cudaStreamTailLaunch*/ 3));
  rt.call(launchCall("first", {1, 1, 1}, {1, 1, 1}));
  rt.call(launchCall("second", {1, 1, 1}, {1, 1, 1}, /*fire and forget*/ 4));
  std::vector<DeviceWork> work = rt.takeWork();
  ASSERT_EQ(work.size(), 3u);
  EXPECT_EQ(work[0].kernel, "first");
  EXPECT_EQ(work[1].kernel, "second");
  EXPECT_EQ(work[2].kernel, "tail");
  // A grid at depth 24 launches nothing (cudaErrorLaunchMaxDepthExceeded).
  GridDeviceRuntime deep(f.arch, f.memory, 24);
  EXPECT_EQ(deep.call(launchCall("x", {1, 1, 1}, {1, 1, 1})).result, 65u);
  EXPECT_TRUE(deep.takeWork().empty());
}

TEST(DeviceLaunches, QueriesAnswerAsTheDeviceDoes) {
  Fixture f;
  GridDeviceRuntime rt(f.arch, f.memory, 0);
  DeviceRuntimeCall attribute = plain(Op::DeviceGetAttribute);
  attribute.values[0] = 10; // cudaDevAttrWarpSize
  EXPECT_EQ(rt.call(attribute).out, std::optional<uint64_t>(32));
  attribute.values[1] = 1; // a second device
  EXPECT_EQ(rt.call(attribute).result, 101u);
  DeviceRuntimeCall limit = plain(Op::DeviceGetLimit);
  limit.values[0] = 4; // cudaLimitDevRuntimePendingLaunchCount
  EXPECT_EQ(rt.call(limit).out, std::optional<uint64_t>(2048));
  DeviceRuntimeCall stream = plain(Op::StreamCreateWithFlags);
  stream.values[0] = 2; // neither default nor non-blocking
  EXPECT_EQ(rt.call(stream).result, 1u);
}

TEST(DeviceLaunches, AsyncCopiesAreWorkWithTheirLibraryCost) {
  Fixture f;
  uint64_t src = f.memory.allocate(4096, "src"),
           dst = f.memory.allocate(4096, "dst");
  GridDeviceRuntime rt(f.arch, f.memory, 0);
  DeviceRuntimeCall copy = plain(Op::MemcpyAsync);
  copy.values[0] = dst, copy.values[1] = src, copy.values[2] = 4096;
  rt.call(copy);
  // As the H200 measured (docs/validation/probes/device_runtime_costs.cu).
  const core::Counters &c = rt.libraryCounters();
  EXPECT_EQ(c[core::Metric::GlobalLdInst], 17u);
  EXPECT_EQ(c[core::Metric::GlobalLdSectors], 129u);
  EXPECT_EQ(c[core::Metric::GlobalStInst], 112u);
  EXPECT_EQ(c[core::Metric::GlobalStSectors], 224u);
  std::vector<uint8_t> bytes(4096, 7);
  f.memory.write(src, bytes.data(), bytes.size());
  runDeviceWork(rt.takeWork(), f.memory, [](const DeviceWork &) {});
  std::vector<uint8_t> copied(4096);
  f.memory.read(dst, copied.data(), copied.size());
  EXPECT_EQ(copied, bytes);
}

} // namespace
} // namespace kcheck::sim
