// Active lanes of memory instructions (the *_pred_on metrics) and kcheck's
// per-line SIMT counts: launch totals, both line views, and atomics left out
// as the per-op instruction counts leave them out.
#include "SimulateUtil.h"

namespace kcheck::sim {
namespace {

using core::Metric;
using test::simulate;
using test::SimulatedRun;

const std::string kFile = "branches.cu";

const core::LineReport *line(const std::vector<core::LineReport> &lines,
                             unsigned n) {
  for (const core::LineReport &l : lines)
    if (l.line == n)
      return &l;
  return nullptr;
}

TEST(ActiveLanes, ModuloBodyCountsOnlyItsActiveLanes) {
  SimulatedRun run = simulate("modulo", {2, 1, 1}, {256, 1, 1});
  // `sdata[tid] += sdata[tid + s]` runs on the 256 / 2s lanes with
  // tid % 2s == 0, for s = 1..128: 255 lanes per block and access.
  auto lines = rollUpLines(*run.kernel, run.result, kFile);
  const core::LineReport *body = line(lines, 19);
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->metrics[Metric::SharedLdPredOn], 2u * 2 * 255);
  EXPECT_EQ(body->metrics[Metric::SharedStPredOn], 2u * 255);
  // Fewer lanes than 32 per executed instruction: divergence.
  EXPECT_LT(body->metrics[Metric::SharedStPredOn],
            32 * body->metrics[Metric::SharedStInst]);
  // `sdata[tid] = tid` and the guarded `out[blockIdx.x] = sdata[0]`.
  const core::LineReport *init = line(lines, 15), *out = line(lines, 23);
  ASSERT_NE(init, nullptr);
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(init->metrics[Metric::SharedStPredOn], 2u * 256);
  EXPECT_EQ(out->metrics[Metric::GlobalStPredOn], 2u);
  EXPECT_EQ(out->metrics[Metric::SharedLdPredOn], 2u);
}

TEST(ActiveLanes, LaunchTotalsAreTheSumOfTheLines) {
  SimulatedRun run = simulate("modulo", {3, 1, 1}, {256, 1, 1});
  for (LineView view : {LineView::Innermost, LineView::NsightCompute}) {
    core::Counters sum;
    core::SimtCounts simt;
    for (const core::LineReport &l :
         rollUpLines(*run.kernel, run.result, kFile, view)) {
      sum += l.metrics;
      simt += l.simt;
    }
    for (Metric m : {Metric::SharedLdPredOn, Metric::SharedStPredOn,
                     Metric::GlobalLdPredOn, Metric::GlobalStPredOn,
                     Metric::SharedLdInst, Metric::GlobalStInst})
      EXPECT_EQ(sum[m], run.result.total[m]) << core::metricName(m);
    core::SimtCounts launch = simtCounts(run.result);
    EXPECT_EQ(simt.warpInst, launch.warpInst);
    EXPECT_EQ(simt.activeLanes, launch.activeLanes);
  }
}

TEST(ActiveLanes, SimtCountsCoverBranchesAndMemory) {
  SimulatedRun run = simulate("modulo", {1, 1, 1}, {256, 1, 1});
  auto lines = rollUpLines(*run.kernel, run.result, kFile);
  // The `if` on line 18: a branch line without memory metrics, all 8 warps
  // x 8 iterations with every lane active.
  const core::LineReport *cond = line(lines, 18);
  ASSERT_NE(cond, nullptr);
  EXPECT_TRUE(cond->metrics.empty());
  EXPECT_EQ(cond->simt.warpInst, 64u);
  EXPECT_EQ(cond->simt.activeLanes, 64u * 32);
  // The body: its loads and stores, with their lanes.
  const core::LineReport *body = line(lines, 19);
  ASSERT_NE(body, nullptr);
  EXPECT_EQ(body->simt.warpInst, body->metrics[Metric::SharedLdInst] +
                                     body->metrics[Metric::SharedStInst]);
  EXPECT_EQ(body->simt.activeLanes, body->metrics[Metric::SharedLdPredOn] +
                                        body->metrics[Metric::SharedStPredOn]);
}

TEST(ActiveLanes, AtomicsCountInNoLoadOrStoreMetric) {
  SimulatedRun run = simulate("atomics", {2, 1, 1}, {64, 1, 1});
  const core::Counters &t = run.result.total;
  // Per block: thread 0 stores s = 0 and reads s for the global atomic; the
  // 64 shared atomics and the global atomic are neither loads nor stores.
  EXPECT_EQ(t[Metric::SharedStPredOn], 2u);
  EXPECT_EQ(t[Metric::SharedLdPredOn], 2u);
  EXPECT_EQ(t[Metric::GlobalLdPredOn], 0u);
  EXPECT_EQ(t[Metric::GlobalStPredOn], 0u);
  EXPECT_EQ(t[Metric::SharedStInst], 2u);
  EXPECT_EQ(t[Metric::SharedLdInst], 2u);
}

TEST(ActiveLanes, ClassesAndEveryBlockAgree) {
  // accumulate() must scale every InstStats lane count by the class size.
  SimulatedRun classes =
      simulate("ternaryGlobalLoad", {16, 1, 1}, {64, 1, 1}, {1000});
  SimulatedRun all = simulate("ternaryGlobalLoad", {16, 1, 1}, {64, 1, 1},
                              {1000}, /*exhaustive=*/true);
  EXPECT_EQ(classes.result.total.v, all.result.total.v);
  ASSERT_EQ(classes.result.perInst.size(), all.result.perInst.size());
  for (size_t i = 0; i < all.result.perInst.size(); ++i) {
    const InstStats &c = classes.result.perInst[i], &a = all.result.perInst[i];
    EXPECT_EQ(c.global.activeLanes, a.global.activeLanes) << i;
    EXPECT_EQ(c.shared.activeLanes, a.shared.activeLanes) << i;
    EXPECT_EQ(c.branch.activeLanes, a.branch.activeLanes) << i;
  }
  // 1000 of the 1024 threads load; all 1024 store.
  EXPECT_EQ(all.result.total[Metric::GlobalLdPredOn], 1000u);
  EXPECT_EQ(all.result.total[Metric::GlobalStPredOn], 1024u);
}

} // namespace
} // namespace kcheck::sim
