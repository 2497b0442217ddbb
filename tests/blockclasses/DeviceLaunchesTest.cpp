// The device runtime of one grid (simulator/DeviceLaunches.h) as a pure
// component: which launches it takes, the last error each thread reads,
// the order of the work, libcudadevrt's counted accesses.
#include "simulator/DeviceLaunches.h"

#include "core/Metrics.h"

#include <gtest/gtest.h>

#include <cstring>

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

// The copy kernel's rows (DeviceLaunches.h), against the H200's counts of
// device_runtime_queries.cu: a 2D set of 4 rows of 300 bytes 1 KB apart is
// the setup's 1 load and 73 stores, then 3 stores of 4-byte lanes per row
// over 10 sectors; its rows written with 0, the bytes between them kept.
TEST(DeviceLaunches, TwoDimensionalSetsFollowTheRowRule) {
  Fixture f;
  uint64_t base = f.memory.allocate(8192, "p");
  std::vector<uint8_t> fill(8192, 0x11);
  f.memory.write(base, fill.data(), fill.size());
  GridDeviceRuntime rt(f.arch, f.memory, 0);
  DeviceRuntimeCall set = plain(Op::Memset2DAsync);
  // dst, pitch, value, width, height, stream
  set.values[0] = base + 256, set.values[1] = 1024, set.values[2] = 0x33;
  set.values[3] = 300, set.values[4] = 4;
  EXPECT_EQ(rt.call(set).result, 0u);
  const core::Counters &c = rt.libraryCounters();
  EXPECT_EQ(c[core::Metric::GlobalLdInst], 1u);
  EXPECT_EQ(c[core::Metric::GlobalStInst], 73u + 12u);
  EXPECT_EQ(c[core::Metric::GlobalStSectors], 73u + 40u);
  EXPECT_TRUE(rt.uncounted().empty());
  runDeviceWork(rt.takeWork(), f.memory, [](const DeviceWork &) {});
  std::vector<uint8_t> back(8192);
  f.memory.read(base, back.data(), back.size());
  EXPECT_EQ(back[255], 0x11);
  EXPECT_EQ(back[256], 0); // the H200 writes 0 whatever the value
  EXPECT_EQ(back[256 + 299], 0);
  EXPECT_EQ(back[256 + 300], 0x11);
  EXPECT_EQ(back[256 + 3 * 1024 + 299], 0);
  // Wider than its pitch: cudaErrorInvalidValue, no access; a copy so is
  // cudaErrorInvalidPitchValue.
  set.values[1] = 64;
  EXPECT_EQ(rt.call(set).result, 1u);
  DeviceRuntimeCall copy = plain(Op::Memcpy2DAsync);
  copy.values[0] = base, copy.values[1] = 64, copy.values[2] = base + 4096;
  copy.values[3] = 256, copy.values[4] = 100, copy.values[5] = 2;
  EXPECT_EQ(rt.call(copy).result, 12u);
  EXPECT_EQ(c[core::Metric::GlobalStInst], 73u + 12u);
  // Rows that do not start 32-byte aligned: the setup counted, the rows
  // not, and named.
  set.values[0] = base + 100, set.values[1] = 200, set.values[3] = 37;
  set.values[4] = 5;
  EXPECT_EQ(rt.call(set).result, 0u);
  EXPECT_EQ(c[core::Metric::GlobalStInst], 73u + 12u + 73u);
  ASSERT_EQ(rt.uncounted().size(), 1u);
  EXPECT_NE(rt.uncounted()[0].find("cudaMemset2DAsync"), std::string::npos);
}

// cudaGetErrorName looks the code up in the driver's table: position + 3
// loads, 135 for a code not in it (probes/device_error_text_costs.cu); the
// text in device memory.
TEST(DeviceLaunches, ErrorTextsCostTheirLookup) {
  Fixture f;
  GridDeviceRuntime rt(f.arch, f.memory, 0);
  DeviceRuntimeCall name = plain(Op::GetErrorName);
  name.values[0] = 1;
  uint64_t text = rt.call(name).result;
  char back[32] = {};
  ASSERT_TRUE(f.memory.read(text, back, 22));
  EXPECT_STREQ(back, "cudaErrorInvalidValue");
  EXPECT_EQ(rt.libraryCounters()[core::Metric::GlobalLdInst], 4u);
  name.values[0] = 12345;
  text = rt.call(name).result;
  ASSERT_TRUE(f.memory.read(text, back, 24));
  EXPECT_STREQ(back, "unrecognized error code");
  EXPECT_EQ(rt.libraryCounters()[core::Metric::GlobalLdInst], 4u + 135u);
}

// A kernel's attributes and occupancy from the device: the host runtime's
// view (KernelQueries); without one, the kernel stops, saying why.
TEST(DeviceLaunches, KernelQueriesAnswerFromTheRuntimesView) {
  struct Queries : KernelQueries {
    std::optional<core::KernelResources> resources(const std::string &,
                                                   std::string &) override {
      core::KernelResources k;
      k.registers = 12, k.staticSharedBytes = 1000, k.constBytes = 152;
      k.maxThreadsPerBlock = 256;
      return k;
    }
    core::SharedPreference sharedPreference(const std::string &) override {
      return {};
    }
  } queries;
  Fixture f;
  static const std::string kernel = "_Z7boundedPf";
  DeviceRuntimeCall attributes = plain(Op::FuncGetAttributes);
  attributes.kernel = &kernel;
  GridDeviceRuntime alone(f.arch, f.memory, 0);
  EXPECT_NE(alone.call(attributes).fault.find("cannot answer"),
            std::string::npos);
  GridDeviceRuntime rt(f.arch, f.memory, 0, {nullptr, &queries});
  DeviceRuntimeAnswer a = rt.call(attributes);
  ASSERT_EQ(a.outBytes.size(), 40u); // sharedSizeBytes to binaryVersion
  uint64_t shared;
  int words[4];
  std::memcpy(&shared, a.outBytes.data(), 8);
  std::memcpy(words, a.outBytes.data() + 24, 16);
  EXPECT_EQ(shared, 1000u);
  EXPECT_EQ(words[0], 256); // maxThreadsPerBlock
  EXPECT_EQ(words[1], 12);  // numRegs
  DeviceRuntimeCall occupancy =
      plain(Op::OccupancyMaxActiveBlocksPerMultiprocessor);
  occupancy.kernel = &kernel;
  occupancy.values[0] = 128;
  EXPECT_EQ(rt.call(occupancy).out, std::optional<uint64_t>(16));
  occupancy.values[0] = 0; // refused, 0 blocks written, 4 loads
  DeviceRuntimeAnswer refused = rt.call(occupancy);
  EXPECT_EQ(refused.result, 1u);
  EXPECT_EQ(refused.out, std::optional<uint64_t>(0));
  EXPECT_EQ(rt.libraryCounters()[core::Metric::GlobalLdInst], 4u);
}

} // namespace
} // namespace kcheck::sim
